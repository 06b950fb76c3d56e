//! Billing metadata: the `X-Service-*` headers read as a [`Charge`] of exact decimals,
//! cross-checked against the same fields in a JSON object body.

use std::str::FromStr;

use reqwest::header::HeaderMap;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

pub const COST_HEADER: &str = "x-service-cost-usd";
pub const USAGE_HEADER: &str = "x-service-usage-count";
pub const SERVICE_HEADER: &str = "x-service-service";
pub const CURRENCY_HEADER: &str = "x-service-currency";
/// Every billing header, as a response's provenance keeps them.
pub const HEADERS: [&str; 4] = [COST_HEADER, USAGE_HEADER, SERVICE_HEADER, CURRENCY_HEADER];

/// What the service charged for one response, as its headers or body said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Charge {
    /// Exact decimal; crosses IPC as a string.
    #[ts(type = "string")]
    pub cost_usd: Decimal,
    pub usage_count: u64,
    pub service: String,
    pub currency: String,
}

impl Charge {
    /// The rate this answer implies, per 1,000 units (`cost × 1000 / units`), so that
    /// estimates use what the service actually charged; None for a zero-unit answer.
    pub fn rate_per_1000(&self) -> Option<Decimal> {
        (self.usage_count > 0)
            .then(|| self.cost_usd * Decimal::from(1000) / Decimal::from(self.usage_count))
    }
}

/// Why billing metadata could not be trusted as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BillingIssue {
    #[error("the billing header {0} is missing or unreadable")]
    BadHeader(&'static str),
    #[error("the body reports {field} = {body} but the headers say {header}")]
    Mismatch {
        field: &'static str,
        header: String,
        body: String,
    },
}

/// Reads a decimal from text such as `0.00015` or `1.5E-4`.
pub fn parse_decimal(text: &str) -> Option<Decimal> {
    let text = text.trim();
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .ok()
}

fn header<'a>(headers: &'a HeaderMap, name: &'static str) -> Result<&'a str, BillingIssue> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or(BillingIssue::BadHeader(name))
}

/// The charge the headers report: `Ok(None)` when the response carries none (304, errors, a
/// free call), an issue when some are present but unreadable.
pub fn from_headers(headers: &HeaderMap) -> Result<Option<Charge>, BillingIssue> {
    if !headers.contains_key(COST_HEADER) && !headers.contains_key(USAGE_HEADER) {
        return Ok(None);
    }
    let cost_usd =
        parse_decimal(header(headers, COST_HEADER)?).ok_or(BillingIssue::BadHeader(COST_HEADER))?;
    let usage_count = header(headers, USAGE_HEADER)?
        .parse::<u64>()
        .map_err(|_| BillingIssue::BadHeader(USAGE_HEADER))?;
    let service = header(headers, SERVICE_HEADER)
        .map(str::to_owned)
        .unwrap_or_default();
    let currency = header(headers, CURRENCY_HEADER).unwrap_or("USD").to_owned();
    Ok(Some(Charge {
        cost_usd,
        usage_count,
        service,
        currency,
    }))
}

/// The charge a JSON object body reports, when all four readable ones are present.
pub fn from_body(body: &Value) -> Option<Charge> {
    let obj = body.as_object()?;
    let cost_usd = match obj.get("cost_usd")? {
        Value::String(s) => parse_decimal(s)?,
        Value::Number(n) => parse_decimal(&n.to_string())?,
        _ => return None,
    };
    let usage_count = match obj.get("usage_count")? {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(Charge {
        cost_usd,
        usage_count,
        service: text("service").unwrap_or_default(),
        currency: text("currency").unwrap_or_else(|| "USD".to_owned()),
    })
}

/// Compares header and body billing. Headers are authoritative (they are on every billable
/// response); a disagreement is reported so it can be logged and shown, never hidden.
pub fn cross_check(header: &Charge, body: &Charge) -> Result<(), BillingIssue> {
    if header.cost_usd != body.cost_usd {
        return Err(BillingIssue::Mismatch {
            field: "cost_usd",
            header: header.cost_usd.to_string(),
            body: body.cost_usd.to_string(),
        });
    }
    if header.usage_count != body.usage_count {
        return Err(BillingIssue::Mismatch {
            field: "usage_count",
            header: header.usage_count.to_string(),
            body: body.usage_count.to_string(),
        });
    }
    if !body.service.is_empty() && header.service != body.service {
        return Err(BillingIssue::Mismatch {
            field: "service",
            header: header.service.clone(),
            body: body.service.clone(),
        });
    }
    if !header.currency.eq_ignore_ascii_case(&body.currency) {
        return Err(BillingIssue::Mismatch {
            field: "currency",
            header: header.currency.clone(),
            body: body.currency.clone(),
        });
    }
    Ok(())
}

/// Result of reading billing from one response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BillingRead {
    pub billing: Option<Charge>,
    /// A problem worth recording (unreadable header, header/body mismatch).
    pub issue: Option<String>,
}

