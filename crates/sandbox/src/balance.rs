//! Optional prepaid balance per key: requests are refused with 402 once a key has spent it.

use rust_decimal::Decimal;
use std::collections::HashMap;
use std::sync::Mutex;

pub struct Balances {
    initial: Decimal,
    spent: Mutex<HashMap<String, Decimal>>,
}

impl Balances {
    pub fn new(initial: Decimal) -> Self {
        Balances {
            initial,
            spent: Mutex::new(HashMap::new()),
        }
    }

    /// What `key` has left (negative when the last request cost more than what remained).
    pub fn remaining(&self, key: &str) -> Decimal {
        let spent = self.spent.lock().unwrap_or_else(|e| e.into_inner());
        self.initial - spent.get(key).copied().unwrap_or_default()
    }

    /// A request is accepted while something is left, as prepaid services do.
    pub fn has_credit(&self, key: &str) -> bool {
        self.remaining(key) > Decimal::ZERO
    }

    pub fn charge(&self, key: &str, cost: Decimal) {
        let mut spent = self.spent.lock().unwrap_or_else(|e| e.into_inner());
        *spent.entry(key.to_string()).or_default() += cost;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn spends_down_per_key() {
        let b = Balances::new(Decimal::from_str("0.01").unwrap());
        let cost = Decimal::from_str("0.004").unwrap();
        for _ in 0..3 {
            assert!(b.has_credit("k"));
            b.charge("k", cost);
        }
        assert!(!b.has_credit("k"));
        assert_eq!(b.remaining("k"), Decimal::from_str("-0.002").unwrap());
        assert!(b.has_credit("other"));
    }
}
