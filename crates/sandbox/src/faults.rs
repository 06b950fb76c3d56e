//! Fault injection: queued misbehaviours for the next responses of a route, so that clients
//! can be tested against failures the live service shows. Each queued fault is used once.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Mutex;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Fault {
    /// Answer with this status instead of running the operation. Without `body`, the contract's
    /// body for that status is used. `headers` are added (e.g. `Location`, `Retry-After`).
    Status {
        status: u16,
        #[serde(default)]
        body: Option<Value>,
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
    /// Wait `ms` milliseconds before answering normally.
    Stall { ms: u64 },
    /// Streams: send `after_events` events, then stop. `abrupt` (default) breaks the connection
    /// mid-body; otherwise the stream ends cleanly but early. Non-stream bodies are cut to half.
    CutStream {
        after_events: usize,
        #[serde(default = "yes")]
        abrupt: bool,
    },
    /// JSON bodies lose their closing bracket; in streams the event at `at_event` (default 0)
    /// is replaced by a line of broken JSON, and the stream goes on.
    MalformedJson {
        #[serde(default)]
        at_event: usize,
    },
    /// Streams: write `per_line` (default 3) events on one line, `data: {…}data: {…}`.
    PackEvents {
        #[serde(default = "three")]
        per_line: usize,
    },
    /// Write the body in pieces of `bytes` bytes, flushed separately (split JSON across reads).
    Fragment { bytes: usize },
    /// Streams: after `after_events` events, send `{"error": message}` and end (the service's
    /// terminal mid-stream error).
    StreamError {
        after_events: usize,
        #[serde(default = "stream_error_message")]
        message: String,
    },
    /// Streams: end with a `data: [DONE]` line, which clients must ignore.
    DoneSentinel,
    /// Answer with this exact body (a JSON value, or a string sent as is), `status` (default
    /// 200) and `content_type` (default `application/json`). 2xx answers are billed like the
    /// operation's (one unit per array element, else one).
    Body {
        body: Value,
        #[serde(default = "ok")]
        status: u16,
        #[serde(default)]
        content_type: Option<String>,
    },
}

fn stream_error_message() -> String {
    String::from("Upstream search failed")
}

fn yes() -> bool {
    true
}
fn three() -> usize {
    3
}
fn ok() -> u16 {
    200
}

/// What `POST /__sandbox/faults` accepts: one fault or several, optionally repeated.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRequest {
    pub route: String,
    #[serde(default)]
    pub fault: Option<Fault>,
    #[serde(default)]
    pub faults: Vec<Fault>,
    #[serde(default = "one")]
    pub times: usize,
}

fn one() -> usize {
    1
}

/// Pending faults per route path (e.g. `/twitter`, `/service/ai/search`).
#[derive(Debug, Default)]
pub struct FaultQueue {
    queues: Mutex<HashMap<String, VecDeque<Fault>>>,
}

fn normalise_route(route: &str) -> String {
    let path = route.split('?').next().unwrap_or("");
    let trimmed = path.trim_end_matches('/');
    if trimmed.starts_with('/') {
        trimmed.to_string()
    } else {
        format!("/{trimmed}")
    }
}

impl FaultQueue {
    /// Queues `fault` for the next response of `route`.
    pub fn push(&self, route: &str, fault: Fault) {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        q.entry(normalise_route(route))
            .or_default()
            .push_back(fault);
    }

    /// Takes the next fault for `route`, if any.
    pub fn next(&self, route: &str) -> Option<Fault> {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        q.get_mut(&normalise_route(route))
            .and_then(VecDeque::pop_front)
    }

    /// Removes every pending fault, or those of one route.
    pub fn clear(&self, route: Option<&str>) {
        let mut q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        match route {
            Some(r) => {
                q.remove(&normalise_route(r));
            }
            None => q.clear(),
        }
    }

    /// Pending faults per route, for inspection.
    pub fn pending(&self) -> BTreeMap<String, Vec<Fault>> {
        let q = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        q.iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.clone(), v.iter().cloned().collect()))
            .collect()
    }

    /// Queues what a `POST /__sandbox/faults` asked for; returns how many faults were queued.
    pub fn apply(&self, req: FaultRequest) -> usize {
        let mut list = req.faults;
        list.extend(req.fault);
        let mut n = 0;
        for _ in 0..req.times {
            for f in &list {
                self.push(&req.route, f.clone());
                n += 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_order_and_routes() {
        let q = FaultQueue::default();
        q.push("/twitter", Fault::Stall { ms: 5 });
        q.push("twitter/", Fault::Fragment { bytes: 3 });
        assert_eq!(q.next("/twitter/post"), None);
        assert_eq!(q.next("/twitter"), Some(Fault::Stall { ms: 5 }));
        assert_eq!(q.next("/twitter"), Some(Fault::Fragment { bytes: 3 }));
        assert_eq!(q.next("/twitter"), None);
    }

    #[test]
    fn json_format() {
        let req: FaultRequest = serde_json::from_str(
            r#"{"route":"/service/ai/search","faults":[{"type":"cut_stream","after_events":2},{"type":"status","status":500}],"times":2}"#,
        )
        .unwrap();
        let q = FaultQueue::default();
        assert_eq!(q.apply(req), 4);
        assert_eq!(q.pending()["/service/ai/search"].len(), 4);
        assert_eq!(
            q.next("/service/ai/search"),
            Some(Fault::CutStream {
                after_events: 2,
                abrupt: true
            })
        );
        q.clear(None);
        assert!(q.pending().is_empty());
        assert!(serde_json::from_str::<Fault>(r#"{"type":"nope"}"#).is_err());
    }
}
