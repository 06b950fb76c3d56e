//! The `sightline-test-tsa` binary as an e2e run or a person starts it: it prints its address and
//! CA, answers a request `openssl ts -query` made with a token `openssl ts -verify` accepts
//! against that CA, answers 503 while its `down` file exists, and refuses while `refuse` does.
//! Only with the `test-tsa` feature (as the workspace's tests build it: core's tests ask for it).
#![cfg(feature = "test-tsa")]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn openssl(dir: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[tokio::test]
async fn the_binary_serves_tokens_openssl_verifies_and_can_be_down_or_refusing() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("tsa");
    let ca_out = work.path().join("trusted-ca.pem");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline-test-tsa"))
        .args([
            "--dir",
            dir.to_str().unwrap(),
            "--port",
            "0",
            "--key",
            "p256",
        ])
        .args(["--ca-out", ca_out.to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let _running = Running(child);
    let mut lines = BufReader::new(stdout).lines();
    let url = lines.next().unwrap().unwrap();
    let url = url.strip_prefix("tsa_url=").expect("tsa_url=…").to_owned();
    let ca = lines.next().unwrap().unwrap();
    assert_eq!(ca, format!("ca_pem={}", dir.join("ca.pem").display()));
    assert_eq!(
        std::fs::read(&ca_out).unwrap(),
        std::fs::read(dir.join("ca.pem")).unwrap()
    );

    std::fs::write(work.path().join("capture.bin"), b"a capture's exact bytes").unwrap();
    let (ok, text) = openssl(
        work.path(),
        &[
            "ts",
            "-query",
            "-data",
            "capture.bin",
            "-sha256",
            "-cert",
            "-out",
            "req.tsq",
        ],
    );
    assert!(ok, "{text}");
    let query = std::fs::read(work.path().join("req.tsq")).unwrap();
    let client = reqwest::Client::new();
    let ask = || {
        client
            .post(&url)
            .header("content-type", "application/timestamp-query")
            .body(query.clone())
            .send()
    };

    let reply = ask().await.unwrap();
    assert_eq!(reply.status(), 200);
    assert_eq!(
        reply.headers()["content-type"],
        "application/timestamp-reply"
    );
    std::fs::write(work.path().join("reply.tsr"), reply.bytes().await.unwrap()).unwrap();
    let (ok, text) = openssl(
        work.path(),
        &[
            "ts",
            "-verify",
            "-in",
            "reply.tsr",
            "-data",
            "capture.bin",
            "-CAfile",
            "trusted-ca.pem",
        ],
    );
    assert!(ok && text.contains("Verification: OK"), "{text}");

    std::fs::write(dir.join("down"), b"").unwrap();
    assert_eq!(ask().await.unwrap().status(), 503);
    std::fs::remove_file(dir.join("down")).unwrap();

    std::fs::write(dir.join("refuse"), b"").unwrap();
    let refused = ask().await.unwrap();
    assert_eq!(refused.status(), 200, "a refusal is a TimeStampResp too");
    std::fs::write(
        work.path().join("refused.tsr"),
        refused.bytes().await.unwrap(),
    )
    .unwrap();
    let (_, text) = openssl(
        work.path(),
        &["ts", "-reply", "-in", "refused.tsr", "-text"],
    );
    assert!(text.contains("Status: Rejected"), "{text}");
}
