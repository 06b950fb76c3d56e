//! The stamp queue's worker against real SQLite files and authorities on loopback: an
//! authority that always fails gets a bounded number of requests over a day of the stamper's
//! time (a doubling hold, never a loop), one that refuses leaves each capture failed with why
//! until "Stamp now"; and with the local test authority, every capture of a 200-capture case
//! gets a token `openssl ts -verify` accepts, captures queue while it is down and are stamped
//! when it returns.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sightline_api::request::TwitterSearchRequest;
use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::monitors::system_clock;
use sightline_core::pipeline;
use sightline_core::stamper::{self, Pace, Stamper, PACE};
use sightline_core::state::AppState;
use sightline_core::timestamps::{ChainTrust, TokenCheck};
use sightline_sandbox::Sandbox;
use sightline_store::{StampCounts, StampState};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::support::clock::SteppedClock;
use crate::support::evidence_seed;
use crate::support::live::Live;
use crate::support::send::send;
use crate::support::tsa::LocalTsa;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// An authority on loopback that answers every request with `status_line` and counts them.
async fn failing_authority(status_line: &'static str) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let count = asked.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut request = vec![0u8; 8192];
                let _ = socket.read(&mut request).await;
                let answer = format!(
                    "HTTP/1.1 {status_line}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                );
                let _ = socket.write_all(answer.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (format!("http://{address}/tsr"), asked)
}

/// An app on a fresh data folder with `tsa_url` set in Settings, holding an investigation of
/// `captures` captures none of which was stamped yet; the investigation's id.
async fn app_with_case(tsa_url: &str, captures: usize) -> (AppState, i64, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let state = AppState::new(
        data.path().to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    stamper::set_authority(&state, Some(tsa_url.into()), None)
        .await
        .unwrap();
    let store = state.store().await.unwrap();
    let case = evidence_seed::seed(&store, captures, 1).await;
    (state, case, data)
}

async fn counts(state: &AppState, case: i64) -> StampCounts {
    let store = state.store().await.unwrap();
    sightline_core::stamper::investigation_counts(&store, case)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authority_that_is_always_down_gets_a_doubling_hold_not_a_loop() {
    let (tsa, asked) = failing_authority("503 Service Unavailable").await;
    let (state, case, _data) = app_with_case(&tsa, 5).await;
    let clock = SteppedClock::new();
    let stamper = Stamper::new(PACE, clock.clone());
    assert_eq!(stamper.stamp_investigation(&state, case).await.unwrap(), 5);

    let test = async {
        // Asked at 0 s, then after holds of 30 s, 1, 2, 4 and 8 minutes: at 30, 90, 210, 450
        // and 930 s (the clock's last nap crosses the ten minutes).
        clock.run_to(Duration::from_secs(10 * 60)).await;
        assert_eq!(asked.load(Ordering::SeqCst), 6, "requests in ten minutes");
        // A day: the hold doubles to an hour and stays there: 8 requests in the first 3,810 s,
        // then one an hour.
        clock.run_to(DAY).await;
        let in_a_day = asked.load(Ordering::SeqCst);
        assert!(
            (30..=31).contains(&in_a_day),
            "{in_a_day} requests in a day"
        );
    };
    tokio::select! {
        () = stamper.serve(&state) => unreachable!("the stamper serves for ever"),
        () = test => {}
    }
    // Nothing was lost: every capture still waits, the one asked with why it failed.
    assert_eq!(
        counts(&state, case).await,
        StampCounts {
            waiting: 5,
            ..StampCounts::default()
        }
    );
    let store = state.store().await.unwrap();
    let stamps = store.capture_stamps(&[1]).await.unwrap();
    let StampState::Waiting {
        attempts, problem, ..
    } = &stamps[0].stamp
    else {
        panic!("{:?}", stamps[0].stamp);
    };
    assert!(*attempts >= 30, "{attempts}");
    assert!(
        problem
            .as_deref()
            .unwrap_or_default()
            .contains("could not be reached"),
        "{problem:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authority_that_refuses_fails_each_capture_once_until_the_user_asks_again() {
    let (tsa, asked) = failing_authority("400 Bad Request").await;
    let (state, case, _data) = app_with_case(&tsa, 3).await;
    let clock = SteppedClock::new();
    let stamper = Stamper::new(PACE, clock.clone());
    stamper.stamp_investigation(&state, case).await.unwrap();

    let test = async {
        clock.run_to(DAY).await;
        // Each capture asked once, a doubling hold between them; then nothing more.
        assert_eq!(asked.load(Ordering::SeqCst), 3);
        assert_eq!(
            counts(&state, case).await,
            StampCounts {
                failed: 3,
                ..StampCounts::default()
            }
        );
        // "Stamp now" puts them back in the queue, and they are asked again.
        assert_eq!(stamper.stamp_investigation(&state, case).await.unwrap(), 3);
        clock.run_to(DAY * 2).await;
        assert_eq!(asked.load(Ordering::SeqCst), 6);
    };
    tokio::select! {
        () = stamper.serve(&state) => unreachable!("the stamper serves for ever"),
        () = test => {}
    }
    let store = state.store().await.unwrap();
    let StampState::Failed { problem, .. } = &store.capture_stamps(&[2]).await.unwrap()[0].stamp
    else {
        panic!("not failed");
    };
    assert!(problem.contains("refused"), "{problem}");
}

#[tokio::test]
async fn with_no_authority_set_nothing_is_asked_and_stamp_now_says_to_choose_one() {
    let (tsa, asked) = failing_authority("503 Service Unavailable").await;
    let (state, case, _data) = app_with_case(&tsa, 2).await;
    let stamper = Stamper::new(PACE, SteppedClock::new());
    stamper.stamp_investigation(&state, case).await.unwrap();
    stamper::set_authority(&state, None, None).await.unwrap();

    stamper.step(&state).await;
    assert_eq!(asked.load(Ordering::SeqCst), 0);
    assert_eq!(counts(&state, case).await.waiting, 2);
    let error = stamper.stamp_investigation(&state, case).await.unwrap_err();
    assert!(error.message().contains("Settings"), "{}", error.message());
}

/// A pace for tests against the local authority: no gap, short holds.
fn quick() -> Pace {
    Pace {
        gap: Duration::ZERO,
        first_hold: Duration::from_millis(200),
        longest_hold: Duration::from_secs(1),
    }
}

/// Serves `stamper` until `done` holds of the app's captures, or `limit` passes.
async fn serve_until<F, Fut>(stamper: &Stamper, state: &AppState, limit: Duration, done: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let wait = async {
        let started = Instant::now();
        while !done().await {
            assert!(started.elapsed() < limit, "not done within {limit:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        () = stamper.serve(state) => unreachable!("the stamper serves for ever"),
        () = wait => {}
    }
}

/// `openssl ts -verify` of a stored reply for `sha256` against the authority's CA: its output.
fn openssl_verify(
    dir: &std::path::Path,
    reply: &[u8],
    sha256: &str,
    ca: &std::path::Path,
) -> String {
    let path = dir.join("reply.tsr");
    std::fs::write(&path, reply).unwrap();
    let out = Command::new("openssl")
        .args(["ts", "-verify", "-in"])
        .arg(&path)
        .args(["-digest", sha256, "-CAfile"])
        .arg(ca)
        .output()
        .expect("openssl runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "openssl refused the token for {sha256}: {text}"
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_capture_of_a_200_capture_case_gets_a_token_openssl_accepts() {
    let tsa = LocalTsa::start().await;
    let (state, case, data) = app_with_case(&tsa.tsa.url(), 200).await;
    stamper::set_authority(&state, Some(tsa.tsa.url()), Some(tsa.tsa.ca_pem()))
        .await
        .unwrap();
    let stamper = Stamper::new(quick(), system_clock());
    assert_eq!(
        stamper.stamp_investigation(&state, case).await.unwrap(),
        200
    );

    let started = Instant::now();
    serve_until(&stamper, &state, Duration::from_secs(180), || async {
        counts(&state, case).await.stamped == 200
    })
    .await;
    let took = started.elapsed();
    println!(
        "figure: 200 captures stamped by the local authority in {:.1} s, {} requests",
        took.as_secs_f64(),
        tsa.tsa.served()
    );
    // One request per capture, none asked twice.
    assert_eq!(tsa.tsa.served(), 200);

    let store = state.store().await.unwrap();
    let ids: Vec<i64> = (1..=200).collect();
    let tokens = store.stamp_tokens(&ids).await.unwrap();
    assert_eq!(tokens.len(), 200);
    for token in &tokens {
        let said = openssl_verify(
            data.path(),
            &token.reply_der,
            &token.sha256,
            &tsa.tsa.ca_pem_path(),
        );
        assert!(said.contains("Verification: OK"), "{said}");
        assert!(token.authority.contains("Test"), "{}", token.authority);
        assert!(token.certificates_pem.contains("BEGIN CERTIFICATE"));
    }
    // The app's own check agrees, and names the certificate added in Settings as the root.
    let check = stamper::check(&state, tokens[0].history_id)
        .await
        .unwrap()
        .unwrap();
    let TokenCheck::Valid { chain, .. } = check else {
        panic!("the app found its token invalid: {check:?}");
    };
    assert!(matches!(chain, ChainTrust::Added { .. }), "{chain:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn captures_queue_while_the_authority_is_down_and_are_stamped_when_it_returns() {
    let mut tsa = LocalTsa::start().await;
    let live = Live::start(Sandbox::builder().seed(30)).await;
    stamper::set_authority(&live.state, Some(tsa.tsa.url()), None)
        .await
        .unwrap();
    tsa.tsa.stop().await;

    // Five searches through the pipeline, recorded while the authority cannot be reached.
    let session = live.state.session().await.unwrap();
    let mut ids = Vec::new();
    for n in 0..5 {
        let search = TwitterSearchRequest {
            count: 5,
            ..TwitterSearchRequest::new(format!("harbour {n}"))
        };
        let found = pipeline::execute(&live.state, &session, search, send(&format!("s-{n}")), None)
            .await
            .unwrap();
        ids.push(found.history_id);
    }
    let store = live.state.store().await.unwrap();
    let waiting = |stamps: &[sightline_store::CaptureStamp]| {
        stamps
            .iter()
            .filter(|s| matches!(s.stamp, StampState::Waiting { .. }))
            .count()
    };
    assert_eq!(waiting(&store.capture_stamps(&ids).await.unwrap()), 5);

    // A couple of seconds with the authority down: they stay waiting, the first with why.
    let stamper = Stamper::new(quick(), system_clock());
    tokio::select! {
        () = stamper.serve(&live.state) => unreachable!(),
        () = tokio::time::sleep(Duration::from_secs(2)) => {}
    }
    let stamps = store.capture_stamps(&ids).await.unwrap();
    assert_eq!(waiting(&stamps), 5, "{stamps:?}");
    let StampState::Waiting {
        attempts, problem, ..
    } = &stamps[0].stamp
    else {
        unreachable!()
    };
    assert!(
        *attempts >= 1 && *attempts <= 4,
        "{attempts} attempts in two seconds"
    );
    assert!(
        problem
            .as_deref()
            .unwrap_or_default()
            .contains("could not be reached"),
        "{problem:?}"
    );

    // Back on the same address: each is stamped.
    let tsa = tsa.restart().await;
    serve_until(&stamper, &live.state, Duration::from_secs(30), || async {
        store
            .capture_stamps(&ids)
            .await
            .unwrap()
            .iter()
            .all(|s| matches!(s.stamp, StampState::Stamped { .. }))
    })
    .await;
    for token in store.stamp_tokens(&ids).await.unwrap() {
        openssl_verify(
            tsa.dir.path(),
            &token.reply_der,
            &token.sha256,
            &tsa.tsa.ca_pem_path(),
        );
    }
}
