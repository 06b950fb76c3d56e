//! Billing metadata: the `X-Service-*` headers read as a [`Charge`], cross-checked against
//! the same fields in a JSON object body.
//!
//! A charge is never dropped because of its form. Its cost is kept exactly as the service
//! wrote it ([`Charge::cost_text`]: the header's text, or the body's `cost_usd` when the headers
//! carry none) and read as an exact decimal in any form a service may write: `0.00015`, a
//! binary float's shortest digits (`0.00010499999999999999`), Python's exponent form below
//! 1e-4 (`1.5e-05`), `1E+2`. A cost that is not a number at all keeps its text with no
//! amount (`cost_usd: None`): the app records it as "cost unreadable", never as zero. Rounding
//! to what the ledger sums is the store's (`sightline_store::money`).

use reqwest::header::HeaderMap;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
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
    /// The cost the text states, exact; `None` when the text is not a number (the charge is
    /// still one: "cost unreadable"). Crosses IPC as a string.
    #[ts(type = "string | null")]
    pub cost_usd: Option<Decimal>,
    /// The cost exactly as the service wrote it; empty when it wrote none.
    pub cost_text: String,
    pub usage_count: u64,
    pub service: String,
    pub currency: String,
}

impl Charge {
    /// The rate this answer implies, per 1,000 units (`cost × 1000 / units`), so that
    /// estimates use what the service actually charged; None for a zero-unit answer or an
    /// unreadable cost.
    pub fn rate_per_1000(&self) -> Option<Decimal> {
        let cost = self.cost_usd?;
        (self.usage_count > 0).then(|| cost * Decimal::from(1000) / Decimal::from(self.usage_count))
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

/// Most decimal places a [`Decimal`] holds.
const MAX_PLACES: i64 = 28;

/// Reads a decimal number from text in any form a service may write: `0.00015`, `-2`, `.5`,
/// `1.5e-05`, `1.5E-4`, `1E+2`, with as many digits as it likes. Exact up to 28 decimal
/// places; a longer fraction (far below the nano-dollar) is cut there with a last digit kept
/// non-zero if anything non-zero was cut, so that rounding at any coarser place comes out as
/// it would for the whole text. `None` for text that is not a number (`cheap`, `NaN`, `1,5`)
/// and for a magnitude of 10^28 or more.
pub fn parse_decimal(text: &str) -> Option<Decimal> {
    let text = text.trim();
    let (negative, text) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], parse_exponent(&text[at + 1..])?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let is_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !is_digits(whole) || !is_digits(fraction) {
        return None;
    }
    // value = digits × 10^-places, digits without leading zeros.
    let mut digits: Vec<u8> = whole
        .bytes()
        .chain(fraction.bytes())
        .map(|b| b - b'0')
        .skip_while(|&d| d == 0)
        .collect();
    if digits.is_empty() {
        return Some(Decimal::ZERO);
    }
    let mut places = fraction.len() as i64 - exponent;
    let whole_digits = digits.len() as i64 - places;
    if whole_digits > MAX_PLACES {
        return None;
    }
    while places < 0 {
        digits.push(0);
        places += 1;
    }
    // At most 28 places and 28 digits in all: what a Decimal holds.
    let limit = MAX_PLACES.min(MAX_PLACES - whole_digits);
    if places > limit {
        let kept_places = (limit - 1).max(0);
        let cut = digits
            .len()
            .saturating_sub(usize::try_from(places - kept_places).unwrap_or(usize::MAX));
        let sticky = digits[cut..].iter().any(|&d| d != 0);
        digits.truncate(cut);
        places = kept_places;
        if sticky && limit > 0 {
            digits.push(1);
            places += 1;
        }
    }
    let magnitude = digits.iter().fold(0i128, |m, &d| m * 10 + i128::from(d));
    let scale = u32::try_from(places).ok()?;
    Decimal::try_from_i128_with_scale(if negative { -magnitude } else { magnitude }, scale).ok()
}

/// An exponent's text (`-05`, `+16`, `4`), capped far beyond any money so it cannot overflow.
fn parse_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits
        .bytes()
        .fold(0i64, |v, b| (v * 10 + i64::from(b - b'0')).min(1_000_000));
    Some(if negative { -value } else { value })
}

