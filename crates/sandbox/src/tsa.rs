//! A local RFC 3161 timestamp authority for tests (feature `test-tsa`; never part of the demo
//! service, never in the app): real tokens, each made by `openssl ts -reply` for the request
//! posted, signed by a TSA certificate (critical `timeStamping` extended key usage) that its
//! own test CA issued. Served on 127.0.0.1 by [`TestTsa::start`] or the `sightline-test-tsa`
//! binary.
//!
//! * Its folder keeps the CA, the TSA key and certificate and openssl's serial file: started
//!   again on the same folder (and port), it is the same authority.
//! * While the file `down` exists in its folder ([`TestTsa::set_down`]) it answers 503, as an
//!   authority that is down; while `refuse` exists ([`TestTsa::set_refusing`]) it is asked
//!   through a section of its config that accepts only SHA-512 imprints, so openssl itself
//!   rejects a SHA-256 request (status `rejection`, "bad algorithm").
//! * Requests are answered one at a time, as openssl's serial file needs.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use tokio::sync::{oneshot, Mutex};
use tokio::task::JoinHandle;

/// The file whose presence makes the authority answer 503.
pub const DOWN_FILE: &str = "down";
/// The file whose presence makes the authority refuse.
pub const REFUSE_FILE: &str = "refuse";
/// The CA certificate, PEM, in the authority's folder.
pub const CA_PEM: &str = "ca.pem";
/// The TSA's signing certificate, PEM, in the authority's folder.
pub const TSA_PEM: &str = "tsa.pem";

/// The largest request read (a request is about 60 bytes).
const MAX_QUERY_BYTES: usize = 16 * 1024;

/// The signing key's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// RSA 2048, PKCS#1 v1.5 signatures.
    Rsa,
    /// ECDSA on P-256.
    P256,
    /// ECDSA on P-384.
    P384,
}

impl KeyKind {
    fn newkey(self) -> &'static [&'static str] {
        match self {
            Self::Rsa => &["-newkey", "rsa:2048"],
            Self::P256 => &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
            Self::P384 => &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
        }
    }
}

/// How to start an authority.
#[derive(Debug, Clone)]
pub struct TsaOptions {
    /// Its folder: made when missing, its CA and TSA certificate made when it has none.
    pub dir: PathBuf,
    /// The port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// The key kind of a CA and TSA made now (both the same kind).
    pub key: KeyKind,
    /// The common name of a CA made now (two authorities need two names to be told apart).
    pub ca_name: String,
    /// Name the signing certificate by SHA-256 (ESS signing-certificate-v2) instead of openssl's
    /// default SHA-1 (v1).
    pub ess_v2: bool,
    /// Digits of a second in its `genTime` (openssl's `clock_precision_digits`, 0 to 6).
    pub fraction_digits: u8,
}

impl TsaOptions {
    /// An RSA authority in `dir`, on a free port.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            port: 0,
            key: KeyKind::Rsa,
            ca_name: "Sightline Test Root CA".into(),
            ess_v2: false,
            fraction_digits: 0,
        }
    }
}

