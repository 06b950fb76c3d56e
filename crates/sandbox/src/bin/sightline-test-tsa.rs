//! `sightline-test-tsa`: a local RFC 3161 timestamp authority for tests (see
//! `sightline_sandbox::tsa`), served on 127.0.0.1 until Ctrl-C or SIGTERM.

use std::path::PathBuf;
use std::process::ExitCode;

use sightline_sandbox::cli::{announce_and_wait, cannot_start, options_or_exit, split_flag};
use sightline_sandbox::tsa::{KeyKind, TestTsa, TsaOptions};

const NAME: &str = "sightline-test-tsa";

const USAGE: &str = "Usage: sightline-test-tsa --dir PATH [--port N] [--key rsa|p256|p384] [--ca-name NAME] [--ess-v2] [--fraction-digits N] [--ca-out PATH]

A test timestamp authority: tokens made by `openssl ts -reply`, signed by a TSA certificate
its own test CA issued. Prints, on two lines,
  tsa_url=http://127.0.0.1:PORT/
  ca_pem=PATH
  --dir PATH       its folder: the CA, the TSA key and certificate are made there when
                   missing, and kept, so a restart on the same folder is the same authority
  --port N         port to listen on (default 0: a free one)
  --key KIND       key of a CA and TSA made now: rsa (default), p256 or p384
  --ca-name NAME   the CA's common name (default \"Sightline Test Root CA\")
  --ess-v2         name the signing certificate by SHA-256 (signing-certificate-v2)
  --fraction-digits N  digits of a second in each token's time (0 to 6, default 0)
  --ca-out PATH    also copy the CA certificate (PEM) to PATH
While the file `down` exists in its folder it answers 503; while `refuse` exists it
refuses every SHA-256 request (openssl answers status rejection).";

struct Args {
    options: TsaOptions,
    ca_out: Option<PathBuf>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut dir = None;
    let mut options = TsaOptions::new("");
    let mut ca_out = None;
    while let Some(arg) = it.next() {
        let (flag, inline) = split_flag(&arg);
        let mut next = || {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--dir" => dir = Some(PathBuf::from(next()?)),
            "--port" => {
                let v = next()?;
                options.port = v.parse().map_err(|_| format!("--port: invalid {v:?}"))?;
            }
            "--key" => {
                options.key = match next()?.as_str() {
                    "rsa" => KeyKind::Rsa,
                    "p256" => KeyKind::P256,
                    "p384" => KeyKind::P384,
                    other => return Err(format!("--key: rsa, p256 or p384, not {other:?}")),
                }
            }
            "--ca-name" => options.ca_name = next()?,
            "--ess-v2" => options.ess_v2 = true,
            "--fraction-digits" => {
                let v = next()?;
                options.fraction_digits = v
                    .parse()
                    .ok()
                    .filter(|d| *d <= 6)
                    .ok_or_else(|| format!("--fraction-digits: 0 to 6, not {v:?}"))?;
            }
            "--ca-out" => ca_out = Some(PathBuf::from(next()?)),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    options.dir = dir.ok_or("--dir is needed")?;
    Ok(Some(Args { options, ca_out }))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match options_or_exit(NAME, USAGE, parse_args(std::env::args().skip(1))) {
        Ok(args) => args,
        Err(code) => return code,
    };
    let tsa = match TestTsa::start(args.options).await {
        Ok(tsa) => tsa,
        Err(e) => return cannot_start(NAME, e),
    };
    if let Some(out) = &args.ca_out {
        if let Err(e) = std::fs::copy(tsa.ca_pem_path(), out) {
            eprintln!("{NAME}: cannot write {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
    }
    announce_and_wait(&[
        ("tsa_url", tsa.url()),
        ("ca_pem", tsa.ca_pem_path().display().to_string()),
    ])
    .await;
    tsa.shutdown().await;
    ExitCode::SUCCESS
}
