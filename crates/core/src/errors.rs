//! The one error every command returns: a stable kind for the UI to branch on, a sentence a
//! non-programmer understands, and the details the screen needs (fields, wait, budget numbers).
//! Built only from messages that never contain the key.

use serde::Serialize;
use sightline_api::{ApiError, ErrorPayload, FieldError};
use sightline_store::{BudgetCheck, StoreError};
use ts_rs::TS;

/// What a request or a write answers while the database is open read-only.
pub const READ_ONLY: &str = "Sightline opened this archive read-only, so it can show what is \
    stored but cannot send a request or save anything. Close Sightline and open it again to \
    choose another way on its start screen.";

#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
/// What an operation that failed tells the UI: its kind (the `kind` tag the screens branch on)
/// and a plain sentence, with the details the screen needs.
pub enum CommandError {
    /// The input breaks a rule: nothing was sent or billed. Each field error names its field.
    Invalid {
        /// The sentence shown: the one field's problem, or how many fields need changing.
        message: String,
        /// Each broken rule, by the field it is about.
        fields: Vec<FieldError>,
    },
    /// The service, the network or the stream failed; `error.kind` says which.
    Service {
        /// The service's or the network's failure in words.
        message: String,
        /// The failure's kind, status, wait and request id, for the screen to act on.
        error: Box<ErrorPayload>,
    },
    /// The budget forbids this request.
    BudgetBlocked {
        /// Which limit the request would pass, in words.
        message: String,
        /// The limits, the spend so far and the request's estimate, for the banner.
        check: Box<BudgetCheck>,
    },
    /// The request would pass a warning threshold: send again with `confirmBudget` to proceed.
    BudgetWarning {
        /// Which threshold the request would pass, in words.
        message: String,
        /// The limits, the spend so far and the request's estimate, for the confirmation.
        check: Box<BudgetCheck>,
    },
    /// No key is stored, or the keychain could not be read.
    Keychain {
        /// What is missing or what the keychain said.
        message: String,
    },
    /// The live service's address is not set.
    NotConfigured {
        /// What is not set, and where to set it.
        message: String,
    },
    /// The history entry, key or file asked for does not exist.
    NotFound {
        /// What was not found, in words.
        message: String,
    },
    /// The disk is full: free some space. Nothing saved earlier was lost.
    DiskFull {
        /// What could not be written, and that earlier work is safe.
        message: String,
    },
    /// The archive is open for reading only (from a newer Sightline, or damaged): nothing can
    /// be saved until the start screen's choice is made.
    ReadOnly {
        /// Always [`READ_ONLY`].
        message: String,
    },
    /// The local database failed, or a record in it could not be read.
    Database {
        /// What failed, in words.
        message: String,
    },
    /// A file or folder the user named or chose (an export folder, a bundle, the settings
    /// file) could not be read or written: choose another, or fix its permissions.
    File {
        /// Which file or folder, and what went wrong with it.
        message: String,
    },
    /// Another program Sightline hands over to (the browser, the file manager) could not be
    /// started.
    System {
        /// Which program could not be started.
        message: String,
    },
    /// A fault inside Sightline (a task that stopped, the demo service that would not start):
    /// the log folder says what happened.
    Internal {
        /// What failed, and that the log folder has the details.
        message: String,
    },
}

impl CommandError {
    /// The sentence the UI shows, whatever the kind.
    pub fn message(&self) -> &str {
        match self {
            Self::Invalid { message, .. }
            | Self::Service { message, .. }
            | Self::BudgetBlocked { message, .. }
            | Self::BudgetWarning { message, .. }
            | Self::Keychain { message }
            | Self::NotConfigured { message }
            | Self::NotFound { message }
            | Self::DiskFull { message }
            | Self::ReadOnly { message }
            | Self::Database { message }
            | Self::File { message }
            | Self::System { message }
            | Self::Internal { message } => message,
        }
    }

    /// Refuses input: one field's problem in the sentence, or how many fields need changing.
    pub fn invalid(fields: Vec<FieldError>) -> Self {
        let message = match fields.as_slice() {
            [only] => format!("Check {}: {}", only.field, only.message),
            _ => format!(
                "{} fields need changing before this can be sent.",
                fields.len()
            ),
        };
        Self::Invalid { message, fields }
    }

    /// Something asked for is gone (deleted, or never there); `what` says which, in words.
    pub fn not_found(what: impl Into<String>) -> Self {
        Self::NotFound {
            message: what.into(),
        }
    }

    /// The local database failed, or a record in it could not be read.
    pub fn database(message: impl Into<String>) -> Self {
        Self::Database {
            message: message.into(),
        }
    }

    /// A file or folder could not be used; a full disk is said as such.
    pub fn file(message: impl Into<String>) -> Self {
        Self::File {
            message: message.into(),
        }
    }

