//! Every command family through Tauri's mock runtime, against a real sandbox on a loopback port
//! and real SQLite files in a temporary data folder. The keychain is the in-memory store here
//! (the real Secret Service is covered by keychain.rs's test); what matters is that the key
//! never comes back out.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use sightline_core::environment::Environment;
use sightline_core::keychain::{KeyringStore, MemoryStore, SecretStore};
use sightline_sandbox::{Fault, Sandbox};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    get_ipc_response, mock_builder, mock_context, noop_assets, MockRuntime, INVOKE_KEY,
};
use tauri::webview::InvokeRequest;
use tauri::{Listener, WebviewWindow};

struct Harness {
    webview: WebviewWindow<MockRuntime>,
    _app: tauri::App<MockRuntime>,
    /// Every reply, error and event, to prove the key never appears in any.
    seen: Arc<Mutex<Vec<String>>>,
    data: tempfile::TempDir,
}

impl Harness {
    fn new(environment: Environment) -> Self {
        Self::with_secrets(environment, Arc::new(MemoryStore::default()))
    }

    fn with_secrets(environment: Environment, secrets: Arc<dyn SecretStore>) -> Self {
        let data = tempfile::tempdir().unwrap();
        let environment = Environment {
            data_dir: Some(data.path().to_owned()),
            ..environment
        };
        let app = sightline_lib::configure(mock_builder(), environment.clone(), secrets.clone())
            .build(mock_context(noop_assets()))
            .unwrap();
        sightline_lib::manage_state(app.handle(), environment, secrets).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let events = seen.clone();
        app.listen_any(sightline_lib::commands::RECORDS_CHANGED, move |event| {
            events.lock().unwrap().push(event.payload().to_owned());
        });
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();
        Self {
            webview,
            _app: app,
            seen,
            data,
        }
    }

    fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        let reply = get_ipc_response(&self.webview, request)
            .map(|body| body.deserialize::<Value>().unwrap());
        self.seen.lock().unwrap().push(format!("{reply:?}"));
        reply
    }

    fn ok(&self, cmd: &str, args: Value) -> Value {
        self.call(cmd, args)
            .unwrap_or_else(|error| panic!("{cmd} failed: {error}"))
    }

    fn err(&self, cmd: &str, args: Value) -> Value {
        self.call(cmd, args)
            .expect_err(&format!("{cmd} should have failed"))
    }

    fn assert_never_saw(&self, secret: &str) {
        for text in self.seen.lock().unwrap().iter() {
            assert!(!text.contains(secret), "the key leaked into: {text}");
        }
        for entry in walk(self.data.path()) {
            // SQLite may remove a journal file between the listing and the read.
            let bytes = match std::fs::read(&entry) {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => panic!("could not read {}: {error}", entry.display()),
            };
            assert!(
                !bytes
                    .windows(secret.len())
                    .any(|window| window == secret.as_bytes()),
                "the key was written to {}",
                entry.display()
            );
        }
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .seed(7)
        .port(0)
        .pace_ms(0)
        .faults(true)
        .start()
        .await
        .unwrap()
}

/// A word many posts of the sandbox's world contain, so a search is sure to find some.
fn common_word(sandbox: &Sandbox) -> String {
    let world = sandbox.world();
    let mut words: Vec<(&String, usize)> = world
        .token_index
        .iter()
        .filter(|(word, posts)| {
            word.len() > 4 && word.chars().all(|c| c.is_ascii_lowercase()) && posts.len() > 200
        })
        .map(|(word, posts)| (word, posts.len()))
        .collect();
    words.sort();
    words.first().expect("the world has common words").0.clone()
}

fn send(id: &str) -> Value {
    json!({ "requestId": id })
}

