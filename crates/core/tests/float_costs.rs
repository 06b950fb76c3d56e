//! Costs as a service that computes in binary floating point sends them (the sandbox with
//! `float_costs`): `0.00010499999999999999`, `1.4999999999999999e-05`. Every operation's charge
//! is on the ledger with its text as sent; Spend's total is the sandbox's bill with each cost
//! rounded half-even to the nano-dollar (the rule of `sightline_store::money`); budgets hold to
//! the nano-dollar; the first 800 products of every rate are recorded. And a billed answer that
//! cannot be decoded keeps its cost and its bytes, and says in History what could not be read.

use crate::support::live;
use crate::support::search;
use crate::support::send;

use std::str::FromStr;

use chrono::{TimeZone, Utc};
use live::Live;
use rust_decimal::Decimal;
use search::search;
use send::send;
use serde_json::Value;
use sightline_api::request::*;
use sightline_api::Charge;
use sightline_core::errors::CommandError;
use sightline_core::pipeline::{self, SendOptions};
use sightline_core::{forecast, streaming};
use sightline_sandbox::billing::{parse_cost, python_float_repr};
use sightline_sandbox::{Fault, Rates, Sandbox};
use sightline_store::money::{charge_nanos, from_nanos};
use sightline_store::{
    BudgetLimits, HistoryQuery, Provenance, RequestRecord, RequestStatus, Store, Tz,
};

/// Rates whose products are rarely tidy in binary floating point: one post at the contract's
/// 0.015 per 1,000 is `1.4999999999999999e-05`, one AI answer at 4.1 `0.0040999999999999995`.
fn untidy_rates() -> Rates {
    let d = |s: &str| Decimal::from_str(s).unwrap();
    Rates {
        ai_search: d("4.1"),
        ai_links_web: d("4.1"),
        ai_links_x: d("4.1"),
        web_search: d("4.1"),
        web_crawl: d("4.1"),
        x: d("0.015"),
        forecast: d("10.3"),
    }
}

async fn live() -> Live {
    Live::start(
        Sandbox::builder()
            .seed(9)
            .faults(true)
            .float_costs(true)
            .rates(untidy_rates()),
    )
    .await
}

/// The sandbox's bill as the ledger counts it: each cost header read exactly (decimal or
/// exponent form) and rounded half-even to the nano-dollar, then summed.
fn billed_nanos(sandbox: &Sandbox) -> i64 {
    sandbox
        .billed()
        .responses()
        .iter()
        .map(|r| {
            let exact = parse_cost(&r.cost_usd).unwrap_or_else(|| panic!("{}", r.cost_usd));
            charge_nanos(exact).unwrap()
        })
        .sum()
}

fn confirmed(id: &str) -> SendOptions {
    SendOptions {
        confirm_budget: true,
        ..send(id)
    }
}

