/// Every command the UI may call; capabilities/default.json grants them by name.
const COMMANDS: [&str; 47] = [
    "app_info",
    "app_status",
    "open_link",
    "key_add",
    "key_connect",
    "key_rename",
    "key_set_active",
    "key_verify",
    "key_rotate",
    "key_delete",
    "use_demo",
    "settings_get",
    "settings_set",
    "ai_search",
    "links_web",
    "links_twitter",
    "twitter_search",
    "twitter_urls",
    "twitter_post",
    "twitter_post_user",
    "twitter_retweeters",
    "twitter_user_posts",
    "twitter_replies",
    "twitter_replies_post",
    "twitter_trends",
    "web_search",
    "web_crawl",
    "ai_search_stream",
    "cancel_stream",
    "retweeters_next_page",
    "user_posts_next_page",
    "estimate_cost",
    "history_list",
    "history_result",
    "history_pin",
    "history_delete",
    "archive_posts",
    "archive_links",
    "spend_totals",
    "spend_by_day",
    "spend_breakdown",
    "learned_rates",
    "budget_get",
    "budget_set",
    "export_history",
    "export_posts",
    "export_ledger",
];

fn main() {
    // Declaring our commands lets capabilities grant them by name (and deny everything else).
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(&COMMANDS)),
    )
    .expect("failed to run tauri-build");
}
