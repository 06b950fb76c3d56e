//! X's advanced search language, as far as `/twitter` and friends need it: words, "quoted
//! phrases", `#tag`, `@mention`, `from:`, `to:`, `OR`, `-negation`, `lang:`, `since:`/`until:`,
//! `since_time:`/`until_time:` (Unix seconds), `min_faves:`/`min_retweets:`/`min_replies:` and
//! `filter:` (images, videos, media, links, replies, quote, verified, blue_verified). Queries run
//! over the posts a request can see (`Posts`): the world's and the trickle's so far.

use crate::posts::Posts;
use crate::world::text::{contains_words, is_unspaced_script, tokens};
use crate::world::{Post, DAY_MS};
use std::borrow::Cow;

#[derive(Debug, Clone, PartialEq)]
enum Atom {
    /// A lower-case word.
    Word(String),
    /// Lower-case words that must appear together, in order.
    Phrase(String),
    Hashtag(String),
    Mention(String),
    From(String),
    To(String),
    Lang(String),
    Since(i64),
    Until(i64),
    MinLikes(u64),
    MinRetweets(u64),
    MinReplies(u64),
    Filter(String),
}

#[derive(Debug, Clone, PartialEq)]
struct Term {
    atom: Atom,
    negated: bool,
}

/// A parsed query: every clause must hold; a clause holds when any of its terms does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchQuery {
    clauses: Vec<Vec<Term>>,
}