/// A header's value as written (a byte that is not text shown as U+FFFD), trimmed; `None`
/// when absent or blank.
fn header_text(headers: &HeaderMap, name: &'static str) -> Option<String> {
    let value = headers.get(name)?;
    let text = String::from_utf8_lossy(value.as_bytes()).trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// The charge the headers report, and what in them could not be read: `None` when the
/// response carries no billing (304, errors, a free call). A charge whose cost or units are
/// unreadable is still a charge: its cost keeps its text, unreadable units count as 0.
pub fn from_headers(headers: &HeaderMap) -> Option<(Charge, Option<BillingIssue>)> {
    if !headers.contains_key(COST_HEADER) && !headers.contains_key(USAGE_HEADER) {
        return None;
    }
    let mut issue = None;
    let cost_text = header_text(headers, COST_HEADER).unwrap_or_default();
    let cost_usd = parse_decimal(&cost_text);
    if cost_usd.is_none() {
        issue = Some(BillingIssue::BadHeader(COST_HEADER));
    }
    let usage_count = header_text(headers, USAGE_HEADER)
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or_else(|| {
            issue.get_or_insert(BillingIssue::BadHeader(USAGE_HEADER));
            0
        });
    let charge = Charge {
        cost_usd,
        cost_text,
        usage_count,
        service: header_text(headers, SERVICE_HEADER).unwrap_or_default(),
        currency: header_text(headers, CURRENCY_HEADER).unwrap_or_else(|| "USD".to_owned()),
    };
    Some((charge, issue))
}

/// The billing fields of an object body, each as written.
#[derive(Deserialize)]
struct BodyFields<'a> {
    #[serde(borrow, default)]
    cost_usd: Option<&'a RawValue>,
    #[serde(borrow, default)]
    usage_count: Option<&'a RawValue>,
    #[serde(borrow, default)]
    service: Option<&'a RawValue>,
    #[serde(borrow, default)]
    currency: Option<&'a RawValue>,
}

/// A JSON value's text: a string's contents, a number as written; `None` for `null`.
fn raw_text(raw: &RawValue) -> Option<String> {
    let text = raw.get().trim();
    match text.as_bytes().first() {
        Some(b'"') => serde_json::from_str::<String>(text).ok(),
        Some(b'n') if text == "null" => None,
        _ => Some(text.to_owned()),
    }
}

/// The charge a JSON object body reports (the cost's text exactly as the body wrote it), when
/// it names both a cost and a unit count. Only the billing fields are read, not the whole body.
pub fn from_body(body: &str) -> Option<Charge> {
    if !body.trim_start().starts_with('{') {
        return None;
    }
    let fields: BodyFields = serde_json::from_str(body).ok()?;
    let cost_text = raw_text(fields.cost_usd?)?;
    let usage_count = raw_text(fields.usage_count?)?.trim().parse().ok()?;
    let text = |raw: Option<&RawValue>| raw.and_then(raw_text);
    Some(Charge {
        cost_usd: parse_decimal(&cost_text),
        cost_text,
        usage_count,
        service: text(fields.service).unwrap_or_default(),
        currency: text(fields.currency).unwrap_or_else(|| "USD".to_owned()),
    })
}

/// Compares header and body billing. Headers are authoritative (they are on every billable
/// response); a disagreement is reported so it can be logged and shown, never hidden. Costs
/// compare by value: `1.5e-05` and `0.000015` agree.
pub fn cross_check(header: &Charge, body: &Charge) -> Result<(), BillingIssue> {
    let same_cost = match (header.cost_usd, body.cost_usd) {
        (Some(h), Some(b)) => h == b,
        _ => header.cost_text == body.cost_text,
    };
    if !same_cost {
        return Err(BillingIssue::Mismatch {
            field: "cost_usd",
            header: header.cost_text.clone(),
            body: body.cost_text.clone(),
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

/// Reads the headers and, for an object body, the body's billing fields. Headers win, unless
/// theirs could not be read and the body's can; with no billing headers the body's is taken.
pub fn read(headers: &HeaderMap, body: Option<&str>) -> BillingRead {
    let from_body = body.and_then(from_body);
    match from_headers(headers) {
        Some((header, None)) => BillingRead {
            issue: from_body
                .as_ref()
                .and_then(|b| cross_check(&header, b).err())
                .map(|e| e.to_string()),
            billing: Some(header),
        },
        Some((header, Some(issue))) => BillingRead {
            billing: Some(match from_body {
                Some(body) if body.cost_usd.is_some() => body,
                _ => header,
            }),
            issue: Some(issue.to_string()),
        },
        None => BillingRead {
            billing: from_body,
            issue: None,
        },
    }
}

#[cfg(test)]
mod tests;
