//! What "the same text" means: case, whitespace, mentions and links set aside; and the key a
//! text, link or id is compared by (a fixed 64-bit hash, the same in every run).

use std::hash::{Hash, Hasher};

/// The text as compared: lower case, without `@mentions` and links, its words separated by
/// one space. A repost's `RT @name:` prefix goes with the mention (and the `rt` left).
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split_whitespace().enumerate() {
        let lower = word.to_lowercase();
        if lower.starts_with('@')
            || lower.starts_with("http://")
            || lower.starts_with("https://")
            || lower.starts_with("www.")
            || (i == 0 && lower == "rt")
        {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&lower);
    }
    out
}

/// A value's key: its hash with fixed keys (two different values share one with odds of
/// about one in 2^64 per pair).
pub(super) fn key(value: &str) -> u64 {
    // `DefaultHasher::new()` has fixed keys: the same value, the same key, in every run.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// The words of a normalised text, for shingles: runs of letters and digits.
pub(super) fn words(normalised: &str) -> impl Iterator<Item = &str> {
    normalised
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}
