//! What the sandbox billed: every response that carried a cost header, as sent. Tests compare
//! a client's own accounting against it (`GET /__sandbox/billed`, or [`crate::Sandbox::billed`]).

use std::sync::Mutex;

use rust_decimal::Decimal;
use serde::Serialize;

/// One billed response: the route and the cost header exactly as written on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BilledResponse {
    pub route: String,
    pub cost_usd: String,
    pub service: String,
}

#[derive(Debug, Default)]
pub struct BilledLog {
    responses: Mutex<Vec<BilledResponse>>,
}

impl BilledLog {
    pub fn record(&self, response: BilledResponse) {
        self.lock().push(response);
    }

    pub fn responses(&self) -> Vec<BilledResponse> {
        self.lock().clone()
    }

    /// The exact sum of every cost header sent (decimal or exponent form).
    pub fn total(&self) -> Decimal {
        self.lock()
            .iter()
            .filter_map(|r| crate::billing::parse_cost(&r.cost_usd))
            .sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<BilledResponse>> {
        // A panic while pushing leaves a whole Vec: the log is still usable.
        self.responses.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn float_texts_are_summed_exactly() {
        let log = BilledLog::default();
        for cost in ["0.00010499999999999999", "1.5e-05", "0.0008999999999999999"] {
            log.record(BilledResponse {
                route: "/twitter/search".into(),
                cost_usd: cost.into(),
                service: "x".into(),
            });
        }
        assert_eq!(
            log.total(),
            Decimal::from_str("0.00101999999999999989").unwrap()
        );
    }

    #[test]
    fn the_total_is_the_exact_sum_of_the_headers() {
        let log = BilledLog::default();
        for cost in ["0.006", "0.0003", "0.1"] {
            log.record(BilledResponse {
                route: "/twitter/search".into(),
                cost_usd: cost.into(),
                service: "x".into(),
            });
        }
        assert_eq!(log.total(), Decimal::from_str("0.1063").unwrap());
        assert_eq!(log.responses().len(), 3);
    }
}
