//! The window's content security policy (tauri.conf.json) names no remote origin: the page
//! may load only the app's own files, its IPC, and kept media through the app's own
//! `sightline-media` scheme. A picture asked for by the page from a third-party host would
//! tell that host what is being read; the policy makes such a request impossible.

use serde_json::Value;

fn policy() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tauri.conf.json"))
        .expect("tauri.conf.json is readable");
    let config: Value = serde_json::from_str(&text).expect("tauri.conf.json is JSON");
    config["app"]["security"]["csp"]
        .as_object()
        .expect("the CSP is written directive by directive")
        .clone()
}

fn sources(policy: &serde_json::Map<String, Value>, directive: &str) -> Vec<String> {
    policy[directive]
        .as_str()
        .unwrap_or_else(|| panic!("{directive} is set"))
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn no_directive_names_a_remote_origin() {
    let policy = policy();
    // Tauri's IPC: the `ipc:` scheme, and `http://ipc.localhost` where a platform's web view
    // cannot take custom schemes for fetch; loopback names only, never a network host.
    let allowed = [
        "'self'",
        "'none'",
        "data:",
        "ipc:",
        "http://ipc.localhost",
        "sightline-media:",
    ];
    for (directive, value) in &policy {
        for source in value.as_str().unwrap().split_whitespace() {
            assert!(
                allowed.contains(&source),
                "{directive} allows {source}: the window may load nothing from another host"
            );
        }
    }
    assert_eq!(
        sources(&policy, "default-src"),
        ["'self'"],
        "anything not named falls back to the app's own files"
    );
}

#[test]
fn only_images_and_media_come_from_the_media_scheme() {
    let policy = policy();
    assert_eq!(
        sources(&policy, "img-src"),
        ["'self'", "data:", "sightline-media:"]
    );
    assert_eq!(
        sources(&policy, "media-src"),
        ["'self'", "sightline-media:"]
    );
    for (directive, value) in &policy {
        if directive != "img-src" && directive != "media-src" {
            assert!(
                !value.as_str().unwrap().contains("sightline-media"),
                "{directive} must not name the media scheme"
            );
        }
    }
    assert_eq!(
        sightline_core::media::serve::SCHEME,
        "sightline-media",
        "the scheme the shell registers is the one the policy names"
    );
}
