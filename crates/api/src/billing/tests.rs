use super::*;
use reqwest::header::HeaderValue;
use std::str::FromStr;

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(*k, HeaderValue::from_str(v).unwrap());
    }
    h
}

fn billed(cost: &str) -> HeaderMap {
    headers(&[
        ("X-Service-Cost-Usd", cost),
        ("X-Service-Usage-Count", "10"),
        ("X-Service-Service", "twitter"),
        ("X-Service-Currency", "USD"),
    ])
}

fn full() -> HeaderMap {
    billed("0.00015")
}

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

#[test]
fn headers_parse_into_exact_decimals() {
    let (b, issue) = from_headers(&full()).unwrap();
    assert_eq!(issue, None);
    assert_eq!(b.cost_usd, Some(Decimal::new(15, 5)));
    assert_eq!(b.cost_text, "0.00015");
    assert_eq!(b.usage_count, 10);
    assert_eq!(b.service, "twitter");
    // Summing exactly: 3 × 0.1 is 0.3, unlike binary floating point.
    let tenth = parse_decimal("0.1").unwrap();
    assert_eq!(tenth + tenth + tenth, parse_decimal("0.3").unwrap());
    assert_eq!(parse_decimal("1.5E-4"), Some(Decimal::new(15, 5)));
}

#[test]
fn every_form_a_float_computing_service_writes_is_read_exactly() {
    for (text, exact) in [
        // 7 units at 0.015 per 1,000, and 3 at 0.3, computed in binary floating point.
        ("0.00010499999999999999", "0.00010499999999999999"),
        ("0.0008999999999999999", "0.0008999999999999999"),
        // Python writes a float below 1e-4 in exponent form, with two exponent digits.
        ("1.4999999999999999e-05", "0.000014999999999999999"),
        ("1.5e-05", "0.000015"),
        ("2.9999999999999997e-06", "0.0000029999999999999997"),
        ("1e-05", "0.00001"),
        ("1.5E-5", "0.000015"),
        ("1e+16", "10000000000000000"),
        ("4E2", "400"),
        ("0.0", "0"),
        ("0", "0"),
        ("-0.0", "0"),
        ("3.0", "3"),
        (".5", "0.5"),
        ("5.", "5"),
        ("+0.25", "0.25"),
        ("-1.5e-05", "-0.000015"),
        (" 0.006 ", "0.006"),
        ("0.000150", "0.00015"),
    ] {
        assert_eq!(parse_decimal(text), Some(dec(exact)), "{text}");
    }
}

#[test]
fn text_that_is_not_a_number_is_not_read() {
    for text in [
        "", " ", "cheap", "NaN", "nan", "inf", "-inf", "Infinity", "1,5", "1.2.3", "e5", "1e",
        "1e+", "--1", "+-1", "0x10", "1_000", "$0.01", "0.01 USD", ".", "-", "1e5.5",
    ] {
        assert_eq!(parse_decimal(text), None, "{text:?}");
    }
}

#[test]
fn long_and_extreme_texts_are_read_without_losing_the_nano_digit() {
    // More places than a Decimal holds: cut, with a sticky last digit, so a half that is
    // only just over half still rounds up at the nano.
    let just_over_half = "0.00000000050000000000000000000000001";
    let read = parse_decimal(just_over_half).unwrap();
    assert!(read > dec("0.0000000005"), "{read}");
    assert!(read <= dec("0.0000000005000000000000000001"), "{read}");
    let exact_half = "0.00000000050000000000000000000000000";
    assert_eq!(parse_decimal(exact_half), Some(dec("0.0000000005")));
    // Far below anything: a positive speck, not zero and not an error.
    let speck = parse_decimal("1e-40").unwrap();
    assert!(speck > Decimal::ZERO && speck < dec("0.000000000000000000000001"));
    assert_eq!(parse_decimal("0e-999999999999"), Some(Decimal::ZERO));
    // Too large for any amount of money: not read.
    assert_eq!(parse_decimal("1e28"), None);
    assert_eq!(parse_decimal("1e99999999999999999999"), None);
    assert_eq!(
        parse_decimal("9999999999999999999999999999"),
        Some(dec("9999999999999999999999999999"))
    );
    // Many digits on both sides of the point.
    let wide = parse_decimal("123456789.12345678901234567890123").unwrap();
    assert_eq!(wide.round_dp(9), dec("123456789.123456789"));
}