/// A running authority; stopped when dropped.
pub struct TestTsa {
    addr: SocketAddr,
    dir: PathBuf,
    served: Arc<AtomicU64>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

struct Shared {
    dir: PathBuf,
    served: Arc<AtomicU64>,
    /// One `openssl ts -reply` at a time (its serial file).
    one_at_a_time: Mutex<()>,
}

impl TestTsa {
    /// Makes the CA and TSA certificate when the folder has none, then listens.
    pub async fn start(options: TsaOptions) -> std::io::Result<TestTsa> {
        let setup = options.clone();
        tokio::task::spawn_blocking(move || prepare(&setup))
            .await
            .map_err(std::io::Error::other)??;
        let listener =
            tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, options.port)))
                .await?;
        let addr = listener.local_addr()?;
        let served = Arc::new(AtomicU64::new(0));
        let shared = Arc::new(Shared {
            dir: options.dir.clone(),
            served: served.clone(),
            one_at_a_time: Mutex::new(()),
        });
        let app = Router::new().route("/", post(answer)).with_state(shared);
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(TestTsa {
            addr,
            dir: options.dir,
            served,
            stop: Some(tx),
            task: Some(task),
        })
    }

    /// Its address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Its folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Its CA certificate (PEM), the one a user adds as trusted.
    pub fn ca_pem_path(&self) -> PathBuf {
        self.dir.join(CA_PEM)
    }

    /// Its CA certificate, PEM.
    pub fn ca_pem(&self) -> String {
        std::fs::read_to_string(self.ca_pem_path()).expect("the authority's CA certificate")
    }

    /// How many stamps it has granted or refused (503s not counted).
    pub fn served(&self) -> u64 {
        self.served.load(Ordering::SeqCst)
    }

    /// Down (503) or up again.
    pub fn set_down(&self, down: bool) {
        flag(&self.dir.join(DOWN_FILE), down);
    }

    /// Refusing (openssl rejects the request) or granting again.
    pub fn set_refusing(&self, refusing: bool) {
        flag(&self.dir.join(REFUSE_FILE), refusing);
    }

    /// Stops listening and waits until the port is free (as an authority that was killed).
    pub async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// Stops it for good.
    pub async fn shutdown(mut self) {
        self.stop().await;
    }
}

impl Drop for TestTsa {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn flag(path: &Path, on: bool) {
    if on {
        std::fs::write(path, b"").expect("the authority's folder is writable");
    } else if path.exists() {
        std::fs::remove_file(path).expect("the authority's folder is writable");
    }
}

async fn answer(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    if shared.dir.join(DOWN_FILE).exists() {
        return (StatusCode::SERVICE_UNAVAILABLE, "down for a test").into_response();
    }
    let typed = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("application/timestamp-query"));
    if !typed {
        return (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send application/timestamp-query",
        )
            .into_response();
    }
    if body.is_empty() || body.len() > MAX_QUERY_BYTES {
        return (StatusCode::BAD_REQUEST, "no request, or too large").into_response();
    }
    let _one = shared.one_at_a_time.lock().await;
    let dir = shared.dir.clone();
    let reply = tokio::task::spawn_blocking(move || reply(&dir, &body)).await;
    match reply {
        Ok(Ok(der)) => {
            shared.served.fetch_add(1, Ordering::SeqCst);
            ([(header::CONTENT_TYPE, "application/timestamp-reply")], der).into_response()
        }
        Ok(Err(error)) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
    }
}

/// `openssl ts -reply` for one request, through the refusing section while `refuse` exists.
fn reply(dir: &Path, query: &[u8]) -> std::io::Result<Vec<u8>> {
    let query_file = dir.join("query.tsq");
    let reply_file = dir.join("reply.tsr");
    std::fs::write(&query_file, query)?;
    let section = if dir.join(REFUSE_FILE).exists() {
        "tsa_refuse"
    } else {
        "tsa_grant"
    };
    openssl(
        dir,
        &[
            "ts",
            "-reply",
            "-config",
            "tsa.cnf",
            "-section",
            section,
            "-queryfile",
            "query.tsq",
            "-out",
            "reply.tsr",
        ],
    )?;
    std::fs::read(reply_file)
}

