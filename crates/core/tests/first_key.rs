//! The first run's key and address, checked together against real servers on this machine:
//! the sandbox (accepts its key, refuses another with 401, calls a cut-short one "not a key"
//! with 403), a closed port, a name that cannot exist, and a web server that is not the
//! service. After every failure nothing is kept: no keychain entry, no keys.json, no address.

use std::sync::Arc;

use sightline_core::environment::Environment;
use sightline_core::errors::CommandError;
use sightline_core::first_key::{self, FirstKey, FirstKeyOutcome, SetupField, SetupProblem};
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::session::Mode;
use sightline_core::state::AppState;
use sightline_sandbox::Sandbox;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

struct FirstRun {
    state: AppState,
    secrets: Arc<MemoryStore>,
    data: tempfile::TempDir,
}

fn first_run(environment: Environment) -> FirstRun {
    let data = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::default());
    let state = AppState::new(data.path().to_owned(), environment, secrets.clone()).unwrap();
    FirstRun {
        state,
        secrets,
        data,
    }
}

impl FirstRun {
    async fn connect(
        &self,
        value: &str,
        address: Option<&str>,
    ) -> Result<FirstKeyOutcome, CommandError> {
        first_key::connect(
            &self.state,
            FirstKey {
                label: "My key".into(),
                value: value.into(),
                address: address.map(str::to_owned),
                check_later: false,
            },
        )
        .await
    }

    /// The check failed with `expected`, and nothing of it was kept.
    async fn refused(
        &self,
        value: &str,
        address: &str,
        expected: &[SetupProblem],
    ) -> FirstKeyOutcome {
        let outcome = self.connect(value, Some(address)).await.unwrap();
        let FirstKeyOutcome::NotSaved { problem, .. } = &outcome else {
            panic!("{address}: expected a failed check, got {outcome:?}");
        };
        assert!(expected.contains(problem), "{address}: {problem:?}");
        self.assert_nothing_kept();
        outcome
    }

    fn assert_nothing_kept(&self) {
        assert!(
            self.secrets.get("My key").unwrap().is_none(),
            "a key reached the keychain"
        );
        assert!(
            !self.data.path().join("keys.json").exists(),
            "keys.json was written"
        );
        assert!(
            !self.data.path().join("settings.json").exists(),
            "settings.json was written"
        );
        assert!(self.state.keys().keys.is_empty());
        assert_eq!(self.state.settings().base_url, None);
        assert_eq!(self.state.mode(), Mode::Demo);
    }
}

async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .seed(9)
        .port(0)
        .pace_ms(0)
        .start()
        .await
        .unwrap()
}

/// Shaped like a key and long enough for the sandbox to take it for one: refused with 401.
fn unknown_key() -> String {
    format!("dt_${}", "Q".repeat(43))
}

/// Long enough for the client, cut short for the service: "not an API key" (403).
fn cut_short_key() -> String {
    format!("dt_${}", "Q".repeat(25))
}

