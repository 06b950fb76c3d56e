//! The smallest Tauri 2 app: one window, one static page. With `SIGHTLINE_STARTUP_PROBE=1` it
//! prints `startup-probe: ready` when the page has loaded, exactly as Sightline does.

fn main() {
    let probe = std::env::var_os("SIGHTLINE_STARTUP_PROBE").is_some();
    tauri::Builder::default()
        .on_page_load(move |_, payload| {
            if probe && matches!(payload.event(), tauri::webview::PageLoadEvent::Finished) {
                println!("startup-probe: ready");
            }
        })
        .run(tauri::generate_context!())
        .expect("the bare window runs");
}
