//! What a prompt is about: its meaningful words, and the topics of the world it touches.
//! The AI search draws its sources only from those topics and names them in its summary, so
//! that an answer is about what was asked ("wind farms and the energy market" is climate and
//! energy, not football because a football page mentions the transfer market).

use crate::world::corpus::TOPICS;
use crate::world::text::{contains_words, is_stopword, tokens};
use crate::world::World;

pub struct Relevance {
    pub terms: Vec<String>,
    /// The topics the prompt is about, closest first; empty when nothing in the world matches.
    pub topics: Vec<usize>,
}

/// How strongly one prompt word points to a topic: a keyword or hashtag of the topic counts
/// twice as much as a word that only occurs in one of its page subjects.
fn weight(topic: usize, term: &str) -> usize {
    let t = &TOPICS[topic];
    if t.keywords.contains(&term) || t.hashtags.iter().any(|h| h.eq_ignore_ascii_case(term)) {
        2
    } else if t.subjects.iter().any(|s| contains_words(s, term)) {
        1
    } else {
        0
    }
}

impl Relevance {
    pub fn of(world: &World, prompt: &str) -> Relevance {
        let mut terms: Vec<String> = Vec::new();
        for t in tokens(prompt) {
            if t.chars().count() >= 2 && !is_stopword(&t) && !terms.contains(&t) {
                terms.push(t);
            }
        }
        let scores: Vec<usize> = (0..TOPICS.len())
            .map(|topic| terms.iter().map(|t| weight(topic, t)).sum())
            .collect();
        let mut topics = dominant(&scores);
        if topics.is_empty() {
            topics = closest_by_posts(world, &terms).into_iter().collect();
        }
        Relevance { terms, topics }
    }

    /// Share of the prompt's words found in `lower`, and whether the topic is one of the
    /// prompt's.
    pub fn score(&self, lower: &str, topic: usize) -> (f64, bool) {
        let hits = self
            .terms
            .iter()
            .filter(|t| contains_words(lower, t))
            .count();
        let share = if self.terms.is_empty() {
            0.0
        } else {
            hits as f64 / self.terms.len() as f64
        };
        (share, self.on_topic(topic))
    }

    /// Whether a source of `topic` may answer the prompt.
    pub fn on_topic(&self, topic: usize) -> bool {
        self.topics.contains(&topic)
    }

    pub fn grade(&self, lower: &str, topic: usize) -> &'static str {
        match self.score(lower, topic) {
            (s, _) if s >= 0.6 => "HIGH",
            (s, on_topic) if s >= 0.3 || (s > 0.0 && on_topic) => "MEDIUM",
            _ => "LOW",
        }
    }
}

/// The topics scoring more than half the best score, best first: a prompt about two subjects
/// keeps both, a stray word shared with a third does not bring it in.
fn dominant(scores: &[usize]) -> Vec<usize> {
    let best = scores.iter().copied().max().unwrap_or(0);
    let mut kept: Vec<usize> = (0..scores.len())
        .filter(|&t| best > 0 && scores[t] * 2 > best)
        .collect();
    kept.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
    kept
}

/// When no topic's words are in the prompt: the topic whose posts use the prompt's words most.
fn closest_by_posts(world: &World, terms: &[String]) -> Option<usize> {
    let mut uses = vec![0usize; TOPICS.len()];
    for t in terms {
        for &p in world.posts_with_token(t) {
            uses[world.posts[p as usize].topic as usize] += 1;
        }
    }
    let best = (0..uses.len()).max_by_key(|&t| (uses[t], std::cmp::Reverse(t)))?;
    (uses[best] > 0).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stray_word_does_not_bring_in_a_topic() {
        // climate: "wind" and "energy" are keywords (4); markets: "market" (2); football:
        // "market" in a page subject (1).
        let mut scores = vec![0; TOPICS.len()];
        scores[1] = 4;
        scores[4] = 2;
        scores[2] = 1;
        assert_eq!(dominant(&scores), [1]);
        // Two subjects asked about equally are both kept, the stronger first.
        scores[4] = 4;
        assert_eq!(dominant(&scores), [1, 4]);
        scores[4] = 6;
        assert_eq!(dominant(&scores), [4, 1]);
        assert!(dominant(&[0; TOPICS.len()]).is_empty());
    }

    #[test]
    fn weights() {
        let climate = TOPICS.iter().position(|t| t.key == "climate").unwrap();
        let football = TOPICS.iter().position(|t| t.key == "football").unwrap();
        assert_eq!(weight(climate, "wind"), 2);
        assert_eq!(weight(climate, "renewables"), 2);
        assert_eq!(weight(football, "market"), 1);
        assert_eq!(weight(football, "wind"), 0);
    }
}