/// Splits on whitespace, keeping "quoted phrases" (and `-"negated phrases"`) whole.
fn lex(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    for c in input.chars() {
        match c {
            '"' | '“' | '”' => {
                cur.push('"');
                in_quotes = !in_quotes;
                if !in_quotes {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c if c.is_whitespace() && !in_quotes => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '(' | ')' if !in_quotes => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_date(s: &str) -> Option<i64> {
    let d = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    Some(d.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis())
}

fn seconds(s: &str) -> Option<i64> {
    s.parse::<i64>().ok()?.checked_mul(1000)
}

/// One lexeme to zero or more atoms (a word with punctuation may become several words).
fn atoms(lexeme: &str) -> Vec<Atom> {
    let lower = lexeme.to_lowercase();
    if let Some(inner) = lower.strip_prefix('"') {
        let phrase = inner.trim_end_matches('"').trim().to_string();
        return if phrase.is_empty() {
            vec![]
        } else {
            vec![Atom::Phrase(phrase)]
        };
    }
    if let Some((op, value)) = lower.split_once(':') {
        if !value.is_empty() {
            let n = value.parse::<u64>().ok();
            let atom = match op {
                "from" => Some(Atom::From(value.trim_start_matches('@').to_string())),
                "to" => Some(Atom::To(value.trim_start_matches('@').to_string())),
                "lang" => Some(Atom::Lang(value.to_string())),
                "since" => parse_date(value).map(Atom::Since),
                "until" => parse_date(value).map(Atom::Until),
                // X's finer window: Unix seconds, from (inclusive) and to (exclusive).
                "since_time" => seconds(value).map(Atom::Since),
                "until_time" => seconds(value).map(Atom::Until),
                "min_faves" | "min_likes" => n.map(Atom::MinLikes),
                "min_retweets" => n.map(Atom::MinRetweets),
                "min_replies" => n.map(Atom::MinReplies),
                "filter" => Some(Atom::Filter(value.to_string())),
                _ => None,
            };
            if let Some(a) = atom {
                return vec![a];
            }
        }
    }
    if let Some(tag) = lower.strip_prefix('#') {
        let tag: String = tag
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return if tag.is_empty() {
            vec![]
        } else {
            vec![Atom::Hashtag(tag)]
        };
    }
    if let Some(name) = lower.strip_prefix('@') {
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return if name.is_empty() {
            vec![]
        } else {
            vec![Atom::Mention(name)]
        };
    }
    if is_unspaced_script(&lower) {
        return vec![Atom::Word(lower)];
    }
    let words: Vec<String> = tokens(&lower).collect();
    match words.len() {
        0 => vec![],
        1 => vec![Atom::Word(words.into_iter().next().expect("one word"))],
        // "covid-19" or "don't": match the pieces in order, like X does.
        _ => vec![Atom::Phrase(words.join(" "))],
    }
}

impl SearchQuery {
    pub fn parse(input: &str) -> SearchQuery {
        let mut clauses: Vec<Vec<Term>> = Vec::new();
        let mut join_next = false;
        for lexeme in lex(input) {
            if lexeme == "OR" {
                join_next = !clauses.is_empty();
                continue;
            }
            let (negated, body) = match lexeme.strip_prefix('-') {
                Some(rest) if !rest.is_empty() => (true, rest),
                _ => (false, lexeme.as_str()),
            };
            for atom in atoms(body) {
                let term = Term { atom, negated };
                match clauses.last_mut() {
                    Some(last) if join_next => last.push(term),
                    _ => clauses.push(vec![term]),
                }
                join_next = false;
            }
        }
        SearchQuery { clauses }
    }

    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// Candidate posts (ascending index) from the most selective indexable clause, or `None`
    /// when every post must be examined.
    pub fn candidates<'w>(&self, posts: &Posts<'w>) -> Option<Candidates<'w>> {
        let mut best: Option<Candidates<'w>> = None;
        for (n, clause) in self.clauses.iter().enumerate() {
            if clause.iter().any(|t| t.negated) {
                continue;
            }
            let lists: Option<Vec<Cow<'w, [u32]>>> = clause
                .iter()
                .map(|t| posting_list(posts, &t.atom))
                .collect();
            let Some(mut lists) = lists else {
                continue;
            };
            let posts: Cow<'w, [u32]> = if lists.len() == 1 {
                lists.pop().expect("one list")
            } else {
                let mut union: Vec<u32> = lists.iter().flat_map(|l| l.iter().copied()).collect();
                union.sort_unstable();
                union.dedup();
                Cow::Owned(union)
            };
            if best.as_ref().is_none_or(|b| posts.len() < b.posts.len()) {
                // Phrases are only bounded by their rarest word: they must still be checked.
                let exact = clause.iter().all(|t| !matches!(t.atom, Atom::Phrase(_)));
                best = Some(Candidates {
                    posts,
                    satisfied_clause: exact.then_some(n),
                });
            }
        }
        best
    }

    pub fn matches(&self, posts: &Posts<'_>, index: u32) -> bool {
        self.matches_except(posts, index, None)
    }

    /// `matches`, skipping a clause already known to hold (see `Candidates`).
    pub fn matches_except(&self, posts: &Posts<'_>, index: u32, skip: Option<usize>) -> bool {
        let post = posts.get(index);
        self.clauses
            .iter()
            .enumerate()
            .filter(|(n, _)| Some(*n) != skip)
            .all(|(_, clause)| clause.iter().any(|t| term_matches(posts, index, post, t)))
    }
}

/// Posts that may match a query, from an index.
pub struct Candidates<'w> {
    pub posts: Cow<'w, [u32]>,
    /// The clause every candidate is known to satisfy, when the index is exact for it.
    pub satisfied_clause: Option<usize>,
}

/// Posts that may match `atom` (ascending), when an index can tell.
fn posting_list<'w>(posts: &Posts<'w>, atom: &Atom) -> Option<Cow<'w, [u32]>> {
    match atom {
        Atom::Word(w) if !is_unspaced_script(w) => Some(posts.with_token(w)),
        Atom::Phrase(p) if !is_unspaced_script(p) => {
            // Posts having every word of the phrase; the order is checked later.
            let mut lists: Vec<Cow<'w, [u32]>> = tokens(p).map(|w| posts.with_token(&w)).collect();
            lists.sort_by_key(|l| l.len());
            let (first, rest) = lists.split_first()?;
            let mut all: Vec<u32> = first.to_vec();
            for list in rest.iter() {
                all.retain(|i| list.binary_search(i).is_ok());
            }
            Some(Cow::Owned(all))
        }
        Atom::Hashtag(t) => Some(posts.with_hashtag(t)),
        Atom::From(name) => Some(
            posts
                .world
                .user_named(name)
                .map_or(Cow::Borrowed(&[][..]), |u| posts.by_user(u)),
        ),
        _ => None,
    }
}