fn live(sandbox: &Sandbox) -> Environment {
    Environment {
        base_url: Some(sandbox.base_url().to_owned()),
        ..Environment::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_key_is_checked_at_the_typed_address_before_it_is_kept() {
    let sandbox = sandbox().await;
    let app = Harness::new(Environment::default());
    let status = app.ok("app_status", json!({}));
    assert_eq!(
        status["serviceConfigured"], false,
        "the welcome asks for the address"
    );

    let first = |value: &str, address: &str| {
        let first =
            json!({"label": "work", "value": value, "address": address, "checkLater": false});
        json!({ "first": first })
    };
    let unknown = format!("dt_${}", "A".repeat(43));
    let refused = app.ok("key_connect", first(&unknown, sandbox.base_url()));
    assert_eq!(refused["outcome"], "not_saved", "{refused}");
    assert_eq!(refused["problem"], "key_refused");
    assert_eq!(refused["field"], "key");
    assert_eq!(refused["maySaveAnyway"], false);
    assert_eq!(app.ok("app_status", json!({}))["keys"], json!([]));

    let key = sandbox.demo_key().to_owned();
    let saved = app.ok("key_connect", first(&key, sandbox.base_url()));
    assert_eq!(saved["outcome"], "saved", "{saved}");
    assert_eq!(saved["checked"], true);
    assert_eq!(saved["status"]["mode"], "live");
    assert_eq!(
        app.ok("settings_get", json!({}))["baseUrl"],
        sandbox.base_url()
    );
    app.assert_never_saw(&key);
    app.assert_never_saw(&unknown);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_are_checked_stored_masked_and_never_returned() {
    let sandbox = sandbox().await;
    let key = sandbox.demo_key().to_owned();
    let app = Harness::new(live(&sandbox));

    let status = app.ok("app_status", json!({}));
    assert_eq!(status["mode"], "demo", "no key stored: demo data");

    let placeholder = app.err("key_add", json!({"label": "work", "value": "YOUR_API_KEY"}));
    assert_eq!(placeholder["kind"], "invalid");
    assert_eq!(placeholder["fields"][0]["field"], "value");
    assert!(
        placeholder["message"]
            .as_str()
            .unwrap()
            .contains("example text"),
        "{placeholder}"
    );
    let token = app.err(
        "key_add",
        json!({"label": "work", "value": "eyJhbGciOiJIUzI1NiJ9.session"}),
    );
    assert!(
        token["fields"][0]["message"]
            .as_str()
            .unwrap()
            .contains("dt_"),
        "{token}"
    );

    let status = app.ok("key_add", json!({"label": "work", "value": key}));
    assert_eq!(
        status["mode"], "live",
        "the first key makes the app live at once"
    );
    assert_eq!(status["activeKey"], "work");
    let masked = status["keys"][0]["masked"].as_str().unwrap();
    assert!(masked.starts_with("dt_…") && masked.len() < 12, "{masked}");

    let verified = app.ok("key_verify", json!({"label": "work"}));
    assert!(verified["keys"][0]["verifiedAt"].is_string());

    app.ok(
        "key_rename",
        json!({"label": "work", "newLabel": "newsroom"}),
    );
    let duplicate = app.err("key_add", json!({"label": "newsroom", "value": key}));
    assert_eq!(duplicate["fields"][0]["field"], "label");

    // A well-formed key the service does not know: 401 in plain words, and the old key stays.
    let unknown = format!("dt_${}", "A".repeat(43));
    let refused = app.err(
        "key_rotate",
        json!({"label": "newsroom", "newValue": unknown}),
    );
    assert_eq!(refused["error"]["kind"], "key_refused", "{refused}");
    app.ok("key_verify", json!({"label": "newsroom"}));

    let history = app.ok("history_list", json!({"query": {}}));
    assert_eq!(
        history["total"], 3,
        "two checks and the refused rotation are in the live history"
    );
    let status = app.ok("key_delete", json!({"label": "newsroom"}));
    assert_eq!(status["mode"], "demo");
    assert_eq!(status["keys"].as_array().unwrap().len(), 0);

    app.assert_never_saw(&key);
    app.assert_never_saw(&unknown);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_is_validated_billed_recorded_archived_and_never_paid_twice() {
    let sandbox = sandbox().await;
    let key = sandbox.demo_key().to_owned();
    let app = Harness::new(live(&sandbox));
    app.ok("key_add", json!({"label": "work", "value": key}));

    let bad = app.err(
        "twitter_search",
        json!({"request": {"query": "", "count": 500}, "send": send("bad")}),
    );
    assert_eq!(bad["kind"], "invalid");
    let fields: Vec<&str> = bad["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert!(
        fields.contains(&"query") && fields.contains(&"count"),
        "{bad}"
    );
    assert_eq!(
        app.ok("history_list", json!({"query": {}}))["total"],
        0,
        "nothing invalid is sent"
    );

    let word = common_word(&sandbox);
    let first = app.ok(
        "twitter_search",
        json!({"request": {"query": word, "count": 10}, "send": send("r1")}),
    );
    let posts = first["body"].as_array().unwrap();
    assert!(!posts.is_empty());
    let cost = first["billing"]["cost"].as_str().unwrap().to_owned();
    assert_eq!(first["billing"]["usage_count"], posts.len());

    let again = app.ok(
        "twitter_search",
        json!({"request": {"query": word, "count": 10}, "send": send("r1")}),
    );
    assert_eq!(again["replayed"], true);
    assert_eq!(again["body"], first["body"]);

    let history = app.ok("history_list", json!({"query": {}}));
    assert_eq!(
        history["total"], 1,
        "a repeated request id is not sent again"
    );
    let entry = &history["entries"][0];
    assert_eq!(entry["operation"], "twitter_search");
    assert_eq!(entry["key_label"], "work");
    assert_eq!(app.ok("spend_totals", json!({}))["today"], cost);

    let archived = app.ok(
        "archive_posts",
        json!({"query": {"history_id": first["historyId"]}}),
    );
    assert_eq!(archived["total"], posts.len());

    // The same search again, as a new request: the service answers 304 to our ETag, for free.
    let revalidated = app.ok(
        "twitter_search",
        json!({"request": {"query": word, "count": 10}, "send": send("r1-again")}),
    );
    assert_eq!(revalidated["fromCache"], true, "{revalidated}");
    assert_eq!(revalidated["billing"], Value::Null);
    assert_eq!(revalidated["body"], first["body"]);
    assert_eq!(
        app.ok("spend_totals", json!({}))["today"],
        cost,
        "a 304 costs nothing"
    );
    let history = app.ok("history_list", json!({"query": {}}));
    assert_eq!(history["entries"][0]["status"], "not_modified");

    // A second request with an estimate from the learned rate, then a budget below it blocks.
    let check = app.ok(
        "estimate_cost",
        json!({"operation": "twitter_search", "request": {"query": "x", "count": 10}}),
    );
    assert!(check["estimate"]["amount"].is_string(), "{check}");
    app.ok(
        "budget_set",
        json!({"limits": {"daily": "0.000001", "monthly": null, "warn_percent": 80}}),
    );
    let blocked = app.err(
        "twitter_search",
        json!({"request": {"query": word, "count": 10}, "send": send("r2")}),
    );
    assert_eq!(blocked["kind"], "budget_blocked", "{blocked}");
    assert_eq!(
        app.ok("history_list", json!({"query": {}}))["total"],
        2,
        "a blocked request is not sent"
    );

    app.assert_never_saw(&key);
    assert!(!app.seen.lock().unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_errors_are_classified_and_recorded_and_results_reopen_offline() {
    let sandbox = sandbox().await;
    let app = Harness::new(live(&sandbox));
    app.ok(
        "key_add",
        json!({"label": "work", "value": sandbox.demo_key()}),
    );

    sandbox.faults().push(
        "/twitter",
        Fault::Status {
            status: 429,
            body: None,
            headers: [("Retry-After".to_owned(), "42".to_owned())].into(),
        },
    );
    // GETs retry on 429 with a short wait; a long Retry-After is returned to count down instead.
    let limited = app.err(
        "twitter_search",
        json!({"request": {"query": "rain"}, "send": send("e1")}),
    );
    assert_eq!(limited["error"]["kind"], "rate_limited", "{limited}");
    assert_eq!(limited["error"]["retry_after_secs"], 42);

    let ok = app.ok(
        "twitter_search",
        json!({"request": {"query": "rain"}, "send": send("e2")}),
    );
    let history = app.ok("history_list", json!({"query": {}}));
    assert_eq!(history["total"], 2);
    assert_eq!(history["entries"][1]["status"], "error");
    assert_eq!(history["entries"][1]["error_class"], "rate_limited");

    sandbox.shutdown().await;
    let reopened = app.ok("history_result", json!({"historyId": ok["historyId"]}));
    let body: Value = serde_json::from_str(reopened["body"].as_str().unwrap()).unwrap();
    assert_eq!(
        body, ok["body"],
        "the stored result re-opens with the service gone"
    );
    let offline = app.err(
        "twitter_search",
        json!({"request": {"query": "rain"}, "send": send("e3")}),
    );
    assert_eq!(offline["error"]["kind"], "network", "{offline}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timelines_page_through_history_until_the_last_page() {
    let sandbox = sandbox().await;
    let app = Harness::new(live(&sandbox));
    app.ok(
        "key_add",
        json!({"label": "work", "value": sandbox.demo_key()}),
    );
    // A user whose timeline spans a few pages (20 posts each): the walk has an end to reach.
    let world = sandbox.world();
    let (chosen, _) = world
        .timelines
        .iter()
        .enumerate()
        .min_by_key(|(_, timeline)| timeline.len().abs_diff(70))
        .unwrap();
    let user = world.users[chosen].username.clone();

    let mut page = app.ok(
        "twitter_user_posts",
        json!({"request": {"username": user}, "send": send("p0")}),
    );
    let mut pages = 1;
    while page["hasMore"] == true && pages < 50 {
        page = app.ok(
            "user_posts_next_page",
            json!({"historyId": page["historyId"], "send": send(&format!("p{pages}"))}),
        );
        pages += 1;
    }
    assert!(pages > 1, "the timeline has more than one page");
    assert_eq!(page["hasMore"], false, "paging ends");
    let last = app.err(
        "user_posts_next_page",
        json!({"historyId": page["historyId"], "send": send("past-end")}),
    );
    assert_eq!(last["kind"], "not_found");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_mode_needs_no_key_and_keeps_its_own_records() {
    let app = Harness::new(Environment {
        force_demo: true,
        ..Environment::default()
    });
    assert_eq!(app.ok("app_status", json!({}))["mode"], "demo");
    let trends = app.ok(
        "twitter_trends",
        json!({"request": {"woeid": 1, "count": 30}, "send": send("d1")}),
    );
    assert!(!trends["body"]["trends"].as_array().unwrap().is_empty());
    assert!(app.data.path().join("demo.db").exists());
    assert!(
        !app.data.path().join("sightline.db").exists(),
        "demo spending never touches the live ledger"
    );
    let history = app.ok("history_list", json!({"query": {}}));
    assert_eq!(history["entries"][0]["mode"], "demo");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_are_validated_and_persist() {
    let app = Harness::new(Environment::default());
    let defaults = app.ok("settings_get", json!({}));
    assert_eq!(defaults["mediaSafeView"], true);
    assert_eq!(defaults["mediaSizeLimitMb"], 100);
    assert!(defaults.get("loadRemoteMedia").is_none());
    let bad = app.err(
        "settings_set",
        json!({"settings": {"baseUrl": "example", "retryAttempts": 0}}),
    );
    assert_eq!(bad["kind"], "invalid");
    let saved = app.ok(
        "settings_set",
        json!({"settings": {"baseUrl": "https://service.example", "mediaSafeView": false, "theme": "dark"}}),
    );
    assert_eq!(saved["theme"], "dark");
    assert_eq!(saved["mediaSafeView"], false);
    let text = std::fs::read_to_string(app.data.path().join("settings.json")).unwrap();
    assert!(text.contains("https://service.example"));
}

/// The key commands against the real Secret Service that `make test` starts (a private D-Bus
/// session with an unlocked gnome-keyring): the value lands there, and only there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_commands_use_the_real_keychain() {
    let sandbox = sandbox().await;
    let key = sandbox.demo_key().to_owned();
    let service = format!("app.sightline.desktop.tests.{}", std::process::id());
    let keychain = Arc::new(KeyringStore::new(service.clone()));
    assert!(
        keychain.status().reachable,
        "no Secret Service: run via scripts/with-keyring.sh"
    );
    let app = Harness::with_secrets(live(&sandbox), keychain.clone());

    app.ok("key_add", json!({"label": "desk", "value": key}));
    assert_eq!(keychain.get("desk").unwrap().unwrap().expose(), key);
    app.ok("key_verify", json!({"label": "desk"}));
    app.ok("key_rename", json!({"label": "desk", "newLabel": "field"}));
    assert_eq!(
        keychain.get("desk").unwrap(),
        None,
        "a rename moves the entry"
    );
    assert_eq!(keychain.get("field").unwrap().unwrap().expose(), key);
    app.ok("key_delete", json!({"label": "field"}));
    assert_eq!(keychain.get("field").unwrap(), None);
    app.assert_never_saw(&key);
}
