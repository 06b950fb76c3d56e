//! State words as stored. A state enum's serde name (snake_case) is its one spelling: in the
//! database, across IPC and in its TypeScript twin alike. [`stored_as_word!`] lets such an
//! enum be bound to and read from a query as it is; a word the store does not know is an
//! error when read, never taken for another state.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::StoreError;

/// The word `value` is stored as: its serde name.
pub fn word<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(word)) => word,
        other => unreachable!("a state enum serializes to a word, not {other:?}"),
    }
}

/// The state `text` names, strictly.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).map_err(|_| {
        StoreError::InvalidInput(format!(
            "unknown {} {text:?}",
            std::any::type_name::<T>()
                .rsplit("::")
                .next()
                .unwrap_or("state")
        ))
    })
}

/// Binds and reads the enums named as their [`word`].
macro_rules! stored_as_word {
    ($($name:ty),+ $(,)?) => {$(
        impl sqlx::Type<sqlx::Sqlite> for $name {
            fn type_info() -> sqlx::sqlite::SqliteTypeInfo {
                <String as sqlx::Type<sqlx::Sqlite>>::type_info()
            }

            fn compatible(ty: &sqlx::sqlite::SqliteTypeInfo) -> bool {
                <String as sqlx::Type<sqlx::Sqlite>>::compatible(ty)
            }
        }

        impl<'q> sqlx::Encode<'q, sqlx::Sqlite> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut <sqlx::Sqlite as sqlx::Database>::ArgumentBuffer<'q>,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <String as sqlx::Encode<'q, sqlx::Sqlite>>::encode($crate::words::word(self), buf)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Sqlite> for $name {
            fn decode(
                value: sqlx::sqlite::SqliteValueRef<'r>,
            ) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <&str as sqlx::Decode<'r, sqlx::Sqlite>>::decode(value)?;
                Ok($crate::words::parse(text)?)
            }
        }
    )+};
}

pub(crate) use stored_as_word;

#[cfg(test)]
mod tests {
    use super::{parse, word};
    use crate::{CollectionState, RunOutcome};

    #[test]
    fn a_word_is_its_serde_name_and_an_unknown_one_is_refused() {
        assert_eq!(word(&RunOutcome::BudgetBlocked), "budget_blocked");
        assert_eq!(
            parse::<CollectionState>("stopped_by_budget").unwrap(),
            CollectionState::StoppedByBudget
        );
        // Read strictly: a misspelt word is an error, never some other state.
        let error = parse::<RunOutcome>("pasued").unwrap_err();
        assert!(error.to_string().contains("RunOutcome"), "{error}");
    }
}
