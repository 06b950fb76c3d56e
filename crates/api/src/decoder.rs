//! Incremental decoder of the AI search stream: bytes in, typed events out.
//!
//! Wire form: `data: <one JSON value>` per event, usually followed by a blank line, but the
//! live service also packs events (`data: {…}data: {…}`) and splits JSON across reads.
//! After each `data:` we read exactly one whole JSON value, tracking braces and strings
//! ourselves so that a `data: ` inside a string never confuses us and a value split over
//! many reads is scanned only once.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use ts_rs::TS;

use crate::model::{LinkResult, LinkScore, Post};

/// One decoded event of the stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StreamEvent {
    /// A link tool's results (`search`, `reddit_search`, …), once per tool.
    LinkResults {
        tool: String,
        results: Vec<LinkResult>,
    },
    /// The X tool's results.
    Tweets { tweets: Vec<Post> },
    /// The link-quality map (URL or bare post id → grade).
    LinkScores { scores: BTreeMap<String, LinkScore> },
    /// A small piece of the summary.
    Text { role: Option<String>, text: String },
    /// The whole summary, last.
    Completion { text: String },
    /// Optional progress information.
    Flow {
        id: Option<String>,
        status: Option<String>,
        #[ts(type = "unknown")]
        content: Value,
    },
    /// An event type this version does not know; passed on, not fatal.
    Unknown {
        event_type: String,
        #[ts(type = "unknown")]
        raw: Value,
    },
    /// An event that could not be read; skipped, not fatal.
    Malformed { detail: String },
    /// `{"error": …}`: the service gave up. Terminal.
    Error { message: String },
}

impl StreamEvent {
    pub fn is_terminal(&self) -> bool {
        matches!(self, StreamEvent::Error { .. })
    }
}

const LINK_TOOLS: [&str; 6] = [
    "search",
    "wikipedia_search",
    "youtube_search",
    "arxiv_search",
    "reddit_search",
    "hacker_news_search",
];

/// The stream ended in the middle of an event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the stream ended in the middle of an event ({pending_bytes} bytes unread)")]
pub struct Truncated {
    pub pending_bytes: usize,
}

/// Progress of the scan of one JSON object/array that has not fully arrived.
#[derive(Debug, Default, Clone, Copy)]
struct Scan {
    /// Absolute index where scanning resumes.
    next: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

/// Pure, incremental decoder. Feed it with [`push`](Self::push), end with
/// [`finish`](Self::finish).
#[derive(Debug, Default)]
pub struct StreamDecoder {
    buf: Vec<u8>,
    /// Start of unconsumed input in `buf`.
    pos: usize,
    /// Set while we are inside a `data:` value, scanning for its end.
    value_start: Option<usize>,
    scan: Scan,
    terminated: bool,
}

enum Step {
    Event(Option<StreamEvent>),
    NeedMore,
}

impl StreamDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// True once an `{"error": …}` event was seen; later input is ignored.
    pub fn is_terminated(&self) -> bool {
        self.terminated
    }

