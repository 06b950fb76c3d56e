//! What the store's own SQL functions share: registering one on a connection, and handing
//! SQLite a text result. Used by the folding rule (`fold.rs`) and the custody log's hash
//! (`custody/sql.rs`); each is deterministic and free of side effects, so the schema's
//! triggers may call it.

use std::ffi::{c_char, c_int, CStr};

use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;

/// A scalar function as SQLite calls it: the call's context and its arguments.
pub(crate) type ScalarFunction =
    unsafe extern "C" fn(*mut ffi::sqlite3_context, c_int, *mut *mut ffi::sqlite3_value);

/// Registers `function` on `conn` as `name`, taking `args` arguments: UTF-8, deterministic and
/// innocuous, so the schema's triggers may call it.
pub(crate) async fn register(
    conn: &mut SqliteConnection,
    name: &'static CStr,
    args: c_int,
    function: ScalarFunction,
) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    let flags = ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC | ffi::SQLITE_INNOCUOUS;
    // SAFETY: `db` is this connection's open handle, held locked for the call; the name is a
    // NUL-terminated static string; `function` has the signature SQLite calls, and no user data
    // or destructor is passed.
    let code = unsafe {
        ffi::sqlite3_create_function_v2(
            db,
            name.as_ptr(),
            args,
            flags,
            std::ptr::null_mut(),
            Some(function),
            None,
            None,
            None,
        )
    };
    if code == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(sqlx::Error::Configuration(
            format!(
                "SQLite refused the function {} (code {code})",
                name.to_string_lossy()
            )
            .into(),
        ))
    }
}

/// Sets the current call's result: `text` (SQLite copies it before this returns), or NULL
/// for `None`; a text too long for SQLite is its "too big" error.
///
/// SAFETY: `ctx` is the context SQLite passed to the current call.
pub(crate) unsafe fn result_text(ctx: *mut ffi::sqlite3_context, text: Option<&str>) {
    // SAFETY: see the function's contract; SQLITE_TRANSIENT makes SQLite copy the bytes.
    unsafe {
        match text.map(|text| (text, c_int::try_from(text.len()))) {
            Some((text, Ok(len))) => ffi::sqlite3_result_text(
                ctx,
                text.as_ptr().cast::<c_char>(),
                len,
                ffi::SQLITE_TRANSIENT(),
            ),
            Some((_, Err(_))) => ffi::sqlite3_result_error_toobig(ctx),
            None => ffi::sqlite3_result_null(ctx),
        }
    }
}