#[test]
fn float_costs_in_headers_are_charges_with_their_text() {
    for text in ["0.00010499999999999999", "0.0008999999999999999", "1.5e-05"] {
        let r = read(&billed(text), None);
        assert_eq!(r.issue, None, "{text}");
        let charge = r.billing.unwrap();
        assert_eq!(charge.cost_text, text);
        assert_eq!(charge.cost_usd, parse_decimal(text));
    }
}

#[test]
fn rate_is_learned_from_what_was_charged() {
    // The contract's worked case: 10 units at 0.015 per 1,000 cost 0.00015.
    let (b, _) = from_headers(&full()).unwrap();
    assert_eq!(b.rate_per_1000(), parse_decimal("0.015"));
    let free = Charge {
        usage_count: 0,
        ..b.clone()
    };
    assert_eq!(free.rate_per_1000(), None);
    let unreadable = Charge {
        cost_usd: None,
        ..b
    };
    assert_eq!(unreadable.rate_per_1000(), None);
}

#[test]
fn absent_headers_mean_no_billing() {
    assert_eq!(from_headers(&HeaderMap::new()), None);
    let r = read(&HeaderMap::new(), None);
    assert_eq!(r, BillingRead::default());
}

#[test]
fn an_unreadable_cost_is_still_a_charge_with_its_text() {
    let h = headers(&[
        ("X-Service-Cost-Usd", "cheap"),
        ("X-Service-Usage-Count", "1"),
    ]);
    let (charge, issue) = from_headers(&h).unwrap();
    assert_eq!(issue, Some(BillingIssue::BadHeader(COST_HEADER)));
    assert_eq!(charge.cost_usd, None);
    assert_eq!(charge.cost_text, "cheap");
    assert_eq!(charge.usage_count, 1);
    let r = read(&h, None);
    assert_eq!(r.billing.unwrap().cost_text, "cheap", "kept, never dropped");
    assert!(r.issue.unwrap().contains(COST_HEADER));

    // A units header alone: a charge whose cost the service did not state.
    let (charge, _) = from_headers(&headers(&[("X-Service-Usage-Count", "2")])).unwrap();
    assert_eq!((charge.cost_usd, charge.cost_text.as_str()), (None, ""));

    // Unreadable units count as none; the cost stands.
    let h = headers(&[
        ("X-Service-Cost-Usd", "0.1"),
        ("X-Service-Usage-Count", "-1"),
    ]);
    let (charge, issue) = from_headers(&h).unwrap();
    assert_eq!(issue, Some(BillingIssue::BadHeader(USAGE_HEADER)));
    assert_eq!((charge.cost_usd, charge.usage_count), (Some(dec("0.1")), 0));
    assert!(read(&h, None).issue.is_some());
}

#[test]
fn a_readable_body_stands_in_for_an_unreadable_header() {
    let h = headers(&[
        ("X-Service-Cost-Usd", "n/a"),
        ("X-Service-Usage-Count", "10"),
    ]);
    let body = r#"{"cost_usd": 1.5e-05, "usage_count": 10, "service": "x"}"#;
    let r = read(&h, Some(body));
    let charge = r.billing.unwrap();
    assert_eq!(charge.cost_text, "1.5e-05", "the body's text as written");
    assert_eq!(charge.cost_usd, Some(dec("0.000015")));
    assert!(r.issue.unwrap().contains(COST_HEADER));
}

