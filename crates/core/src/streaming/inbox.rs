//! A live answer's messages wait here until the window asks for them (`stream_events`), and go
//! out in one batch per ask.
//!
//! Why not push each message to the window (a Tauri channel or event): those arrive as a script
//! the webview evaluates, one distinct script per message, and WebKit keeps the compiled code of
//! many distinct scripts it has run. Measured on WebKitGTK 2.50: 8,000 distinct 400-byte scripts
//! left the web process 27 MiB larger, 24,000 about 34 MiB (the same script 8,000 times: 4 MiB),
//! and a streamed answer sends about a hundred. A batch asked for comes back as the reply to an
//! IPC request instead, which the web process parses and then frees like any other data.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Notify;
use ts_rs::TS;

use super::StreamMessage;

/// What arrived since the window last asked, and whether the stream is over.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StreamBatch {
    pub messages: Vec<StreamMessage>,
    /// The stream ended (answered, stopped, cut or failed): nothing more will come.
    pub ended: bool,
}

#[derive(Default)]
struct Queue {
    messages: Vec<StreamMessage>,
    ended: bool,
    touched: Option<Instant>,
}

/// One stream's waiting messages. Shared by the stream, which writes, and the window's one
/// pending ask, which takes.
#[derive(Default)]
struct Inbox {
    queue: Mutex<Queue>,
    arrived: Notify,
}

impl Inbox {
    fn push(&self, message: StreamMessage) {
        let mut queue = self.queue.lock().expect("inbox lock poisoned");
        queue.messages.push(message);
        queue.touched = Some(Instant::now());
        drop(queue);
        // A permit is kept when nobody waits yet, so a message never slips between a take's
        // look at the queue and its wait.
        self.arrived.notify_one();
    }

    fn end(&self) {
        let mut queue = self.queue.lock().expect("inbox lock poisoned");
        queue.ended = true;
        queue.touched = Some(Instant::now());
        drop(queue);
        self.arrived.notify_one();
    }

    /// Everything waiting, or `None` when nothing is and the stream goes on.
    fn take_ready(&self) -> Option<StreamBatch> {
        let mut queue = self.queue.lock().expect("inbox lock poisoned");
        queue.touched = Some(Instant::now());
        (!queue.messages.is_empty() || queue.ended).then(|| StreamBatch {
            messages: std::mem::take(&mut queue.messages),
            ended: queue.ended,
        })
    }

    fn idle_since(&self, now: Instant) -> Duration {
        let queue = self.queue.lock().expect("inbox lock poisoned");
        queue.touched.map_or(Duration::ZERO, |at| now - at)
    }
}

/// A stream's side of its inbox.
pub struct InboxWriter(Arc<Inbox>);

impl InboxWriter {
    pub fn push(&self, message: StreamMessage) {
        self.0.push(message);
    }
}

impl Drop for InboxWriter {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// The inboxes of streams in flight, by the request id the window chose.
#[derive(Default)]
pub struct Inboxes {
    by_request: Mutex<HashMap<String, Arc<Inbox>>>,
}

/// An inbox nobody wrote to or asked of for this long is forgotten: a window reloaded mid-answer
/// never asks for the rest, and an ask for a stream that never started has nothing coming.
const FORGOTTEN_AFTER: Duration = Duration::from_secs(300);

impl Inboxes {
    /// Where a stream writes its messages; the inbox ends when the writer is dropped, however the
    /// stream ended.
    pub fn writer(&self, request_id: &str) -> InboxWriter {
        InboxWriter(self.open(request_id))
    }

    /// The inbox of `request_id`, made if need be: the window's first ask may come before the
    /// stream has begun.
    fn open(&self, request_id: &str) -> Arc<Inbox> {
        let mut by_request = self.by_request.lock().expect("inboxes lock poisoned");
        let now = Instant::now();
        by_request.retain(|_, inbox| inbox.idle_since(now) < FORGOTTEN_AFTER);
        by_request
            .entry(request_id.to_owned())
            .or_insert_with(|| {
                let inbox = Arc::new(Inbox::default());
                inbox.queue.lock().expect("inbox lock poisoned").touched = Some(now);
                inbox
            })
            .clone()
    }

    /// What arrived for `request_id` since the last take, waiting up to `wait` for something to
    /// come; an empty batch that has not ended when nothing did. The batch that says `ended`
    /// closes the inbox.
    pub async fn take(&self, request_id: &str, wait: Duration) -> StreamBatch {
        let inbox = self.open(request_id);
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(batch) = inbox.take_ready() {
                if batch.ended {
                    self.by_request
                        .lock()
                        .expect("inboxes lock poisoned")
                        .remove(request_id);
                }
                return batch;
            }
            if tokio::time::timeout_at(deadline, inbox.arrived.notified())
                .await
                .is_err()
            {
                return StreamBatch {
                    messages: Vec::new(),
                    ended: false,
                };
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.by_request.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started(history_id: i64) -> StreamMessage {
        StreamMessage::Started { history_id }
    }

    fn ids(batch: &StreamBatch) -> Vec<i64> {
        batch
            .messages
            .iter()
            .map(|message| match message {
                StreamMessage::Started { history_id } => *history_id,
                StreamMessage::Event { .. } => -1,
            })
            .collect()
    }

    #[tokio::test]
    async fn a_take_gets_everything_waiting_in_order_then_the_end() {
        let inboxes = Inboxes::default();
        let writer = inboxes.writer("r1");
        writer.push(started(1));
        writer.push(started(2));
        let batch = inboxes.take("r1", Duration::from_secs(5)).await;
        assert_eq!(ids(&batch), vec![1, 2]);
        assert!(!batch.ended);
        writer.push(started(3));
        drop(writer);
        let batch = inboxes.take("r1", Duration::from_secs(5)).await;
        assert_eq!(ids(&batch), vec![3]);
        assert!(batch.ended);
        assert_eq!(inboxes.len(), 0, "the batch that ends closes the inbox");
    }

    #[tokio::test]
    async fn a_take_made_before_the_stream_starts_waits_for_its_first_message() {
        let inboxes = Arc::new(Inboxes::default());
        let waiting = tokio::spawn({
            let inboxes = inboxes.clone();
            async move { inboxes.take("early", Duration::from_secs(5)).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let writer = inboxes.writer("early");
        writer.push(started(9));
        let batch = waiting.await.unwrap();
        assert_eq!((ids(&batch), batch.ended), (vec![9], false));
        drop(writer);
        assert!(inboxes.take("early", Duration::from_secs(5)).await.ended);
    }

    #[tokio::test]
    async fn a_take_with_nothing_coming_returns_empty_when_its_wait_is_over() {
        let inboxes = Inboxes::default();
        let batch = inboxes.take("quiet", Duration::from_millis(30)).await;
        assert!(batch.messages.is_empty());
        assert!(!batch.ended);
    }
}