fn term_matches(posts: &Posts<'_>, index: u32, post: &Post, term: &Term) -> bool {
    let world = posts.world;
    let author = &world.users[post.author as usize];
    let hit = match &term.atom {
        Atom::Word(w) if is_unspaced_script(w) => post.lower.contains(w.as_str()),
        Atom::Word(w) => posts.has_token(index, w),
        Atom::Phrase(p) => contains_words(&post.lower, p),
        Atom::Hashtag(t) => post.hashtags.iter().any(|h| h.to_lowercase() == *t),
        Atom::Mention(name) => post
            .mentions
            .iter()
            .any(|&m| world.users[m as usize].username.eq_ignore_ascii_case(name)),
        Atom::From(name) => author.username.eq_ignore_ascii_case(name),
        Atom::To(name) => post.reply_to.is_some_and(|p| {
            world.users[posts.get(p).author as usize]
                .username
                .eq_ignore_ascii_case(name)
        }),
        Atom::Lang(l) => crate::world::corpus::LANGS[post.lang as usize] == l,
        Atom::Since(ms) => post.created_ms >= *ms,
        Atom::Until(ms) => post.created_ms < *ms,
        Atom::MinLikes(n) => post.likes >= *n,
        Atom::MinRetweets(n) => post.retweets >= *n,
        Atom::MinReplies(n) => post.replies >= *n,
        Atom::Filter(f) => match f.as_str() {
            "images" => post.has_photo(),
            "videos" | "native_video" => post.has_video(),
            "media" => !post.media.is_empty(),
            "links" => !post.links.is_empty(),
            "replies" => post.reply_to.is_some(),
            "quote" | "quotes" => post.quote_of.is_some(),
            "verified" => author.verified,
            "blue_verified" => author.blue_verified,
            "hashtags" => !post.hashtags.is_empty(),
            _ => true,
        },
    };
    hit != term.negated
}

/// Inclusive end of a `YYYY-MM-DD` end date: the whole day counts.
pub fn end_of_day(start_of_day_ms: i64) -> i64 {
    start_of_day_ms + DAY_MS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(q: &str) -> Vec<Vec<(Atom, bool)>> {
        SearchQuery::parse(q)
            .clauses
            .into_iter()
            .map(|c| c.into_iter().map(|t| (t.atom, t.negated)).collect())
            .collect()
    }

    #[test]
    fn parses_the_advanced_syntax() {
        let w = |s: &str| Atom::Word(s.into());
        assert_eq!(
            terms(r#"AI "open models" from:Bob #GPU OR #LLM -crypto lang:en min_faves:10"#),
            vec![
                vec![(w("ai"), false)],
                vec![(Atom::Phrase("open models".into()), false)],
                vec![(Atom::From("bob".into()), false)],
                vec![
                    (Atom::Hashtag("gpu".into()), false),
                    (Atom::Hashtag("llm".into()), false)
                ],
                vec![(w("crypto"), true)],
                vec![(Atom::Lang("en".into()), false)],
                vec![(Atom::MinLikes(10), false)],
            ]
        );
        assert_eq!(
            terms("solar OR wind"),
            vec![vec![(w("solar"), false), (w("wind"), false)]]
        );
        assert_eq!(terms("OR"), Vec::<Vec<(Atom, bool)>>::new());
        assert_eq!(
            terms("-filter:replies"),
            vec![vec![(Atom::Filter("replies".into()), true)]]
        );
        assert!(SearchQuery::parse("   ").is_empty());
    }
}
