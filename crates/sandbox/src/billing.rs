//! Billing metadata: which service an operation bills, at what rate, and how the cost is shown:
//! as an exact decimal (`0.00015`), or, with `--float-costs`, as a service that computes in
//! binary floating point writes it ([`CostStyle::Float`]).

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use std::str::FromStr;

/// Prices in USD per 1,000 units. Defaults are the public price list of the contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rates {
    pub ai_search: Decimal,
    pub ai_links_web: Decimal,
    pub ai_links_x: Decimal,
    pub web_search: Decimal,
    pub web_crawl: Decimal,
    /// Per post returned (per user for retweeters).
    pub x: Decimal,
    /// Per forecast asked (the contract gives no price: the sandbox's own choice).
    pub forecast: Decimal,
}

impl Default for Rates {
    fn default() -> Self {
        let d = |s: &str| Decimal::from_str(s).expect("valid decimal literal");
        Rates {
            ai_search: d("4.00"),
            ai_links_web: d("4.00"),
            ai_links_x: d("4.00"),
            web_search: d("2.50"),
            web_crawl: d("2.50"),
            x: d("0.30"),
            forecast: d("10.00"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    AiSearch,
    AiLinksWeb,
    AiLinksX,
    WebSearch,
    WebCrawl,
    X,
    Forecast,
}

impl Service {
    /// The value of `X-Service-Service` and of the body's `service` field.
    pub fn name(self) -> &'static str {
        match self {
            Service::AiSearch => "ai_search",
            Service::AiLinksWeb => "ai_links_web",
            Service::AiLinksX => "ai_links_x",
            Service::WebSearch => "web_search",
            Service::WebCrawl => "web_crawl",
            Service::X => "x",
            Service::Forecast => "forecast",
        }
    }

    pub fn rate(self, rates: &Rates) -> Decimal {
        match self {
            Service::AiSearch => rates.ai_search,
            Service::AiLinksWeb => rates.ai_links_web,
            Service::AiLinksX => rates.ai_links_x,
            Service::WebSearch => rates.web_search,
            Service::WebCrawl => rates.web_crawl,
            Service::X => rates.x,
            Service::Forecast => rates.forecast,
        }
    }
}

/// How the cost of a response is computed and written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CostStyle {
    /// Exact decimal arithmetic, written without trailing zeros: `0.00015`, `0.0009`.
    #[default]
    Exact,
    /// As a Python service computes and prints it: `usage × rate ÷ 1000` in binary floating
    /// point, written as `repr` writes a float (shortest round-trip digits, exponent form below
    /// 1e-4): `0.00010499999999999999` for 7 units at 0.015, `1.5e-05` for 1.
    Float,
}

/// What one billable success costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub service: Service,
    pub usage_count: u64,
    /// The value the cost text states.
    pub cost_usd: Decimal,
    text: String,
}

impl Charge {
    /// `cost_usd = usage_count × rate_per_1000 / 1000`, in `style`.
    pub fn new(service: Service, usage_count: u64, rates: &Rates, style: CostStyle) -> Charge {
        let rate = service.rate(rates);
        let text = match style {
            CostStyle::Exact => (Decimal::from(usage_count) * rate / Decimal::from(1000))
                .normalize()
                .to_string(),
            CostStyle::Float => {
                let rate = rate.to_f64().expect("a rate is a finite number");
                python_float_repr(usage_count as f64 * rate / 1000.0)
            }
        };
        Charge {
            service,
            usage_count,
            cost_usd: parse_cost(&text).expect("a cost the sandbox wrote reads back"),
            text,
        }
    }

    /// The cost as written in the header and the body ("0.00015", "0", "1.5e-05").
    pub fn cost_text(&self) -> String {
        self.text.clone()
    }

    pub fn headers(&self) -> [(&'static str, String); 4] {
        [
            ("x-service-cost-usd", self.cost_text()),
            ("x-service-usage-count", self.usage_count.to_string()),
            ("x-service-service", self.service.name().to_string()),
            ("x-service-currency", "USD".to_string()),
        ]
    }

    /// Adds the mirror fields to a serialised JSON object, writing the cost as a JSON number
    /// in the same text as its header (no conversion on the way). Non-objects are returned
    /// unchanged.
    pub fn mirror_into_object(&self, body: Vec<u8>) -> Vec<u8> {
        let Some(first) = body.iter().position(|b| !b.is_ascii_whitespace()) else {
            return body;
        };
        if body[first] != b'{' {
            return body;
        }
        let rest = &body[first + 1..];
        let empty = rest.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'}');
        let fields = format!(
            "\"cost_usd\":{},\"usage_count\":{},\"service\":\"{}\",\"currency\":\"USD\"{}",
            self.cost_text(),
            self.usage_count,
            self.service.name(),
            if empty { "" } else { "," }
        );
        let mut out = Vec::with_capacity(body.len() + fields.len() + 1);
        out.push(b'{');
        out.extend_from_slice(fields.as_bytes());
        out.extend_from_slice(rest);
        out
    }
}

