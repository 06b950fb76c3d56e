//! Exact money: the database holds INTEGER nano-dollars (summable in SQL without rounding);
//! the public API speaks `rust_decimal::Decimal`.
//!
//! Two rules, one per source of an amount:
//! * **A charge the service stated** ([`charge_nanos`]) is always recorded. Where its text has
//!   more digits than the nano-dollar (a service that computes in binary floating point writes
//!   `0.00010499999999999999` for 7 units at 0.015 per 1,000), it is rounded to the nearest
//!   nano-dollar, a tie to the even one (half-even: over many charges it favours neither the
//!   service nor the user). The text as the service wrote it is kept beside the rounded value;
//!   spend, budgets and exports count the rounded value.
//! * **An amount the user typed** (a budget limit) is taken exactly or refused ([`to_nanos`]):
//!   more than 9 decimals is a typo, never rounded silently.
//!
//! Both refuse what an `i64` of nano-dollars cannot hold (beyond about ±9.2 billion dollars).

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

use crate::error::{Result, StoreError};

const NANO_SCALE: u32 = 9;
const NANOS_PER_UNIT: i64 = 1_000_000_000;

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

/// A charge the service stated, in nano-units: rounded half-even to the nano-dollar. `None`
/// only for an amount beyond what the ledger holds (about ±9.2 billion dollars), which is no
/// real charge: the caller records it as unreadable rather than lose every other sum.
pub fn charge_nanos(amount: Decimal) -> Option<i64> {
    let rounded = amount.round_dp_with_strategy(NANO_SCALE, RoundingStrategy::MidpointNearestEven);
    rounded.checked_mul(Decimal::from(NANOS_PER_UNIT))?.to_i64()
}

/// A stated charge as it is recorded: [`charge_nanos`] as a decimal amount.
pub fn rounded_charge(amount: Decimal) -> Option<Decimal> {
    charge_nanos(amount).map(from_nanos)
}

/// Converts nano-units back to a decimal amount (normalized: `0.00015`, not `0.000150000`).
pub fn from_nanos(nanos: i64) -> Decimal {
    Decimal::from_i128_with_scale(i128::from(nanos), NANO_SCALE).normalize()
}

#[cfg(test)]
mod tests;