    /// Feeds one read; returns the events it completed.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        if self.terminated {
            return events;
        }
        self.buf.extend_from_slice(bytes);
        self.drain(false, &mut events);
        self.compact();
        events
    }

    /// Ends the stream: decodes what can still be decoded, and reports an event cut short.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, Truncated> {
        let mut events = Vec::new();
        if self.terminated {
            return Ok(events);
        }
        self.drain(true, &mut events);
        let rest = &self.buf[self.pos..];
        let pending = rest.iter().filter(|b| !b.is_ascii_whitespace()).count();
        let rest_len = rest.len();
        self.buf.clear();
        self.pos = 0;
        self.value_start = None;
        if pending > 0 {
            return Err(Truncated {
                pending_bytes: rest_len,
            });
        }
        Ok(events)
    }

    fn drain(&mut self, at_end: bool, events: &mut Vec<StreamEvent>) {
        while !self.terminated {
            match self.step(at_end) {
                Step::Event(Some(event)) => {
                    self.terminated = event.is_terminal();
                    events.push(event);
                }
                Step::Event(None) => {}
                Step::NeedMore => break,
            }
        }
    }

    /// Drops consumed bytes once they dominate the buffer (amortised O(1) per byte).
    fn compact(&mut self) {
        if self.pos > 0 && self.pos * 2 >= self.buf.len() {
            self.buf.drain(..self.pos);
            if let Some(start) = self.value_start.as_mut() {
                *start -= self.pos;
                self.scan.next -= self.pos;
            }
            self.pos = 0;
        }
    }

    fn step(&mut self, at_end: bool) -> Step {
        if let Some(start) = self.value_start {
            return self.continue_value(start, at_end);
        }
        let buf = &self.buf;
        let mut p = self.pos;
        while p < buf.len() && buf[p].is_ascii_whitespace() {
            p += 1;
        }
        self.pos = p;
        if p == buf.len() {
            return Step::NeedMore;
        }
        let rest = &buf[p..];
        const DATA: &[u8] = b"data:";
        if !rest.starts_with(DATA) {
            if DATA.starts_with(rest) && !at_end {
                return Step::NeedMore;
            }
            // A line we do not use (`event:`, `id:`, `: comment`, stray text): skip it.
            return match rest.iter().position(|&b| b == b'\n') {
                Some(nl) => {
                    self.pos = p + nl + 1;
                    Step::Event(None)
                }
                None if at_end => {
                    self.pos = buf.len();
                    Step::Event(None)
                }
                None => Step::NeedMore,
            };
        }
        let mut v = p + DATA.len();
        while v < buf.len() && (buf[v] == b' ' || buf[v] == b'\t') {
            v += 1;
        }
        if v == buf.len() {
            return Step::NeedMore;
        }
        const DONE: &[u8] = b"[DONE]";
        let after = &buf[v..];
        if after.starts_with(DONE) {
            self.pos = v + DONE.len();
            return Step::Event(None);
        }
        if DONE.starts_with(after) && !at_end {
            return Step::NeedMore;
        }
        if buf[v] == b'\n' || buf[v] == b'\r' {
            // `data:` with nothing after it.
            self.pos = v;
            return Step::Event(None);
        }
        // Fast path: the whole event is usually in the buffer already, and serde finds its
        // end while parsing it. Only an event split across reads falls back to the scanner,
        // which resumes where it stopped so a long event is scanned once.
        if buf[v] == b'{' {
            let mut parsed =
                serde_json::Deserializer::from_slice(&buf[v..]).into_iter::<Envelope>();
            // On an error (incomplete, or JSON of the wrong shape) the general path decides.
            if let Some(Ok(envelope)) = parsed.next() {
                let end = v + parsed.byte_offset();
                let event = envelope_event(envelope, &buf[v..end]);
                self.pos = end;
                return Step::Event(Some(event));
            }
        }
        self.value_start = Some(v);
        self.scan = Scan {
            next: v,
            ..Scan::default()
        };
        self.continue_value(v, at_end)
    }

    fn continue_value(&mut self, start: usize, at_end: bool) -> Step {
        let end = match self.buf[start] {
            b'{' | b'[' => match self.scan_container() {
                Some(end) => end,
                None => return Step::NeedMore,
            },
            // A scalar (string, number, literal): let serde find its end.
            _ => match scalar_end(&self.buf[start..], at_end) {
                Some(len) => start + len,
                None => return Step::NeedMore,
            },
        };
        self.value_start = None;
        self.pos = end;
        Step::Event(Some(to_event(&self.buf[start..end])))
    }

    /// Scans the object/array at `value_start` for its closing bracket, resuming where the
    /// last read stopped. Returns the index just past it.
    fn scan_container(&mut self) -> Option<usize> {
        let s = &mut self.scan;
        let buf = &self.buf;
        let mut i = s.next;
        while i < buf.len() {
            let b = buf[i];
            if s.in_string {
                if s.escaped {
                    s.escaped = false;
                } else if b == b'\\' {
                    s.escaped = true;
                } else if b == b'"' {
                    s.in_string = false;
                } else {
                    // Most bytes are inside strings: jump to the next quote or backslash.
                    match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                        Some(skip) => i += skip,
                        None => i = buf.len(),
                    }
                    continue;
                }
            } else {
                match b {
                    b'"' => s.in_string = true,
                    b'{' | b'[' => s.depth += 1,
                    b'}' | b']' => {
                        s.depth = s.depth.saturating_sub(1);
                        if s.depth == 0 {
                            s.next = i + 1;
                            return Some(i + 1);
                        }
                    }
                    // A line break cannot occur inside one-line JSON: the event was cut.
                    b'\n' => {
                        s.next = i;
                        return Some(i);
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        s.next = i;
        None
    }
}

/// Length of the scalar JSON value at the start of `bytes`, if complete.
fn scalar_end(bytes: &[u8], at_end: bool) -> Option<usize> {
    let mut it = serde_json::Deserializer::from_slice(bytes).into_iter::<&RawValue>();
    match it.next() {
        Some(Ok(_)) => {
            let len = it.byte_offset();
            // A number running to the end of the buffer may continue in the next read.
            if len == bytes.len() && !at_end && !matches!(bytes[0], b'"') {
                None
            } else {
                Some(len)
            }
        }
        Some(Err(e)) if e.is_eof() && !at_end => None,
        // Not valid JSON: consume up to the end of the line and report it.
        _ => Some(
            bytes
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(bytes.len()),
        ),
    }
}

#[derive(Deserialize)]
struct Envelope<'a> {
    /// Borrowed unless it contains escapes: no allocation per event.
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    status: Option<Value>,
}

fn malformed(detail: impl Into<String>) -> StreamEvent {
    StreamEvent::Malformed {
        detail: detail.into(),
    }
}

/// Turns one complete JSON value into an event.
pub fn to_event(bytes: &[u8]) -> StreamEvent {
    match serde_json::from_slice::<Envelope>(bytes) {
        Ok(envelope) => envelope_event(envelope, bytes),
        Err(e) => malformed(format!("unreadable event: {e}")),
    }
}

/// The typed event of a parsed envelope; `bytes` is the whole event, kept for unknown types.
fn envelope_event(envelope: Envelope, bytes: &[u8]) -> StreamEvent {
    if let Some(error) = envelope.error {
        let message = match serde_json::from_str::<Value>(error.get()) {
            Ok(Value::String(s)) => s,
            Ok(Value::Object(o)) => o
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| Value::Object(o).to_string()),
            Ok(other) => other.to_string(),
            Err(_) => error.get().to_owned(),
        };
        return StreamEvent::Error { message };
    }
    let Some(kind) = envelope.kind else {
        return unknown("", bytes);
    };
    let content = envelope.content.map(RawValue::get).unwrap_or("null");
    let typed = match kind.as_ref() {
        "text" => serde_json::from_str::<Option<String>>(content).map(|text| StreamEvent::Text {
            role: envelope.role,
            text: text.unwrap_or_default(),
        }),
        "completion" => {
            serde_json::from_str::<Option<String>>(content).map(|text| StreamEvent::Completion {
                text: text.unwrap_or_default(),
            })
        }
        "tweets" => list_content(content).map(|tweets| StreamEvent::Tweets { tweets }),
        "miner_link_scores" => serde_json::from_str::<Option<BTreeMap<String, LinkScore>>>(content)
            .map(|scores| StreamEvent::LinkScores {
                scores: scores.unwrap_or_default(),
            }),
        "flow" => serde_json::from_str::<Value>(content).map(|content| StreamEvent::Flow {
            id: envelope.id.as_ref().map(scalar_text),
            status: envelope.status.as_ref().map(scalar_text),
            content,
        }),
        tool if LINK_TOOLS.contains(&tool) => {
            list_content(content).map(|results| StreamEvent::LinkResults {
                tool: tool.to_owned(),
                results,
            })
        }
        other => return unknown(other, bytes),
    };
    typed.unwrap_or_else(|e| malformed(format!("unreadable \"{kind}\" event: {e}")))
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn unknown(kind: &str, bytes: &[u8]) -> StreamEvent {
    StreamEvent::Unknown {
        event_type: kind.to_owned(),
        raw: serde_json::from_slice(bytes).unwrap_or(Value::Null),
    }
}

/// A tool's list: an array, null, or an object wrapping one array.
fn list_content<T: serde::de::DeserializeOwned>(
    content: &str,
) -> Result<Vec<T>, serde_json::Error> {
    if content.trim_start().starts_with('{') {
        let map: serde_json::Map<String, Value> = serde_json::from_str(content)?;
        return match map.into_iter().find(|(_, v)| v.is_array()) {
            Some((_, list)) => serde_json::from_value(list),
            None => Ok(Vec::new()),
        };
    }
    Ok(serde_json::from_str::<Option<Vec<T>>>(content)?.unwrap_or_default())
}

#[cfg(test)]
mod tests;