/// A post with replies and reposts, its author, and the busiest timeline's user.
fn subjects(sandbox: &Sandbox) -> (String, String, String) {
    let w = sandbox.world();
    let most = |counts: Vec<usize>| {
        (0..counts.len())
            .max_by_key(|&i| counts[i])
            .expect("the world has posts")
    };
    let reposted = most(w.retweets_of.iter().map(Vec::len).collect());
    let replied = most(w.children.iter().map(Vec::len).collect());
    let busy = most(w.timelines.iter().map(Vec::len).collect());
    let post = &w.posts[reposted];
    (
        post.id.to_string(),
        w.users[post.author as usize].username.clone(),
        format!("{}|{}", w.posts[replied].id, w.users[busy].username),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operations_float_cost_is_on_the_ledger_and_spend_equals_the_bill() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let (post_id, author, rest) = subjects(&sandbox);
    let (replied, busy) = rest.split_once('|').unwrap();
    macro_rules! run {
        ($id:expr, $request:expr) => {
            pipeline::execute(&state, &session, $request, confirmed($id), None)
                .await
                .unwrap_or_else(|e| panic!("{}: {e:?}", $id))
        };
    }

    run!(
        "ai",
        AiSearchRequest::new("flood warnings", &[Tool::Web, Tool::Twitter])
    );
    run!(
        "links-web",
        LinksWebRequest {
            prompt: "climate".into(),
            tools: vec!["web".into(), "wikipedia".into()],
            count: 10,
        }
    );
    run!(
        "links-x",
        LinksTwitterRequest {
            prompt: "football".into(),
            count: 10,
        }
    );
    // One post: 1 × 0.015 ÷ 1000 is written in exponent form.
    run!("search-1", search(&sandbox, 1));
    run!("search-7", search(&sandbox, 7));
    run!(
        "post",
        TwitterPostRequest {
            id: post_id.clone()
        }
    );
    run!(
        "urls",
        TwitterUrlsRequest {
            urls: vec![format!("https://x.com/{author}/status/{post_id}")],
        }
    );
    run!(
        "post-user",
        TwitterPostUserRequest {
            user: format!("@{author}"),
            count: 3,
            ..Default::default()
        }
    );
    run!(
        "reposters",
        TwitterRetweetersRequest {
            id: post_id.clone(),
            cursor: None,
        }
    );
    run!(
        "timeline",
        TwitterUserPostsRequest {
            username: busy.to_owned(),
            cursor: None,
        }
    );
    run!(
        "replies",
        TwitterRepliesRequest {
            user: author.clone(),
            ..Default::default()
        }
    );
    run!(
        "replies-post",
        TwitterRepliesPostRequest {
            post_id: replied.to_owned(),
            count: 5,
            ..Default::default()
        }
    );
    run!("trends", TwitterTrendsRequest::default());
    let web = run!(
        "web",
        WebSearchRequest {
            query: "energy".into(),
            start: 0,
        }
    );
    let link = web.body.data.unwrap_or_default()[0].link.clone();
    run!(
        "crawl",
        WebCrawlRequest {
            url: link,
            format: CrawlFormat::Text,
        }
    );
    streaming::ai_search(
        &state,
        &session,
        AiSearchRequest::new("storm surge", &[Tool::Web]),
        confirmed("stream"),
        |_| {},
    )
    .await
    .unwrap();
    forecast::ask(
        &state,
        &session,
        &ForecastRequest {
            query: Some("Will the flood directive pass before 2027?".into()),
            ..ForecastRequest::default()
        },
        confirmed("forecast"),
    )
    .await
    .unwrap();

    let billed = sandbox.billed().responses();
    assert_eq!(billed.len(), 17, "every operation was billed once");
    let texts: Vec<&str> = billed.iter().map(|r| r.cost_usd.as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("e-")), "{texts:?}");
    let untidy = texts
        .iter()
        .filter(|t| t.split_once('.').is_some_and(|(_, f)| f.len() > 9))
        .count();
    assert!(
        untidy >= 10,
        "most costs have more than nine decimals: {texts:?}"
    );

    // Every charge is on the ledger, with its cost as sent and as rounded.
    let store = &session.store;
    let ledger = store.ledger(Tz::UTC, None).await.unwrap();
    let mut on_ledger: Vec<String> = ledger
        .iter()
        .map(|r| r.cost_text.clone().unwrap())
        .collect();
    let mut sent: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    on_ledger.sort();
    sent.sort();
    assert_eq!(on_ledger, sent);
    for row in &ledger {
        let text = row.cost_text.as_deref().unwrap();
        let rounded = from_nanos(charge_nanos(parse_cost(text).unwrap()).unwrap());
        assert_eq!(row.cost, Some(rounded), "{text}");
    }
    let history = store.history(&HistoryQuery::default()).await.unwrap();
    assert_eq!(history.len(), 17);
    assert!(history
        .iter()
        .all(|entry| entry.billing.as_ref().is_some_and(|b| b.cost.is_some())));

    // Spend's total is the bill, rounded per answer as the ledger does, to the nano-dollar.
    let totals = store.spend_totals(Tz::UTC, Utc::now()).await.unwrap();
    assert_eq!(totals.all_time, from_nanos(billed_nanos(&sandbox)));
    assert_eq!(totals.today, totals.all_time);
    assert_eq!(totals.unreadable_all_time, 0);
    // Rounding per answer is not rounding the sum: the bill's exact total differs.
    assert_ne!(totals.all_time, sandbox.billed().total().normalize());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_counts_the_rounded_costs_to_the_nano_dollar() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    let store = &session.store;
    // 7 posts at 0.015 per 1,000: `0.00010499999999999999`, recorded as 0.000105; the learned
    // rate is 0.015, so 5 more posts are estimated at 0.000075.
    let first = pipeline::execute(&state, &session, search(&sandbox, 7), send("a"), None)
        .await
        .unwrap();
    assert_eq!(
        first.billing.as_ref().unwrap().cost_text.as_deref(),
        Some("0.00010499999999999999")
    );
    let spent = from_nanos(billed_nanos(&sandbox));
    assert_eq!(spent, Decimal::from_str("0.000105").unwrap());
    let next = Decimal::from_str("0.000075").unwrap();

    // One nano-dollar short of room for the next request: it is blocked and never sent.
    let nano = Decimal::from_str("0.000000001").unwrap();
    store
        .set_budget(&BudgetLimits {
            daily: Some(spent + next - nano),
            ..BudgetLimits::default()
        })
        .await
        .unwrap();
    let blocked = pipeline::execute(&state, &session, search(&sandbox, 5), confirmed("b"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(blocked, CommandError::BudgetBlocked { .. }),
        "{blocked:?}"
    );
    assert_eq!(sandbox.billed().responses().len(), 1, "nothing more sent");

    // Exactly enough room: it goes (past the warning, which the user confirmed).
    store
        .set_budget(&BudgetLimits {
            daily: Some(spent + next),
            ..BudgetLimits::default()
        })
        .await
        .unwrap();
    pipeline::execute(&state, &session, search(&sandbox, 5), confirmed("c"), None)
        .await
        .unwrap();
    let totals = store.spend_totals(Tz::UTC, Utc::now()).await.unwrap();
    assert_eq!(totals.today, spent + next);
    assert_eq!(totals.today, from_nanos(billed_nanos(&sandbox)));
    // The limit is reached: a single further post is blocked.
    let after = pipeline::execute(&state, &session, search(&sandbox, 1), confirmed("d"), None)
        .await
        .unwrap_err();
    assert!(
        matches!(after, CommandError::BudgetBlocked { .. }),
        "{after:?}"
    );
    assert_eq!(sandbox.billed().responses().len(), 2);
}

#[tokio::test]
async fn the_first_800_products_of_every_rate_are_all_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let defaults = Rates::default();
    let rates = [
        ("x", Decimal::from_str("0.015").unwrap()),
        ("x", defaults.x),
        ("ai_search", defaults.ai_search),
        ("web_search", defaults.web_search),
        ("forecast", defaults.forecast),
    ];
    let at = Utc.with_ymd_and_hms(2026, 5, 4, 9, 0, 0).unwrap();
    let mut records = Vec::new();
    let mut expected = Decimal::ZERO;
    let mut untidy = 0;
    for (n, (service, rate)) in rates.iter().enumerate() {
        let per_1000: f64 = rate.to_string().parse().unwrap();
        for usage in 1..=800u64 {
            // As the service sends it, and as the app reads it off the wire.
            let text = python_float_repr(usage as f64 * per_1000 / 1000.0);
            untidy += usize::from(text.contains('e') || text.len() > 12);
            let charge = Charge {
                cost_usd: sightline_api::billing::parse_decimal(&text),
                cost_text: text,
                usage_count: usage,
                service: (*service).into(),
                currency: "USD".into(),
            };
            expected += Decimal::from(usage) * rate / Decimal::from(1000);
            records.push(RequestRecord {
                billing: Some(pipeline::store_billing(&charge)),
                ..record(&format!("{n}-{usage}"), at)
            });
        }
    }
    store.record_requests(&records).await.unwrap();
    let ledger = store.ledger(Tz::UTC, None).await.unwrap();
    assert_eq!(ledger.len(), 4_000);
    assert!(ledger.iter().all(|row| row.cost.is_some()));
    let totals = store.spend_totals(Tz::UTC, at).await.unwrap();
    // Each product is exact at 7 decimals or fewer, so rounding each float text to the
    // nano-dollar gives it back: the total is the exact sum.
    assert_eq!(totals.all_time, expected.normalize());
    assert_eq!(totals.unreadable_all_time, 0);
    assert!(
        untidy > 500,
        "float texts past nine decimals or in exponent form: {untidy}"
    );
}

