//! Billing metadata: which service an operation bills, at what rate, and how the cost is shown.

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

/// What one billable success costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    pub service: Service,
    pub usage_count: u64,
    pub cost_usd: Decimal,
}

impl Charge {
    /// `cost_usd = usage_count × rate_per_1000 / 1000`, exact.
    pub fn new(service: Service, usage_count: u64, rates: &Rates) -> Charge {
        let cost = Decimal::from(usage_count) * service.rate(rates) / Decimal::from(1000);
        Charge {
            service,
            usage_count,
            cost_usd: cost.normalize(),
        }
    }

    /// Decimal text without trailing zeros ("0.00015", "0").
    pub fn cost_text(&self) -> String {
        self.cost_usd.to_string()
    }

    pub fn headers(&self) -> [(&'static str, String); 4] {
        [
            ("x-service-cost-usd", self.cost_text()),
            ("x-service-usage-count", self.usage_count.to_string()),
            ("x-service-service", self.service.name().to_string()),
            ("x-service-currency", "USD".to_string()),
        ]
    }

    /// Adds the mirror fields to a serialised JSON object, writing the cost as an exact JSON
    /// number (no binary floating point on the way). Non-objects are returned unchanged.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_case_of_the_contract() {
        let rates = Rates {
            x: Decimal::from_str("0.015").unwrap(),
            ..Rates::default()
        };
        let c = Charge::new(Service::X, 10, &rates);
        assert_eq!(c.cost_text(), "0.00015");
    }

    #[test]
    fn default_rates() {
        let r = Rates::default();
        assert_eq!(Charge::new(Service::AiSearch, 1, &r).cost_text(), "0.004");
        assert_eq!(Charge::new(Service::WebCrawl, 1, &r).cost_text(), "0.0025");
        assert_eq!(Charge::new(Service::X, 20, &r).cost_text(), "0.006");
        assert_eq!(Charge::new(Service::X, 0, &r).cost_text(), "0");
        assert_eq!(Charge::new(Service::X, 3, &r).cost_text(), "0.0009");
    }

    #[test]
    fn mirror_only_into_objects() {
        let c = Charge::new(Service::X, 2, &Rates::default());
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
