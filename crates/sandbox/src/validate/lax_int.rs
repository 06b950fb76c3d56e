//! pydantic v2's lax reading of a string as an integer (`str_as_int` in pydantic-core): what
//! the service's FastAPI validator accepts for an `int` query parameter or a JSON string.
//!
//! Accepted: surrounding whitespace, a sign, leading zeros, single underscores between digits
//! (`1_000`), and a fraction of zeros only (`5.0`, `5.00`). Everything else, `5.5` and `1e3`
//! included, is `int_parsing`; a string over 4,300 characters is `int_parsing_size`.

/// What a string reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaxInt {
    Int(i64),
    /// Digits beyond `i64`: pydantic reads them as a big integer, which then fails the range
    /// checks on the side of its sign. Kept as the nearest `i64`.
    Huge(i64),
    /// Not an integer: `int_parsing`.
    Invalid,
    /// Longer than Python reads as an integer: `int_parsing_size`.
    TooLong,
}

/// Python's limit on the digits of an integer read from text.
const MAX_CHARS: usize = 4_300;

pub const PARSING_MSG: &str =
    "Input should be a valid integer, unable to parse string as an integer";
pub const SIZE_MSG: &str = "Unable to parse input string as an integer, exceeded maximum size";

pub fn parse(raw: &str) -> LaxInt {
    if raw.len() > MAX_CHARS {
        return LaxInt::TooLong;
    }
    let s = raw.trim();
    let (negative, unsigned) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    // `.0+` is dropped before the underscores are, as pydantic-core does (`4_2.0` is 42).
    let whole = match unsigned.split_once('.') {
        Some((whole, zeros)) if !zeros.is_empty() && zeros.bytes().all(|b| b == b'0') => whole,
        Some(_) => return LaxInt::Invalid,
        None => unsigned,
    };
    if !underscores_between_digits(whole) {
        return LaxInt::Invalid;
    }
    let digits: String = whole.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return LaxInt::Invalid;
    }
    let signed = if negative {
        format!("-{digits}")
    } else {
        digits
    };
    match signed.parse::<i64>() {
        Ok(n) => LaxInt::Int(n),
        Err(_) if negative => LaxInt::Huge(i64::MIN),
        Err(_) => LaxInt::Huge(i64::MAX),
    }
}

/// Python's rule for `_` in a number: never first or last, never two in a row.
fn underscores_between_digits(s: &str) -> bool {
    !(s.starts_with('_') || s.ends_with('_') || s.contains("__"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases from pydantic-core's own table for strings read as `int`.
    #[test]
    fn reads_what_pydantic_reads() {
        for (input, expected) in [
            ("0", 0),
            ("00", 0),
            ("0_000", 0),
            ("+0", 0),
            ("  1  ", 1),
            ("-1", -1),
            ("-1.0", -1),
            ("42", 42),
            ("00.00", 0),
            ("42.0", 42),
            ("42.00", 42),
            ("042", 42),
            ("+4_2", 42),
            ("+04_2.0", 42),
            ("-00042_000", -42_000),
            ("  0_42.0 ", 42),
            ("1_000", 1_000),
            ("\t5\n", 5),
            ("123456789.0", 123_456_789),
        ] {
            assert_eq!(parse(input), LaxInt::Int(expected), "{input:?}");
        }
    }

    #[test]
    fn refuses_what_pydantic_refuses() {
        for input in [
            "00_",
            "0:",
            "++4_2",
            "-+1",
            "+-1",
            "--0001",
            "-0-001",
            "  _042.0 ",
            "42_",
            "42_.0",
            " ",
            "",
            "1.",
            "42.",
            "5.5",
            "123456789123456.00001",
            "1e3",
            "abc",
            "1__0",
            "_1",
            "0x10",
            "٣",
        ] {
            assert_eq!(parse(input), LaxInt::Invalid, "{input:?}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse("99999999999999999999"), LaxInt::Huge(i64::MAX));
        assert_eq!(parse("-99999999999999999999"), LaxInt::Huge(i64::MIN));
        assert_eq!(parse(&"1".repeat(4_301)), LaxInt::TooLong);
        assert_eq!(parse(&"1".repeat(4_300)), LaxInt::Huge(i64::MAX));
    }
}