fn record(request_id: &str, at: chrono::DateTime<Utc>) -> RequestRecord {
    RequestRecord {
        request_id: request_id.into(),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: "{}".into(),
        key_label: Some("work".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 1,
        result_count: 0,
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: None,
        posts: Vec::new(),
        users: Vec::new(),
        links: Vec::new(),
        provenance: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_billed_answer_that_cannot_be_read_keeps_its_cost_and_bytes() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let session = state.session().await.unwrap();
    // A 200 whose body is not JSON, billed as the operation is (one unit: 0.015 ÷ 1000).
    let body = "<html><body>upstream timeout</body></html>";
    sandbox.faults().push(
        "/twitter",
        Fault::Body {
            body: Value::String(body.into()),
            status: 200,
            content_type: Some("application/json".into()),
        },
    );
    let failed = pipeline::execute(&state, &session, search(&sandbox, 5), send("bad"), None)
        .await
        .unwrap_err();
    let CommandError::Service { message, error } = &failed else {
        panic!("{failed:?}")
    };
    assert_eq!(error.kind, sightline_api::ErrorKind::MalformedResponse);
    assert!(message.contains("could not be read"), "{message}");

    let billed = sandbox.billed().responses();
    assert_eq!(billed.len(), 1);
    assert_eq!(billed[0].cost_usd, "1.4999999999999999e-05");
    let store = &session.store;
    let entry = store.history_by_request_id("bad").await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Error);
    assert_eq!(entry.error_class.as_deref(), Some("malformed_response"));
    let words = entry.error_message.clone().unwrap();
    assert!(
        words.contains("could not be read (expected value at line 1 column 1)"),
        "History says what could not be read: {words}"
    );
    assert!(words.contains("its cost is recorded"), "{words}");
    let billing = entry.billing.expect("the headers' cost is kept");
    assert_eq!(billing.cost, Decimal::from_str("0.000015").ok());
    assert_eq!(billing.cost_text.as_deref(), Some("1.4999999999999999e-05"));
    assert_eq!(billing.usage_count, 1);

    // On the ledger and in Spend, to the nano-dollar.
    let ledger = store.ledger(Tz::UTC, None).await.unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(ledger[0].history_id, Some(entry.id));
    let totals = store.spend_totals(Tz::UTC, Utc::now()).await.unwrap();
    assert_eq!(totals.all_time, from_nanos(billed_nanos(&sandbox)));

    // The bytes as received, in the capture record, with the billing headers as written.
    let kept = store.provenance_body(entry.id).await.unwrap().unwrap();
    assert_eq!(kept, body.as_bytes());
    let Provenance::Captured { record } = store.provenance(entry.id).await.unwrap() else {
        panic!("a capture record")
    };
    assert_eq!(record.http_status, 200);
    assert_eq!(
        record
            .billing_headers
            .get("x-service-cost-usd")
            .map(String::as_str),
        Some("1.4999999999999999e-05")
    );
    assert!(
        store
            .verify_provenance(entry.id)
            .await
            .unwrap()
            .unwrap()
            .matches
    );
}
