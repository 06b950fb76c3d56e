//! Field-level validation shared by the request types: every violation is collected, so
//! the form can show all of them at once.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One problem with one input field. `field` is the contract's parameter name, which is
/// also the request struct's field name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Collects field errors.
#[derive(Default)]
pub(crate) struct Checks {
    errors: Vec<FieldError>,
}

/// A username as the service wants it: trimmed, without the `@` people often type.
pub fn bare_handle(value: &str) -> &str {
    value.trim().trim_start_matches('@')
}

impl Checks {
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(FieldError::new(field, message));
    }

    /// A required text field: present and not only whitespace.
    pub fn required(&mut self, field: &str, value: &str, message: &str) -> bool {
        if value.trim().is_empty() {
            self.add(field, message);
            return false;
        }
        true
    }

    /// An X username, required without its `@` (people often type it).
    pub fn handle(&mut self, field: &str, value: &str) {
        self.required(
            field,
            bare_handle(value),
            "Enter the X username, for example nasa.",
        );
    }

    /// A post's id: present, and digits only, as X numbers every post.
    pub fn post_id(&mut self, field: &str, value: &str) {
        if self.required(
            field,
            value,
            "Enter the post's id (the number at the end of its link).",
        ) && !value.trim().bytes().all(|b| b.is_ascii_digit())
        {
            self.add(
                field,
                format!(
                    "A post id is digits only, like 1890000000000000001 (you entered \"{}\").",
                    value.trim()
                ),
            );
        }
    }

    pub fn range(&mut self, field: &str, value: i64, min: i64, max: i64) {
        if value < min || value > max {
            self.add(
                field,
                format!("Choose a number from {min} to {max} (you entered {value})."),
            );
        }
    }

    /// `YYYY-MM-DD`, as the X search takes.
    pub fn day(&mut self, field: &str, value: Option<&str>) {
        if let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) {
            if parse_day(value).is_none() {
                self.add(field, day_message(value));
            }
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, as the AI search takes.
    pub fn instant(&mut self, field: &str, value: Option<&str>) {
        if let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) {
            if parse_instant(value).is_none() {
                self.add(
                    field,
                    format!(
                        "Write the date and time as YYYY-MM-DDTHH:MM:SSZ, for example \
                         2026-03-01T00:00:00Z (you entered \"{value}\")."
                    ),
                );
            }
        }
    }

    /// A whole number of at least zero, given as text or digits.
    pub fn whole_number(&mut self, field: &str, value: Option<&str>) {
        if let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) {
            if value.parse::<u64>().is_err() {
                self.add(
                    field,
                    format!("Enter a whole number of 0 or more (you entered \"{value}\")."),
                );
            }
        }
    }

    pub fn finish(self) -> Result<(), Vec<FieldError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }
}

/// What a day that is not `YYYY-MM-DD` is told, in every form that takes one.
pub fn day_message(entered: &str) -> String {
    format!("Write the date as YYYY-MM-DD, for example 2026-03-01 (you entered \"{entered}\").")
}

/// A real day written `YYYY-MM-DD`, and nothing else.
pub fn parse_day(value: &str) -> Option<chrono::NaiveDate> {
    (value.len() == 10)
        .then(|| chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").ok())
        .flatten()
}

pub(crate) fn parse_instant(value: &str) -> Option<chrono::NaiveDateTime> {
    (value.len() == 20)
        .then(|| chrono::NaiveDateTime::parse_from_str(value, "%Y-%m-%dT%H:%M:%SZ").ok())
        .flatten()
}
