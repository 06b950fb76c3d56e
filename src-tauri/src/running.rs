//! What the long commands share (an evidence bundle's export and its check, the web archive's
//! export, the coordination search, an import): one run of a kind at a time, whose cancel token is kept
//! while it runs so that its "Cancel" command means that run, and its progress relayed to the
//! channel the window opened.

use std::sync::Mutex;

use sightline_api::CancelToken;
use tauri::ipc::{Channel, IpcResponse};

/// The run of one kind going now, if any.
#[derive(Default)]
pub struct Running(Mutex<Option<CancelToken>>);

impl Running {
    /// Starts a run with a new cancel token, kept here until the returned [`Run`] is dropped
    /// (the run ended, or its command was dropped).
    pub(crate) fn start(&self) -> Run<'_> {
        let token = CancelToken::new();
        self.keep(Some(token.clone()));
        Run {
            running: self,
            token,
        }
    }

    /// Starts a run as [`Running::start`] does, unless one is going now (`None`): for a kind
    /// that must not be started twice (an import).
    pub(crate) fn try_start(&self) -> Option<Run<'_>> {
        let token = CancelToken::new();
        let mut running = self.0.lock().ok()?;
        if running.is_some() {
            return None;
        }
        *running = Some(token.clone());
        drop(running);
        Some(Run {
            running: self,
            token,
        })
    }

    /// Stops the run going now, if any.
    pub(crate) fn cancel(&self) {
        if let Some(cancel) = self.0.lock().ok().and_then(|running| running.clone()) {
            cancel.cancel();
        }
    }

    fn keep(&self, token: Option<CancelToken>) {
        if let Ok(mut running) = self.0.lock() {
            *running = token;
        }
    }
}

/// A run in progress: its cancel token, forgotten by its [`Running`] when dropped.
pub(crate) struct Run<'r> {
    running: &'r Running,
    token: CancelToken,
}

impl Run<'_> {
    /// The token the run checks, which [`Running::cancel`] sets.
    pub(crate) fn token(&self) -> &CancelToken {
        &self.token
    }
}

impl Drop for Run<'_> {
    fn drop(&mut self) {
        self.running.keep(None);
    }
}

/// Each step of a run, sent to the window's `channel`; a window that closed the channel just
/// stops hearing of it, and the run goes on.
pub(crate) fn relay<P: IpcResponse + Send + 'static>(
    channel: Channel<P>,
) -> impl FnMut(P) + Send + 'static {
    move |step| {
        let _ = channel.send(step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_reaches_the_run_going_now_and_none_after_it() {
        let running = Running::default();
        running.cancel();
        let first = running.start();
        let token = first.token().clone();
        running.cancel();
        assert!(token.is_cancelled());
        drop(first);
        // A later run starts uncancelled, and a cancel between runs touches none.
        running.cancel();
        let second = running.start();
        assert!(!second.token().is_cancelled());
    }

    #[test]
    fn try_start_refuses_while_a_run_goes_and_starts_once_it_ended() {
        let running = Running::default();
        let first = running.try_start().expect("nothing was running");
        assert!(running.try_start().is_none());
        drop(first);
        assert!(running.try_start().is_some());
    }
}
