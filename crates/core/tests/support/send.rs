//! The send options of a test's request: its own request id, no budget confirmation, the
//! first page.

use sightline_core::pipeline::{Paging, SendOptions};

pub fn send(id: &str) -> SendOptions {
    SendOptions {
        request_id: id.into(),
        confirm_budget: false,
        paging: Paging::default(),
    }
}
