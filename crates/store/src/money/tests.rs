use super::*;
use std::str::FromStr;

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s)
        .or_else(|_| Decimal::from_scientific(s))
        .unwrap()
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
        assert_eq!(
            charge_nanos(dec(s)),
            Some(nanos),
            "a tidy charge is not rounded: {s}"
        );
    }
    assert_eq!(to_nanos(dec("0.00015")).unwrap(), 150_000);
    assert_eq!(to_nanos(dec("4")).unwrap(), 4_000_000_000);
}

#[test]
fn trailing_zeros_beyond_nine_decimals_are_fine() {
    assert_eq!(to_nanos(dec("0.1000000000000")).unwrap(), 100_000_000);
}

#[test]
fn a_typed_amount_past_nine_decimals_is_refused() {
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

#[test]
fn float_charges_round_to_the_nearest_nano() {
    // What a Python service writes for 7 units at 0.015, 3 at 0.3 and 1 at 0.015 per 1,000.
    assert_eq!(charge_nanos(dec("0.00010499999999999999")), Some(105_000));
    assert_eq!(charge_nanos(dec("0.0008999999999999999")), Some(900_000));
    assert_eq!(charge_nanos(dec("1.5e-05")), Some(15_000));
    assert_eq!(charge_nanos(dec("1.5E-5")), Some(15_000));
    assert_eq!(charge_nanos(dec("2.9999999999999997e-06")), Some(3_000));
    assert_eq!(
        rounded_charge(dec("0.00010499999999999999")),
        Some(dec("0.000105"))
    );
    // Below half a nano-dollar: nothing; above it: one.
    assert_eq!(charge_nanos(dec("4.9e-10")), Some(0));
    assert_eq!(charge_nanos(dec("5.1e-10")), Some(1));
    assert_eq!(charge_nanos(dec("1e-20")), Some(0));
}

#[test]
fn a_tie_at_the_tenth_decimal_goes_to_the_even_nano() {
    assert_eq!(charge_nanos(dec("0.0000000005")), Some(0));
    assert_eq!(charge_nanos(dec("0.0000000015")), Some(2));
    assert_eq!(charge_nanos(dec("0.0000000025")), Some(2));
    assert_eq!(charge_nanos(dec("0.0000000035")), Some(4));
    assert_eq!(charge_nanos(dec("1.0000000045")), Some(1_000_000_004));
    // Only an exact half is a tie: a digit further on decides.
    assert_eq!(charge_nanos(dec("0.00000000250000000001")), Some(3));
    assert_eq!(charge_nanos(dec("0.00000000249999999999")), Some(2));
}

#[test]
fn negative_charges_round_symmetrically() {
    assert_eq!(charge_nanos(dec("-0.0000000005")), Some(0));
    assert_eq!(charge_nanos(dec("-0.0000000015")), Some(-2));
    assert_eq!(charge_nanos(dec("-0.00010499999999999999")), Some(-105_000));
    assert_eq!(charge_nanos(dec("-1.5e-05")), Some(-15_000));
}

#[test]
fn huge_charges_are_not_held_but_never_wrap() {
    // About 9.22 billion dollars is the most an i64 of nano-dollars holds.
    assert_eq!(charge_nanos(dec("9223372036.854775807")), Some(i64::MAX));
    assert_eq!(charge_nanos(dec("9223372036.8547758074")), Some(i64::MAX));
    assert_eq!(charge_nanos(dec("9223372036.854775808")), None);
    assert_eq!(charge_nanos(dec("1e20")), None);
    assert_eq!(charge_nanos(dec("-1e20")), None);
    assert_eq!(charge_nanos(Decimal::MAX), None);
    assert_eq!(charge_nanos(Decimal::MIN), None);
}