/// A web server that is not the service: every path answers `status` with a small HTML page.
async fn other_web_server(status: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            let page = "<html><body><h1>It works!</h1></body></html>";
            let answer = format!(
                "HTTP/1.1 {status}\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });
    address
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_wrong_address_is_named_next_to_the_address_and_nothing_is_kept() {
    let run = first_run(Environment::default());
    let sandbox = sandbox().await;
    let key = sandbox.demo_key().to_owned();

    let closed_port = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let outcome = run
        .refused(&key, &closed_port, &[SetupProblem::Refused])
        .await;
    let FirstKeyOutcome::NotSaved {
        field,
        may_save_anyway,
        ..
    } = outcome
    else {
        unreachable!()
    };
    assert_eq!(field, Some(SetupField::Address));
    assert!(
        !may_save_anyway,
        "a refused connection is the address's fault"
    );

    // Offline, the resolver is unreachable and the check says so instead.
    run.refused(
        &key,
        "https://nonexistent.invalid",
        &[SetupProblem::NoSuchHost, SetupProblem::Offline],
    )
    .await;

    let not_found = other_web_server("404 Not Found").await;
    let outcome = run
        .refused(&key, &not_found, &[SetupProblem::NotThisService])
        .await;
    let FirstKeyOutcome::NotSaved { field, status, .. } = outcome else {
        unreachable!()
    };
    assert_eq!((field, status), (Some(SetupField::Address), Some(404)));

    let a_web_page = other_web_server("200 OK").await;
    run.refused(&key, &a_web_page, &[SetupProblem::NotThisService])
        .await;

    // Not an address at all: refused before anything is sent.
    let error = run.connect(&key, Some("sandbox.local")).await.unwrap_err();
    let CommandError::Invalid { fields, .. } = error else {
        panic!("{error:?}")
    };
    assert_eq!(fields[0].field, "address");
    run.assert_nothing_kept();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_and_a_value_that_is_not_a_key_are_named_next_to_the_key() {
    let run = first_run(Environment::default());
    let sandbox = sandbox().await;

    let outcome = run
        .refused(
            &unknown_key(),
            sandbox.base_url(),
            &[SetupProblem::KeyRefused],
        )
        .await;
    let FirstKeyOutcome::NotSaved {
        field,
        may_save_anyway,
        ..
    } = outcome
    else {
        unreachable!()
    };
    assert_eq!(field, Some(SetupField::Key));
    assert!(!may_save_anyway);

    run.refused(
        &cut_short_key(),
        sandbox.base_url(),
        &[SetupProblem::NotAKey],
    )
    .await;

    // A placeholder never leaves the machine: its shape is refused, next to the key.
    let error = run
        .connect("YOUR_API_KEY", Some(sandbox.base_url()))
        .await
        .unwrap_err();
    let CommandError::Invalid { fields, .. } = error else {
        panic!("{error:?}")
    };
    assert_eq!(fields[0].field, "value");
    run.assert_nothing_kept();
    assert!(
        sandbox.billed().responses().is_empty(),
        "a failed check was billed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_right_key_at_the_right_address_is_kept_checked_and_live() {
    let run = first_run(Environment::default());
    let sandbox = sandbox().await;

    let outcome = run
        .connect(
            sandbox.demo_key(),
            Some(&format!("{}/", sandbox.base_url())),
        )
        .await
        .unwrap();
    let FirstKeyOutcome::Saved { status, checked } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(checked);
    assert_eq!(status.mode, Mode::Live);
    assert!(status.service_configured);
    assert_eq!(status.keys[0].label, "My key");
    assert!(status.keys[0].verified_at.is_some());
    assert_eq!(
        run.secrets.get("My key").unwrap().unwrap().expose(),
        sandbox.demo_key()
    );
    assert_eq!(
        run.state.settings().base_url.as_deref(),
        Some(sandbox.base_url())
    );
    let saved = std::fs::read_to_string(run.data.path().join("settings.json")).unwrap();
    assert!(saved.contains(sandbox.base_url()));

    // The check was one billed request, on the live ledger like any other.
    assert_eq!(sandbox.billed().responses().len(), 1);
    let store = run.state.store_of(Mode::Live).await.unwrap();
    let totals = store
        .spend_totals(sightline_core::zone::time_zone(), chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(totals.all_time, sandbox.billed().total());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_known_address_is_used_and_not_asked_for() {
    let sandbox = sandbox().await;
    let run = first_run(Environment {
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    });
    assert!(run.state.status().service_configured);
    let outcome = run.connect(&unknown_key(), None).await.unwrap();
    assert!(matches!(
        outcome,
        FirstKeyOutcome::NotSaved {
            problem: SetupProblem::KeyRefused,
            ..
        }
    ));
    run.assert_nothing_kept();

    let outcome = run.connect(sandbox.demo_key(), None).await.unwrap();
    assert!(matches!(
        outcome,
        FirstKeyOutcome::Saved { checked: true, .. }
    ));
    // The address came from the environment: settings keep none of their own.
    assert_eq!(run.state.settings().base_url, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saving_to_check_later_keeps_both_unchecked_without_a_request() {
    let run = first_run(Environment::default());
    let sandbox = sandbox().await;
    let outcome = first_key::connect(
        &run.state,
        FirstKey {
            label: "My key".into(),
            value: sandbox.demo_key().into(),
            address: Some(sandbox.base_url().into()),
            check_later: true,
        },
    )
    .await
    .unwrap();
    let FirstKeyOutcome::Saved { status, checked } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(!checked);
    assert_eq!(status.keys[0].verified_at, None);
    assert!(run.secrets.get("My key").unwrap().is_some());
    assert_eq!(
        run.state.settings().base_url.as_deref(),
        Some(sandbox.base_url())
    );
    assert!(sandbox.billed().responses().is_empty(), "nothing was sent");
}
