//! Counts in sentences: "1 part", "12 parts", "100,000 requests". The UI words its counts with
//! `countOf` in ui/src/lib/format.ts; both run the table in tests/fixtures/count-cases.json, so
//! a message from Rust and a label from the UI count the same way.

/// `count` with the noun that fits it, the count grouped by thousands as in English.
pub fn count_of(count: u64, one: &str, many: &str) -> String {
    let noun = if count == 1 { one } else { many };
    format!("{} {noun}", grouped(count))
}

/// 1234567 → "1,234,567".
fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(12_345_678), "12,345,678");
        assert_eq!(count_of(1, "part", "parts"), "1 part");
    }
}
