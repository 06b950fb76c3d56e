//! What a stream has delivered so far, rebuilt from its events, so that a cancelled or
//! cut stream still yields a result the app can store.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::billing::Charge;
use crate::decoder::StreamEvent;
use crate::model::AiSearchResult;

/// The sum of a stream's events.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct PartialStream {
    /// The same shape as the non-streaming answer: tool results, scores, summary text.
    pub result: AiSearchResult,
    /// Events received (of every kind).
    pub event_count: usize,
    /// Unknown or unreadable events, passed on but not part of `result`.
    pub skipped_events: usize,
    /// From the response headers (a stream carries billing there only).
    pub billing: Option<Charge>,
}

impl PartialStream {
    /// Folds one event in.
    pub fn apply(&mut self, event: &StreamEvent) {
        self.event_count += 1;
        let r = &mut self.result;
        match event {
            StreamEvent::LinkResults { tool, results } => {
                let slot = match tool.as_str() {
                    "search" => &mut r.search,
                    "hacker_news_search" => &mut r.hacker_news_search,
                    "reddit_search" => &mut r.reddit_search,
                    "youtube_search" => &mut r.youtube_search,
                    "wikipedia_search" => &mut r.wikipedia_search,
                    "arxiv_search" => &mut r.arxiv_search,
                    _ => {
                        self.skipped_events += 1;
                        return;
                    }
                };
                slot.get_or_insert_with(Vec::new)
                    .extend(results.iter().cloned());
            }
            StreamEvent::Tweets { tweets } => {
                r.tweets
                    .get_or_insert_with(Vec::new)
                    .extend(tweets.iter().cloned());
            }
            StreamEvent::LinkScores { scores } => {
                r.miner_link_scores
                    .get_or_insert_with(Default::default)
                    .extend(scores.iter().map(|(k, v)| (k.clone(), *v)));
            }
            StreamEvent::Text { text, .. } => {
                r.text.get_or_insert_with(String::new).push_str(text);
            }
            StreamEvent::Completion { text } => r.completion = Some(text.clone()),
            StreamEvent::Flow { .. } | StreamEvent::Error { .. } => {}
            StreamEvent::Unknown { .. } | StreamEvent::Malformed { .. } => self.skipped_events += 1,
        }
    }

    /// True once the summary arrived (the last event of a complete stream).
    pub fn has_completion(&self) -> bool {
        self.result.completion.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LinkResult, LinkScore};

    #[test]
    fn folds_events_into_a_result() {
        let link = LinkResult {
            title: "t".into(),
            snippet: "s".into(),
            link: "https://a".into(),
            extra: Default::default(),
        };
        let events = [
            StreamEvent::LinkResults {
                tool: "search".into(),
                results: vec![link.clone()],
            },
            StreamEvent::LinkResults {
                tool: "arxiv_search".into(),
                results: vec![],
            },
            StreamEvent::LinkScores {
                scores: [("https://a".to_owned(), LinkScore::High)].into(),
            },
            StreamEvent::Text {
                role: Some("summary".into()),
                text: "Hel".into(),
            },
            StreamEvent::Text {
                role: Some("summary".into()),
                text: "lo".into(),
            },
            StreamEvent::Unknown {
                event_type: "x".into(),
                raw: serde_json::Value::Null,
            },
        ];
        let mut p = PartialStream::default();
        for e in &events {
            p.apply(e);
        }
        assert!(!p.has_completion());
        p.apply(&StreamEvent::Completion {
            text: "Hello".into(),
        });
        assert_eq!(p.event_count, 7);
        assert_eq!(p.skipped_events, 1);
        assert_eq!(p.result.search, Some(vec![link]));
        assert_eq!(p.result.arxiv_search, Some(vec![]));
        assert_eq!(p.result.text.as_deref(), Some("Hello"));
        assert_eq!(p.result.completion.as_deref(), Some("Hello"));
        assert_eq!(
            p.result.miner_link_scores.unwrap()["https://a"],
            LinkScore::High
        );
    }
}