    /// A file or folder could not be used because of `error`: a full disk is said as such.
    pub fn io(error: &std::io::Error, message: impl Into<String>) -> Self {
        if error.kind() == std::io::ErrorKind::StorageFull {
            Self::disk_full()
        } else {
            Self::file(message)
        }
    }

    /// The disk is full; what to do about it.
    pub fn disk_full() -> Self {
        Self::DiskFull {
            message: "The disk is full, so Sightline could not save. Free some space, then try \
                      again. Nothing saved earlier was lost."
                .into(),
        }
    }

    /// The browser or the file manager could not be started.
    pub fn system(message: impl Into<String>) -> Self {
        Self::System {
            message: message.into(),
        }
    }

    /// A fault inside Sightline.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::Internal {
            message: message.into(),
        }
    }

    /// The error class written to history for failures that never reached the service.
    pub fn class(&self) -> String {
        match self {
            Self::Service { error, .. } => error.kind.as_str().to_owned(),
            Self::Invalid { .. } => "validation".into(),
            Self::BudgetBlocked { .. } => "budget_blocked".into(),
            Self::BudgetWarning { .. } => "budget_warning".into(),
            Self::Keychain { .. } => "keychain".into(),
            Self::NotConfigured { .. } => "not_configured".into(),
            Self::NotFound { .. } => "not_found".into(),
            Self::DiskFull { .. } => "disk_full".into(),
            Self::ReadOnly { .. } => "read_only".into(),
            Self::Database { .. } => "database".into(),
            Self::File { .. } => "file".into(),
            Self::System { .. } => "system".into(),
            Self::Internal { .. } => "internal".into(),
        }
    }

    /// The HTTP status the service answered with, when it answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Service { error, .. } => error.status,
            _ => None,
        }
    }
}

impl From<ApiError> for CommandError {
    fn from(error: ApiError) -> Self {
        match error {
            ApiError::Validation { fields } => Self::invalid(fields),
            other => {
                let error = other.payload();
                Self::Service {
                    message: error.message.clone(),
                    error: Box::new(error),
                }
            }
        }
    }
}

impl From<StoreError> for CommandError {
    fn from(error: StoreError) -> Self {
        match error {
            // A value the store refuses (a negative budget, say) is the user's to fix.
            StoreError::InvalidInput(reason) => Self::Invalid {
                message: format!("This cannot be saved: {reason}."),
                fields: Vec::new(),
            },
            full if full.is_disk_full() => Self::disk_full(),
            read_only if read_only.is_read_only() => Self::ReadOnly {
                message: READ_ONLY.into(),
            },
            other => Self::database(format!(
                "Sightline could not use its local database: {other}. Your earlier history is untouched."
            )),
        }
    }
}

impl From<crate::keychain::SecretError> for CommandError {
    fn from(error: crate::keychain::SecretError) -> Self {
        Self::Keychain {
            message: error.to_string(),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CommandError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_named_and_the_fix_given() {
        let full = StoreError::Io(std::io::Error::from(std::io::ErrorKind::StorageFull));
        let error = CommandError::from(full);
        assert_eq!(error.class(), "disk_full");
        assert!(error.message().starts_with("The disk is full"), "{error}");
        assert!(error.message().contains("Free some space"));
    }

    #[test]
    fn each_local_failure_is_a_kind_the_user_can_act_on() {
        let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert_eq!(CommandError::io(&full, "unused").class(), "disk_full");
        let file = CommandError::io(&denied, "The folder /x cannot be written.");
        assert_eq!(file.class(), "file");
        assert_eq!(file.message(), "The folder /x cannot be written.");
        let json = serde_json::to_value(CommandError::from(StoreError::Io(denied))).unwrap();
        assert_eq!(json["kind"], "database");
        for (error, kind) in [
            (CommandError::system("no browser"), "system"),
            (CommandError::internal("a task stopped"), "internal"),
        ] {
            assert_eq!(serde_json::to_value(&error).unwrap()["kind"], kind);
            assert_eq!(error.class(), kind);
        }
    }

    #[test]
    fn validation_from_the_service_names_the_fields() {
        let error = CommandError::from(ApiError::Validation {
            fields: vec![FieldError::new("count", "Choose between 1 and 100.")],
        });
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["kind"], "invalid");
        assert_eq!(json["fields"][0]["field"], "count");
        assert_eq!(json["message"], "Check count: Choose between 1 and 100.");
    }

    #[test]
    fn values_the_store_refuses_are_the_users_to_fix() {
        let error = CommandError::from(StoreError::InvalidInput(
            "a budget limit cannot be negative".into(),
        ));
        assert_eq!(error.class(), "validation");
        assert!(error.message().contains("cannot be negative"), "{error}");
    }

    #[test]
    fn service_errors_keep_their_class_and_plain_message() {
        let error = CommandError::from(ApiError::RateLimited {
            retry_after: Some(std::time::Duration::from_secs(30)),
        });
        assert_eq!(error.class(), "rate_limited");
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["kind"], "service");
        assert_eq!(json["error"]["retry_after_secs"], 30);
    }
}
