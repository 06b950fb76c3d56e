//! Exact money: the database holds INTEGER nano-dollars (summable in SQL without rounding);
//! the public API speaks `rust_decimal::Decimal`. Values with more than 9 decimals are refused,
//! never rounded silently.

use rust_decimal::Decimal;

use crate::error::{Result, StoreError};

const NANO_SCALE: u32 = 9;

/// Converts an amount to nano-units, refusing anything that would lose precision.
pub fn to_nanos(amount: Decimal) -> Result<i64> {
    let normalized = amount.normalize();
    if normalized.scale() > NANO_SCALE {
        return Err(StoreError::InexactMoney(amount.to_string()));
    }
    let mut scaled = normalized;
    scaled.rescale(NANO_SCALE);
    i64::try_from(scaled.mantissa()).map_err(|_| StoreError::InexactMoney(amount.to_string()))
}

/// Converts nano-units back to a decimal amount (normalized: `0.00015`, not `0.000150000`).
pub fn from_nanos(nanos: i64) -> Decimal {
    Decimal::from_i128_with_scale(i128::from(nanos), NANO_SCALE).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    #[test]
    fn round_trips_exact_values() {
        for s in [
            "0",
            "0.00015",
            "4.00",
            "0.000000001",
            "1234567.123456789",
            "-2.5",
        ] {
            let nanos = to_nanos(dec(s)).unwrap();
            assert_eq!(from_nanos(nanos), dec(s).normalize(), "{s}");
        }
        assert_eq!(to_nanos(dec("0.00015")).unwrap(), 150_000);
        assert_eq!(to_nanos(dec("4")).unwrap(), 4_000_000_000);
    }

    #[test]
    fn trailing_zeros_beyond_nine_decimals_are_fine() {
        assert_eq!(to_nanos(dec("0.1000000000000")).unwrap(), 100_000_000);
    }

    #[test]
    fn refuses_more_than_nine_decimals() {
        assert!(matches!(
            to_nanos(dec("0.0000000001")),
            Err(StoreError::InexactMoney(_))
        ));
    }

    #[test]
    fn refuses_out_of_range() {
        assert!(to_nanos(dec("10000000000000")).is_err());
    }

    #[test]
    fn sums_are_exact() {
        // 0.1 + 0.2 in binary floating point is not 0.3; in nanos it is.
        let sum = to_nanos(dec("0.1")).unwrap() + to_nanos(dec("0.2")).unwrap();
        assert_eq!(from_nanos(sum), dec("0.3"));
    }
}
