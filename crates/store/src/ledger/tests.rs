//! The ledger's rows: exact, bounded by local days, kept when their history row goes; and any
//! cost the service states taken, rounded half-even to the nano-dollar or marked unreadable.

use super::*;
use crate::budget::{BudgetLimits, Verdict};
use crate::history::Billing;
use crate::test_support::{billing, record, temp_store};
use chrono::TimeZone;
use std::str::FromStr;

#[tokio::test]
async fn ledger_rows_are_exact_and_bounded_by_local_days() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "Europe/Berlin".parse().unwrap();
    let at = |d, h| Utc.with_ymd_and_hms(2026, 5, d, h, 0, 0).unwrap();
    // 22:30 UTC on the 1st is already the 2nd in Berlin (UTC+2).
    for (id, when, cost) in [
        ("a", at(1, 12), "0.00015"),
        ("b", at(1, 22), "1.5"),
        ("c", at(3, 9), "2"),
    ] {
        let mut r = record(id, when);
        r.billing = Some(billing(cost, 3, "x"));
        store.record_request(&r).await.unwrap();
    }
    store
        .record_request(&record("unbilled", at(2, 9)))
        .await
        .unwrap();

    let all = store.ledger(tz, None).await.unwrap();
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].cost, Decimal::from_str("0.00015").ok());
    assert_eq!(all[0].key_label.as_deref(), Some("work"));

    let day = NaiveDate::from_ymd_opt(2026, 5, 2).unwrap();
    let second = store.ledger(tz, Some((day, day))).await.unwrap();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].cost, Decimal::from_str("1.5").ok());

    // Deleting the history row keeps the money, without its link.
    let history_id = second[0].history_id.unwrap();
    store.delete_history(history_id).await.unwrap();
    let kept = store.ledger(tz, Some((day, day))).await.unwrap();
    assert_eq!(kept[0].history_id, None);
    assert_eq!(kept[0].cost, Decimal::from_str("1.5").ok());
}

fn stated(text: &str, units: i64) -> Billing {
    // As the app reads it: the text kept, its value exact when it is a number.
    let cost = Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .ok();
    Billing {
        cost,
        cost_text: Some(text.to_owned()),
        usage_count: units,
        service: "x".into(),
        currency: "USD".into(),
    }
}

fn at(h: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 4, h, 0, 0).unwrap()
}

#[tokio::test]
async fn a_float_cost_is_recorded_rounded_with_its_text_as_sent() {
    let (store, _dir) = temp_store().await;
    let texts = [
        ("f1", "0.00010499999999999999", 7),
        ("f2", "0.0008999999999999999", 3),
        ("f3", "1.4999999999999999e-05", 1),
        ("f4", "0.0000000025", 1),
    ];
    for (id, text, units) in texts {
        let mut r = record(id, at(9));
        r.billing = Some(stated(text, units));
        store.record_request(&r).await.unwrap();
    }
    let tz: Tz = "UTC".parse().unwrap();
    let rows = store.ledger(tz, None).await.unwrap();
    let costs: Vec<_> = rows.iter().map(|r| r.cost.unwrap().to_string()).collect();
    // Half-even: 0.0000000025 is a tie, to the even 2 nano-dollars.
    assert_eq!(costs, ["0.000105", "0.0009", "0.000015", "0.000000002"]);
    let sent: Vec<_> = rows.iter().map(|r| r.cost_text.clone().unwrap()).collect();
    assert_eq!(sent, texts.map(|(_, text, _)| text.to_owned()));

    let entry = store.history_by_request_id("f1").await.unwrap().unwrap();
    let billing = entry.billing.unwrap();
    assert_eq!(billing.cost, Decimal::from_str("0.000105").ok());
    assert_eq!(billing.cost_text.as_deref(), Some("0.00010499999999999999"));
    assert_eq!(billing.usage_count, 7);

    let totals = store.spend_totals(tz, at(12)).await.unwrap();
    assert_eq!(totals.all_time, Decimal::from_str("0.001020002").unwrap());
    assert_eq!(totals.unreadable_all_time, 0);
    let csv = {
        let mut out = Vec::new();
        crate::export::ledger_csv(&rows, tz, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert!(csv.contains(",0.000105,USD,7,"), "{csv}");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(",0.00010499999999999999"),
        "{csv}"
    );
}

#[tokio::test]
async fn a_cost_that_is_no_number_is_a_charge_counted_as_unknown_never_as_zero() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "UTC".parse().unwrap();
    let mut known = record("known", at(9));
    known.billing = Some(stated("0.006", 20));
    store.record_request(&known).await.unwrap();
    let mut odd = record("odd", at(10));
    odd.billing = Some(stated("n/a", 20));
    store.record_request(&odd).await.unwrap();
    // Beyond what the ledger holds: no real charge, unknown too.
    let mut huge = record("huge", at(11));
    huge.billing = Some(stated("1e20", 1));
    store.record_request(&huge).await.unwrap();

    let entry = store.history_by_request_id("odd").await.unwrap().unwrap();
    let billing = entry.billing.expect("a charge, though unreadable");
    assert_eq!(billing.cost, None);
    assert_eq!(billing.cost_text.as_deref(), Some("n/a"));
    assert_eq!(billing.usage_count, 20);
    assert_eq!(billing.cost_words(), "unreadable");
    let huge = store.history_by_request_id("huge").await.unwrap().unwrap();
    assert_eq!(huge.billing.unwrap().cost, None);

    let rows = store.ledger(tz, None).await.unwrap();
    assert_eq!(rows.len(), 3, "every charge is on the ledger");
    assert_eq!(rows[1].cost, None);
    assert_eq!(rows[1].cost_words(), "unreadable");

    let totals = store.spend_totals(tz, at(12)).await.unwrap();
    assert_eq!(totals.all_time, Decimal::from_str("0.006").unwrap());
    assert_eq!(
        (
            totals.unreadable_today,
            totals.unreadable_this_month,
            totals.unreadable_all_time
        ),
        (2, 2, 2)
    );
    let tomorrow = store
        .spend_totals(tz, at(12) + chrono::Duration::days(1))
        .await
        .unwrap();
    assert_eq!(
        (tomorrow.unreadable_today, tomorrow.unreadable_this_month),
        (0, 2)
    );
    let breakdown = store
        .spend_breakdown(crate::spend::SpendDimension::Service, tz, None)
        .await
        .unwrap();
    assert_eq!(
        (breakdown.total, breakdown.unreadable),
        (Decimal::from_str("0.006").unwrap(), 2)
    );
    assert_eq!(breakdown.lines[0].requests, 3);
    let day = at(9).date_naive();
    let other_day = day.succ_opt().unwrap();
    let none = store
        .spend_breakdown(
            crate::spend::SpendDimension::Service,
            tz,
            Some((other_day, other_day)),
        )
        .await
        .unwrap();
    assert_eq!(none.unreadable, 0);

    // An unreadable cost says nothing of the rate: 20 units at 0.006 is 0.30 per 1,000.
    let rate = store.learned_rate("x").await.unwrap().unwrap();
    assert_eq!(rate.rate_per_1000, Decimal::from_str("0.3").unwrap());
    assert_eq!(rate.samples, 1);
}

