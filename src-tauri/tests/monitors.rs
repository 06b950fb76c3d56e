//! Monitors through Tauri's mock runtime, against a sandbox with a live trickle on loopback and
//! real SQLite files: a monitor created and run now finds new posts, stores them unseen, tells
//! the window (`monitors-changed`) and writes its notification to the test log even where no
//! desktop can show it; the unseen count is the badge's until the posts are marked seen.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_sandbox::Sandbox;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::Listener;

fn call(webview: &tauri::WebviewWindow<tauri::test::MockRuntime>, cmd: &str, args: Value) -> Value {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(webview, request)
        .map(|body| body.deserialize::<Value>().unwrap())
        .unwrap_or_else(|error| panic!("{cmd} failed: {error}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_run_now_stores_unseen_posts_then_notifies_and_the_badge_holds_them() {
    let sandbox = Sandbox::builder()
        .seed(16)
        .port(0)
        .pace_ms(0)
        .live_rate(120)
        .start()
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let log = data.path().join("notifications.jsonl");
    // Read by the app each time it notifies; this test binary runs nothing else.
    std::env::set_var(sightline_lib::monitors::NOTIFICATION_LOG_VAR, &log);
    let environment = Environment {
        data_dir: Some(data.path().join("app")),
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    };
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let app = sightline_lib::configure(mock_builder(), environment.clone(), secrets.clone())
        .build(mock_context(noop_assets()))
        .unwrap();
    sightline_lib::manage_state(app.handle(), environment, secrets).unwrap();
    let changes = Arc::new(Mutex::new(Vec::<Value>::new()));
    let seen = changes.clone();
    app.listen_any(sightline_lib::monitors::MONITORS_CHANGED, move |event| {
        seen.lock()
            .unwrap()
            .push(serde_json::from_str(event.payload()).unwrap());
    });
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .unwrap();
    call(
        &webview,
        "key_add",
        json!({ "label": "work", "value": sandbox.demo_key() }),
    );

    let draft = json!({
        "name": "AI watch",
        "target": { "kind": "search", "request": { "query": "#AI" } },
        "intervalMinutes": 60,
        "cap": 25,
        "investigationId": null,
    });
    let monitor = call(&webview, "monitor_create", json!({ "draft": draft }));
    let id = monitor["id"].as_i64().unwrap();
    assert_eq!(monitor["state"], "active");
    call(&webview, "monitor_run_now", json!({ "id": id }));

    let mut unseen = json!(null);
    for _ in 0..200 {
        unseen = call(&webview, "monitor_unseen", json!({}));
        if unseen["total"].as_i64().unwrap() > 0 && log.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(unseen["total"], 25, "{unseen}");
    assert_eq!(
        unseen["byMonitor"][0],
        json!({ "monitorId": id, "unseen": 25 })
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    let line: Value = serde_json::from_str(logged.lines().next().unwrap()).unwrap();
    assert_eq!(
        line,
        json!({ "title": "AI watch", "body": "25 posts to start with" })
    );
    assert!(changes
        .lock()
        .unwrap()
        .iter()
        .any(|change| change["unseen"]["total"] == 25));

    let runs = call(&webview, "monitor_runs", json!({ "id": id, "limit": 10 }));
    assert_eq!(runs[0]["outcome"], "done");
    assert_eq!(runs[0]["newItems"], 25);
    let page = call(
        &webview,
        "monitor_posts",
        json!({ "id": id, "query": { "onlyUnseen": true } }),
    );
    assert_eq!(page["total"], 25);
    let first = page["posts"][0]["post"]["id"].clone();
    let counts = call(
        &webview,
        "monitor_mark_seen",
        json!({ "id": id, "postIds": [first] }),
    );
    assert_eq!(counts["total"], 24);
    let counts = call(&webview, "monitor_mark_all_seen", json!({}));
    assert_eq!(counts["total"], 0);
}