/// Reads a cost as written, in decimal or exponent form (`0.00015`, `1.5e-05`), exactly.
pub fn parse_cost(text: &str) -> Option<Decimal> {
    let text = text.trim();
    Decimal::from_str(text)
        .or_else(|_| Decimal::from_scientific(text))
        .ok()
}

/// A float as Python's `repr` writes it: the shortest digits that read back to the same float;
/// exponent form (`1.5e-05`, `1e+16`, two exponent digits at least) below 1e-4 and from 1e16,
/// otherwise positional with at least one decimal (`0.0001`, `3.0`).
pub fn python_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` writes the shortest round-trip digits too: "1.5e-5", "0e0", "-1.05e-4".
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("exponent form has an e");
    let exponent: i32 = exponent.parse().expect("a whole exponent");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    if !(-4..16).contains(&exponent) {
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{mantissa}e{exponent_sign}{:02}", exponent.abs());
    }
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    if exponent < 0 {
        let zeros = "0".repeat((-exponent - 1) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let point = exponent as usize + 1;
    if digits.len() <= point {
        format!("{sign}{digits}{}.0", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_case_of_the_contract() {
        let rates = Rates {
            x: Decimal::from_str("0.015").unwrap(),
            ..Rates::default()
        };
        let c = Charge::new(Service::X, 10, &rates, CostStyle::Exact);
        assert_eq!(c.cost_text(), "0.00015");
    }

    #[test]
    fn float_costs_are_written_as_python_writes_them() {
        let rates = Rates {
            x: Decimal::from_str("0.015").unwrap(),
            ..Rates::default()
        };
        let float = |usage, rates: &Rates| Charge::new(Service::X, usage, rates, CostStyle::Float);
        // As a Python/FastAPI service sends them (`7 * 0.015 / 1000` in Python).
        assert_eq!(float(7, &rates).cost_text(), "0.00010499999999999999");
        assert_eq!(float(1, &rates).cost_text(), "1.4999999999999999e-05");
        assert_eq!(float(10, &rates).cost_text(), "0.00015");
        let defaults = Rates::default();
        assert_eq!(float(3, &defaults).cost_text(), "0.0008999999999999999");
        assert_eq!(float(0, &defaults).cost_text(), "0.0");
        // The value the text states is what the sandbox bills.
        assert_eq!(
            float(7, &rates).cost_usd,
            Decimal::from_str("0.00010499999999999999").unwrap()
        );
        assert_eq!(
            float(1, &rates).cost_usd,
            Decimal::from_str("0.000014999999999999999").unwrap()
        );
    }

    #[test]
    fn python_repr_of_floats() {
        for (x, text) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (3.0, "3.0"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (1.5e-5, "1.5e-05"),
            (1e-5, "1e-05"),
            (1.2345e-7, "1.2345e-07"),
            (-2.5e-6, "-2.5e-06"),
            (123.456, "123.456"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
        ] {
            assert_eq!(python_float_repr(x), text, "{x:e}");
        }
        assert_eq!(python_float_repr(f64::NAN), "nan");
        assert_eq!(python_float_repr(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn costs_read_back_in_either_form() {
        assert_eq!(parse_cost("1.5e-05"), Decimal::from_str("0.000015").ok());
        assert_eq!(
            parse_cost("0.0008999999999999999"),
            Decimal::from_str("0.0008999999999999999").ok()
        );
        assert_eq!(parse_cost("0.0"), Some(Decimal::ZERO));
        assert_eq!(parse_cost("cheap"), None);
    }

    #[test]
    fn default_rates() {
        let r = Rates::default();
        assert_eq!(
            Charge::new(Service::AiSearch, 1, &r, CostStyle::Exact).cost_text(),
            "0.004"
        );
        assert_eq!(
            Charge::new(Service::WebCrawl, 1, &r, CostStyle::Exact).cost_text(),
            "0.0025"
        );
        assert_eq!(
            Charge::new(Service::X, 20, &r, CostStyle::Exact).cost_text(),
            "0.006"
        );
        assert_eq!(
            Charge::new(Service::X, 0, &r, CostStyle::Exact).cost_text(),
            "0"
        );
        assert_eq!(
            Charge::new(Service::X, 3, &r, CostStyle::Exact).cost_text(),
            "0.0009"
        );
    }

    #[test]
    fn mirror_only_into_objects() {
        let c = Charge::new(Service::X, 2, &Rates::default(), CostStyle::Exact);
        let out = c.mirror_into_object(br#"{"users":[]}"#.to_vec());
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["usage_count"], 2);
        assert_eq!(v["service"], "x");
        assert_eq!(v["currency"], "USD");
        assert_eq!(v["users"], serde_json::json!([]));
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("\"cost_usd\":0.0006,"));
        assert_eq!(c.mirror_into_object(b"[1,2]".to_vec()), b"[1,2]");
        let empty: serde_json::Value =
            serde_json::from_slice(&c.mirror_into_object(b"{ }".to_vec())).unwrap();
        assert_eq!(empty["usage_count"], 2);
    }
}