#[tokio::test]
async fn budgets_count_the_rounded_value() {
    let (store, _dir) = temp_store().await;
    let tz: Tz = "UTC".parse().unwrap();
    // Two float charges that round up: 2 × 0.000105 = 0.00021 spent as the ledger counts it.
    for id in ["a", "b"] {
        let mut r = record(id, at(9));
        r.billing = Some(stated("0.00010499999999999999", 7));
        store.record_request(&r).await.unwrap();
    }
    store
        .set_budget(&BudgetLimits {
            daily: Decimal::from_str("0.00021").ok(),
            ..BudgetLimits::default()
        })
        .await
        .unwrap();
    let check = store
        .check_budget(tz, at(10), Decimal::from_str("0.000000001").unwrap())
        .await
        .unwrap();
    let daily = check.daily.unwrap();
    assert_eq!(daily.spent, Decimal::from_str("0.00021").unwrap());
    assert_eq!(
        check.verdict,
        Verdict::Block,
        "any more would pass the limit"
    );
}

#[tokio::test]
async fn a_stream_billed_early_keeps_its_text_and_is_not_billed_twice() {
    let (store, _dir) = temp_store().await;
    let pending = crate::record::PendingRequest {
        request_id: "s".into(),
        started_at: at(9),
        operation: "ai_search".into(),
        params_json: "{}".into(),
        key_label: Some("work".into()),
        mode: "live".into(),
    };
    store.begin_request(&pending).await.unwrap();
    let charge = stated("4.0000000000000001e-03", 1);
    assert!(store.record_billing("s", &charge).await.unwrap());
    let mut done = record("s", at(9));
    done.operation = "ai_search".into();
    done.billing = Some(charge);
    store.record_request(&done).await.unwrap();
    let tz: Tz = "UTC".parse().unwrap();
    let rows = store.ledger(tz, None).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].cost, Decimal::from_str("0.004").ok());
    let entry = store.history_by_request_id("s").await.unwrap().unwrap();
    assert_eq!(
        entry.billing.unwrap().cost_text.as_deref(),
        Some("4.0000000000000001e-03")
    );
}

#[tokio::test]
async fn the_ledger_stays_append_only_with_its_new_columns() {
    let (store, _dir) = temp_store().await;
    let mut r = record("a", at(9));
    r.billing = Some(stated("n/a", 1));
    store.record_request(&r).await.unwrap();
    for change in [
        "UPDATE ledger SET cost_text = '0.01'",
        "UPDATE ledger SET cost_unreadable = 0",
        "UPDATE ledger SET cost_nanos = 10000000",
    ] {
        let refused = sqlx::query(change).execute(&store.pool).await.unwrap_err();
        assert!(
            refused.to_string().contains("append-only"),
            "{change}: {refused}"
        );
    }
}