/// Reads headers, falls back to the body when headers are absent, and cross-checks both.
pub fn read(headers: &HeaderMap, body: Option<&Value>) -> BillingRead {
    let from_body = body.and_then(from_body);
    match from_headers(headers) {
        Ok(Some(h)) => {
            let issue = from_body
                .as_ref()
                .and_then(|b| cross_check(&h, b).err())
                .map(|e| e.to_string());
            BillingRead {
                billing: Some(h),
                issue,
            }
        }
        Ok(None) => BillingRead {
            billing: from_body,
            issue: None,
        },
        Err(e) => BillingRead {
            billing: from_body,
            issue: Some(e.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn full() -> HeaderMap {
        headers(&[
            ("X-Service-Cost-Usd", "0.00015"),
            ("X-Service-Usage-Count", "10"),
            ("X-Service-Service", "twitter"),
            ("X-Service-Currency", "USD"),
        ])
    }

    #[test]
    fn headers_parse_into_exact_decimals() {
        let b = from_headers(&full()).unwrap().unwrap();
        assert_eq!(b.cost_usd, Decimal::new(15, 5));
        assert_eq!(b.usage_count, 10);
        assert_eq!(b.service, "twitter");
        // Summing exactly: 3 × 0.1 is 0.3, unlike binary floating point.
        let tenth = parse_decimal("0.1").unwrap();
        assert_eq!(tenth + tenth + tenth, parse_decimal("0.3").unwrap());
        assert_eq!(parse_decimal("1.5E-4"), Some(Decimal::new(15, 5)));
    }

    #[test]
    fn rate_is_learned_from_what_was_charged() {
        // The contract's worked case: 10 units at 0.015 per 1,000 cost 0.00015.
        let b = from_headers(&full()).unwrap().unwrap();
        assert_eq!(b.rate_per_1000(), parse_decimal("0.015"));
        let free = Charge {
            usage_count: 0,
            ..b
        };
        assert_eq!(free.rate_per_1000(), None);
    }

    #[test]
    fn absent_headers_mean_no_billing() {
        assert_eq!(from_headers(&HeaderMap::new()), Ok(None));
        let r = read(&HeaderMap::new(), None);
        assert_eq!(r, BillingRead::default());
    }

    #[test]
    fn unreadable_headers_are_reported() {
        let h = headers(&[
            ("X-Service-Cost-Usd", "cheap"),
            ("X-Service-Usage-Count", "1"),
        ]);
        assert_eq!(from_headers(&h), Err(BillingIssue::BadHeader(COST_HEADER)));
        let h = headers(&[
            ("X-Service-Cost-Usd", "0.1"),
            ("X-Service-Usage-Count", "-1"),
        ]);
        assert_eq!(from_headers(&h), Err(BillingIssue::BadHeader(USAGE_HEADER)));
        assert!(read(&h, None).issue.is_some());
    }

    #[test]
    fn body_fields_cross_check_against_headers() {
        let body = json!({"miner_tweets": [], "cost_usd": 0.00015, "usage_count": 10,
                          "service": "twitter", "currency": "USD"});
        let r = read(&full(), Some(&body));
        assert_eq!(r.issue, None);
        assert_eq!(r.billing.unwrap().cost_usd, Decimal::new(15, 5));

        let as_string = json!({"cost_usd": "0.000150", "usage_count": "10", "currency": "usd"});
        assert_eq!(read(&full(), Some(&as_string)).issue, None);

        let wrong = json!({"cost_usd": "0.0002", "usage_count": 10, "service": "twitter", "currency": "USD"});
        let r = read(&full(), Some(&wrong));
        assert_eq!(
            r.billing.unwrap().cost_usd,
            Decimal::new(15, 5),
            "headers win"
        );
        assert!(r.issue.unwrap().contains("cost_usd"));

        let wrong_count = json!({"cost_usd": "0.00015", "usage_count": 11});
        assert!(read(&full(), Some(&wrong_count))
            .issue
            .unwrap()
            .contains("usage_count"));
    }

    #[test]
    fn arrays_and_text_carry_billing_in_headers_only() {
        let r = read(&full(), Some(&json!([{"id": "1"}])));
        assert_eq!(r.issue, None);
        assert_eq!(r.billing.unwrap().usage_count, 10);
    }
}
