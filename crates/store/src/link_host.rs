//! The one rule for a link's host, as the analysis counts linked sites (entities of kind 4): the
//! part after `scheme://` and before the first `/`, `?`, `#` or `:port`, folded ([`fold`]) and
//! without a leading `www.`. `https://WWW.Example.org:8080/a?b` is `example.org`.
//!
//! Migrations 0008 and 0011 spelt it in SQL, as a chain of one-value `json_each` calls standing in
//! for variables; that chain was half of what storing a post's entities cost (about 50 µs of each
//! post with a link, measured on the import bench), so since migration 0027 the entities' view
//! calls this function instead, through [`SQL_FUNCTION`], registered on every connection the store
//! opens. The result is the same for every link (tested against the old SQL).

use std::ffi::{c_int, CStr};

use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;

use crate::fold::fold;
use crate::sql_function;

/// The SQL name of [`link_host`], as migration 0027 calls it.
pub const SQL_FUNCTION: &CStr = c"sightline_link_host";

/// The subtype SQLite's JSON functions give a value that is JSON (an object or array taken out
/// of a document), not a string.
const JSON_SUBTYPE: std::ffi::c_uint = 74;

/// A link's host as the analysis counts it (may be empty, for a link with none).
pub fn link_host(link: &str) -> String {
    let rest = link.split_once("://").map_or(link, |(_, rest)| rest);
    let host = fold(rest.split(['/', '?', '#', ':']).next().unwrap_or_default());
    match host.strip_prefix("www.") {
        Some(bare) => bare.to_owned(),
        None => host,
    }
}

/// Registers [`SQL_FUNCTION`] on `conn`.
pub async fn register(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    sql_function::register(conn, SQL_FUNCTION, 1, link_host_sql).await
}

/// `sightline_link_host(x)`: [`link_host`] of `x` when it is text; NULL for anything else (a
/// link given as a number, JSON object or array, or missing is no link, as the old SQL's
/// `type = 'text'` had it).
unsafe extern "C" fn link_host_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite passes `argc` (1, as registered) valid values in `argv`, and a text pointer
    // with its length in bytes that stays valid until the next call on that value; the result
    // is copied by SQLite (SQLITE_TRANSIENT) before `host` is dropped.
    unsafe {
        if argc != 1
            || ffi::sqlite3_value_type(*argv) != ffi::SQLITE_TEXT
            || ffi::sqlite3_value_subtype(*argv) == JSON_SUBTYPE
        {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        let text = ffi::sqlite3_value_text(*argv);
        let len = usize::try_from(ffi::sqlite3_value_bytes(*argv)).unwrap_or(0);
        let bytes = if text.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(text, len)
        };
        let host = link_host(&String::from_utf8_lossy(bytes));
        sql_function::result_text(ctx, Some(&host));
    }
}

#[cfg(test)]
mod tests;
