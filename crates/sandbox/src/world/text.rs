//! Tokenisation shared by the index, the search query and the AI relevance scoring, so that a
//! word means the same thing everywhere.

/// Lower-cased word tokens: runs of alphanumeric characters (and `_`, as in handles).
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

/// True for scripts written without spaces (Japanese here): their words are matched as
/// substrings because whitespace tokenisation cannot isolate them.
pub fn is_unspaced_script(term: &str) -> bool {
    term.chars().any(|c| {
        matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xFF66..=0xFF9F)
    })
}

/// Whether `needle` (lower-case) occurs in `haystack` (lower-case) as a whole word or phrase.
pub fn contains_words(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    if is_unspaced_script(needle) {
        return haystack.contains(needle);
    }
    let mut from = 0;
    while let Some(pos) = haystack[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let before_ok = haystack[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = haystack[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            return true;
        }
        from = start + needle.chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Common words that carry no meaning for relevance scoring of AI prompts.
pub fn is_stopword(word: &str) -> bool {
    const STOP: &[&str] = &[
        "the", "and", "for", "are", "was", "what", "with", "about", "that", "this", "from", "how",
        "why", "who", "when", "where", "which", "latest", "recent", "news", "new", "is", "of",
        "in", "on", "to", "a", "an", "do", "does", "say", "people", "saying", "tell", "me", "show",
        "find", "give", "any", "all", "today", "week", "some", "there", "their", "they", "les",
        "des", "el", "la", "los", "las", "de", "que", "und", "der", "die", "das", "os",
    ];
    STOP.contains(&word)
}

/// Char index (code points, as X reports entity indices) of a byte offset.
pub fn char_index(text: &str, byte_offset: usize) -> usize {
    text[..byte_offset].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_lowercase_and_split() {
        let t: Vec<String> = tokens("Hot take: #AI isn't @Bob_1's thing, 7B!").collect();
        assert_eq!(
            t,
            ["hot", "take", "ai", "isn", "t", "bob_1", "s", "thing", "7b"]
        );
    }

    #[test]
    fn whole_word_matching() {
        assert!(contains_words("open models are here", "models"));
        assert!(!contains_words("open models are here", "model"));
        assert!(contains_words(
            "the champions league final",
            "champions league"
        ));
        assert!(contains_words("生成aiで議事録作成", "議事録"));
        assert!(contains_words("é café", "café"));
    }
}