#[test]
fn body_fields_cross_check_against_headers() {
    let body = r#"{"miner_tweets": [], "cost_usd": 0.00015, "usage_count": 10,
                   "service": "twitter", "currency": "USD"}"#;
    let r = read(&full(), Some(body));
    assert_eq!(r.issue, None);
    assert_eq!(r.billing.unwrap().cost_usd, Some(Decimal::new(15, 5)));

    let as_string = r#"{"cost_usd": "0.000150", "usage_count": "10", "currency": "usd"}"#;
    assert_eq!(read(&full(), Some(as_string)).issue, None);

    // The same float in both, in the body as a JSON number in exponent form.
    let float = r#"{"cost_usd": 1.5e-05, "usage_count": 10, "service": "twitter"}"#;
    assert_eq!(read(&billed("1.5e-05"), Some(float)).issue, None);
    assert_eq!(read(&billed("0.000015"), Some(float)).issue, None);

    let wrong =
        r#"{"cost_usd": "0.0002", "usage_count": 10, "service": "twitter", "currency": "USD"}"#;
    let r = read(&full(), Some(wrong));
    assert_eq!(
        r.billing.unwrap().cost_usd,
        Some(Decimal::new(15, 5)),
        "headers win"
    );
    assert!(r.issue.unwrap().contains("cost_usd"));

    let wrong_count = r#"{"cost_usd": "0.00015", "usage_count": 11}"#;
    assert!(read(&full(), Some(wrong_count))
        .issue
        .unwrap()
        .contains("usage_count"));
}

#[test]
fn the_body_alone_bills_with_its_text_as_written() {
    let body = r#"{"cost_usd": 0.00010499999999999999, "usage_count": 7, "service": "x"}"#;
    let charge = read(&HeaderMap::new(), Some(body)).billing.unwrap();
    assert_eq!(charge.cost_text, "0.00010499999999999999");
    assert_eq!(charge.usage_count, 7);
    // Without a unit count, the body names no charge (as before).
    assert_eq!(from_body(r#"{"cost_usd": "0.0006"}"#), None);
    assert_eq!(from_body(r#"{"cost_usd": null, "usage_count": 1}"#), None);
    let odd = from_body(r#"{"cost_usd": "free", "usage_count": 1}"#).unwrap();
    assert_eq!((odd.cost_usd, odd.cost_text.as_str()), (None, "free"));
}

#[test]
fn arrays_and_text_carry_billing_in_headers_only() {
    let r = read(&full(), Some(r#"[{"id": "1"}]"#));
    assert_eq!(r.issue, None);
    assert_eq!(r.billing.unwrap().usage_count, 10);
    assert_eq!(read(&HeaderMap::new(), Some("plain text")).billing, None);
    assert_eq!(read(&HeaderMap::new(), Some("{not json")).billing, None);
}

#[test]
fn the_first_800_products_at_every_sandbox_rate_read_back_to_the_nano() {
    // usage × rate ÷ 1000 as a float-computing service writes it, for the contract's example
    // rate and each of the sandbox's: read, then rounded half-even to the nano-dollar, each is
    // the exact product (none of which is a tie: they have at most 7 decimals).
    let nine = |d: Decimal| {
        d.round_dp_with_strategy(9, rust_decimal::RoundingStrategy::MidpointNearestEven)
    };
    let mut untidy = 0;
    for rate in ["0.015", "0.30", "2.50", "4.00", "10.00"] {
        for usage in 1..=800u64 {
            let float = usage as f64 * rate.parse::<f64>().unwrap() / 1000.0;
            let text = sightline_sandbox::billing::python_float_repr(float);
            let exact = Decimal::from(usage) * dec(rate) / Decimal::from(1000);
            let read = parse_decimal(&text).unwrap_or_else(|| panic!("{text} unread"));
            assert_eq!(nine(read), exact.normalize(), "{usage} × {rate}: {text}");
            untidy += usize::from(read.normalize().scale() > 9);
        }
    }
    assert!(untidy > 139, "float texts past nine decimals: {untidy}");
}
