//! Why a connection failed, seen through the real client: a closed port, a name that cannot
//! exist, and a TLS listener with a self-signed certificate, all on this machine.

use std::sync::Arc;

use sightline_api::request::TwitterSearchRequest;
use sightline_api::{ApiError, ApiKey, Client, ClientConfig, NetworkCause, RetryPolicy};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_rustls::TlsAcceptor;

/// The cause the client gives for one X search sent to `base_url` (no retries).
async fn cause_at(base_url: &str) -> NetworkCause {
    let config = ClientConfig {
        retry: RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        },
        ..ClientConfig::new(base_url)
    };
    let key = ApiKey::parse(&format!("dt_${}", "a".repeat(43))).unwrap();
    let error = Client::new(config)
        .unwrap()
        .send(&TwitterSearchRequest::new("news"), &key)
        .await
        .unwrap_err();
    match error {
        ApiError::Network { cause, .. } => {
            assert_eq!(error.payload().network_cause, Some(cause));
            cause
        }
        other => panic!("expected a network error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_closed_port_refuses() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap().port()
    };
    let cause = cause_at(&format!("http://127.0.0.1:{port}")).await;
    assert_eq!(cause, NetworkCause::Refused);
}

#[tokio::test]
async fn a_name_that_cannot_exist_does_not_resolve() {
    // `.invalid` is reserved (RFC 2606): no resolver answers it with an address. Offline, the
    // resolver itself is unreachable, which is the other answer the client can give.
    let cause = cause_at("https://nonexistent.invalid").await;
    assert!(
        matches!(cause, NetworkCause::NoSuchHost | NetworkCause::Offline),
        "{cause:?}"
    );
}

#[tokio::test]
async fn a_self_signed_certificate_is_named() {
    let certificate =
        CertificateDer::from(include_bytes!("fixtures/self-signed-cert.der").to_vec());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
        include_bytes!("fixtures/self-signed-key.der").to_vec(),
    ));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            // The client gives up during the handshake; a finished one would get a plain 200.
            if let Ok(mut tls) = acceptor.accept(socket).await {
                let _ = tls
                    .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                    .await;
            }
        }
    });
    // By address, not by name: the certificate is refused either way (unknown issuer), and a
    // machine without /etc/hosts (a bare debootstrap root) cannot resolve localhost.
    let cause = cause_at(&format!("https://127.0.0.1:{port}")).await;
    assert_eq!(cause, NetworkCause::BadCertificate);
}