/// Writes the config and, when missing, the CA and the TSA's key and certificate.
fn prepare(options: &TsaOptions) -> std::io::Result<()> {
    let dir = &options.dir;
    std::fs::create_dir_all(dir)?;
    let dir_text = dir
        .to_str()
        .ok_or_else(|| std::io::Error::other("the authority's folder must be UTF-8"))?;
    std::fs::write(dir.join("tsa.cnf"), config(dir_text, options))?;
    if dir.join(CA_PEM).exists() && dir.join(TSA_PEM).exists() {
        return Ok(());
    }
    let newkey = options.key.newkey();
    let mut ca = vec![
        "req", "-config", "tsa.cnf", "-x509", "-nodes", "-days", "3650",
    ];
    ca.extend_from_slice(newkey);
    ca.extend_from_slice(&[
        "-keyout",
        "ca.key",
        "-out",
        CA_PEM,
        "-extensions",
        "v3_ca",
        "-subj",
    ]);
    let ca_subject = format!("/CN={}/O=Sightline tests", options.ca_name);
    ca.push(&ca_subject);
    openssl(dir, &ca)?;
    let mut csr = vec!["req", "-config", "tsa.cnf", "-new", "-nodes"];
    csr.extend_from_slice(newkey);
    let tsa_subject = format!(
        "/CN={} TSA/O=Sightline tests",
        options.ca_name.trim_end_matches(" Root CA")
    );
    csr.extend_from_slice(&[
        "-keyout",
        "tsa.key",
        "-out",
        "tsa.csr",
        "-subj",
        &tsa_subject,
    ]);
    openssl(dir, &csr)?;
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "tsa.csr",
            "-CA",
            CA_PEM,
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "3650",
            "-extfile",
            "tsa.cnf",
            "-extensions",
            "v3_tsa",
            "-out",
            TSA_PEM,
        ],
    )?;
    std::fs::write(dir.join("tsaserial"), b"01\n")?;
    Ok(())
}

/// Runs openssl in `dir`; its stderr becomes the error.
fn openssl(dir: &Path, args: &[&str]) -> std::io::Result<()> {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| {
            std::io::Error::other(format!("cannot run openssl ({e}); is it installed?"))
        })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "openssl {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        )))
    }
}

/// The CA's and TSA's certificate extensions and the two `ts -reply` sections: `tsa_grant`
/// (SHA-256/384/512 imprints) and `tsa_refuse` (SHA-512 only, so a SHA-256 request is refused).
fn config(dir: &str, options: &TsaOptions) -> String {
    let ca_name = &options.ca_name;
    let ess_alg = if options.ess_v2 { "sha256" } else { "sha1" };
    let digits = options.fraction_digits.min(6);
    let section = |name: &str, digests: &str| {
        format!(
            "[ {name} ]\n\
             dir = {dir}\n\
             serial = $dir/tsaserial\n\
             crypto_device = builtin\n\
             signer_cert = $dir/{TSA_PEM}\n\
             certs = $dir/{CA_PEM}\n\
             signer_key = $dir/tsa.key\n\
             signer_digest = sha256\n\
             default_policy = 1.3.6.1.4.1.99999.1\n\
             digests = {digests}\n\
             accuracy = secs:1\n\
             clock_precision_digits = {digits}\n\
             ordering = no\n\
             tsa_name = yes\n\
             ess_cert_id_chain = no\n\
             ess_cert_id_alg = {ess_alg}\n\n"
        )
    };
    format!(
        "# {ca_name}: a test timestamp authority (crates/sandbox/src/tsa.rs).\n\
         [ req ]\n\
         distinguished_name = req_dn\n\
         prompt = no\n\n\
         [ req_dn ]\n\
         CN = unused\n\n\
         [ v3_ca ]\n\
         basicConstraints = critical, CA:TRUE\n\
         keyUsage = critical, keyCertSign, cRLSign\n\
         subjectKeyIdentifier = hash\n\n\
         [ v3_tsa ]\n\
         basicConstraints = critical, CA:FALSE\n\
         keyUsage = critical, digitalSignature, nonRepudiation\n\
         extendedKeyUsage = critical, timeStamping\n\
         subjectKeyIdentifier = hash\n\
         authorityKeyIdentifier = keyid:always\n\n\
         [ tsa ]\n\
         default_tsa = tsa_grant\n\n{}{}",
        section("tsa_grant", "sha256, sha384, sha512"),
        section("tsa_refuse", "sha512"),
    )
}
