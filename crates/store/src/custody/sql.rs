//! [`super::entry_hash`] as the SQL function `sightline_custody_hash(prev_hash, seq, at,
//! collector, action, ids, detail)` (`ids` the stored JSON array), registered on every
//! connection the store opens: migration 0014 hashes the first entry of each investigation made
//! before logs were kept with it, and the table's insert trigger checks every entry's hash with
//! it. A connection without it (another program's) can read the log but not add to it.

use std::ffi::c_int;

use libsqlite3_sys as ffi;
use sha2::{Digest, Sha256};
use sqlx::SqliteConnection;

use crate::sql_function;

/// Registers `sightline_custody_hash` on `conn`.
pub(crate) async fn register(conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
    sql_function::register(conn, c"sightline_custody_hash", 7, hash_sql).await
}

/// One argument as text (NULL and invalid UTF-8 give `None`).
///
/// SAFETY: `value` is a valid argument SQLite passed to the current call.
unsafe fn text(value: *mut ffi::sqlite3_value) -> Option<String> {
    // SAFETY: see the function's contract; the pointer and length SQLite returns stay valid
    // until the next call on `value`, and are copied at once.
    unsafe {
        if ffi::sqlite3_value_type(value) == ffi::SQLITE_NULL {
            return None;
        }
        let bytes = ffi::sqlite3_value_text(value);
        let len = usize::try_from(ffi::sqlite3_value_bytes(value)).ok()?;
        if bytes.is_null() {
            return Some(String::new());
        }
        String::from_utf8(std::slice::from_raw_parts(bytes, len).to_vec()).ok()
    }
}

/// One argument as an integer (`None` unless SQLite holds an integer).
///
/// SAFETY: `value` is a valid argument SQLite passed to the current call.
unsafe fn integer(value: *mut ffi::sqlite3_value) -> Option<i64> {
    // SAFETY: see the function's contract.
    unsafe {
        (ffi::sqlite3_value_type(value) == ffi::SQLITE_INTEGER)
            .then(|| ffi::sqlite3_value_int64(value))
    }
}

/// The hash, or `None` when an argument is missing or of the wrong type, or `ids` is not a
/// JSON array of texts: then SQL gets NULL, which no stored hash equals.
fn hash_of(args: [Option<Field>; 7]) -> Option<String> {
    let [prev, seq, at, collector, action, ids, detail] = args;
    let ids: Vec<String> = serde_json::from_str(&ids?.text()?).ok()?;
    let bytes = super::canonical(
        &prev?.text()?,
        seq?.integer()?,
        at?.integer()?,
        &collector?.text()?,
        &action?.text()?,
        &ids,
        &detail?.text()?,
    );
    Some(super::hex(&Sha256::digest(bytes)))
}

enum Field {
    Text(String),
    Integer(i64),
}

impl Field {
    fn text(self) -> Option<String> {
        match self {
            Self::Text(text) => Some(text),
            Self::Integer(_) => None,
        }
    }

    fn integer(self) -> Option<i64> {
        match self {
            Self::Integer(value) => Some(value),
            Self::Text(_) => None,
        }
    }
}

unsafe extern "C" fn hash_sql(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite passes `argc` (7, as registered) valid values in `argv`; the result is
    // copied by SQLite (SQLITE_TRANSIENT) before `hash` is dropped.
    unsafe {
        if argc != 7 {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        let arg = |index: usize| *argv.add(index);
        let as_text = |index: usize| text(arg(index)).map(Field::Text);
        let as_integer = |index: usize| integer(arg(index)).map(Field::Integer);
        let hash = hash_of([
            as_text(0),
            as_integer(1),
            as_integer(2),
            as_text(3),
            as_text(4),
            as_text(5),
            as_text(6),
        ]);
        sql_function::result_text(ctx, hash.as_deref());
    }
}
