//! The one case-folding rule for what the analysis counts and filters by: hashtags, mentions,
//! cashtags, handles (a post's author, whom it answers or quotes, who reposted it) and linked
//! hosts. `#Élections`, `#élections` and `#ÉLECTIONS` are one tag, in any script.
//!
//! The rule is [`fold`] (Unicode lower case, as Rust's `str::to_lowercase`), and it is applied in
//! two places that must agree: in Rust, to what the user filters by; and in SQL, where the
//! triggers of migrations 0008/0011 take a post's entities out of its JSON as it is written.
//! SQLite's own `lower()` folds ASCII letters only (it leaves `É` as it is), so the SQL side
//! calls [`fold`] itself, through the function [`SQL_FUNCTION`], registered on every connection
//! the store opens ([`register`]). Folding in Rust before the write was the other way; it would
//! have moved the extraction of every entity out of the triggers into the write path, and an
//! archive stored before would still have needed a pass in SQL to refold.
//!
//! A connection without the function (another program's, opening the file) can read everything,
//! but cannot store a post: the triggers would name a function it does not know.

use std::ffi::{c_int, CStr};

use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;

use crate::sql_function;

/// The SQL name of [`fold`], as the migrations call it.
pub const SQL_FUNCTION: &CStr = c"sightline_fold";

/// A tag, handle or host as stored and compared: in lower case, by Unicode's rules.
pub fn fold(value: &str) -> String {
    value.to_lowercase()
}

/// Registers [`SQL_FUNCTION`] on `conn`.
pub async fn register(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    sql_function::register(conn, SQL_FUNCTION, 1, fold_sql).await
}

/// `sightline_fold(x)`: NULL for NULL, else [`fold`] of `x` as text (a value that is not valid
/// UTF-8 is folded with its invalid bytes replaced).
unsafe extern "C" fn fold_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite passes `argc` (1, as registered) valid values in `argv`, and a text pointer
    // with its length in bytes that stays valid until the next call on that value; the result
    // is copied by SQLite (SQLITE_TRANSIENT) before `folded` is dropped.
    unsafe {
        if argc != 1 {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        let value = *argv;
        if ffi::sqlite3_value_type(value) == ffi::SQLITE_NULL {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        let text = ffi::sqlite3_value_text(value);
        let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
        let bytes = if text.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(text, len)
        };
        let folded = fold(&String::from_utf8_lossy(bytes));
        sql_function::result_text(ctx, Some(&folded));
    }
}

#[cfg(test)]
mod tests;
