//! Paging by key, the one rule the lists that page share: a page is the rows after the last
//! row of the page before, found by its sort time and id in the index the list is ordered by,
//! so page 10,000 costs what page 1 does. `OFFSET` only when there is no such row (the list
//! opened at a far page, or the row before deleted).

use sqlx::sqlite::SqliteRow;
use sqlx::{Encode, FromRow, QueryBuilder, Sqlite, SqlitePool, Type};

use crate::error::Result;

/// The key a page starts after: what `sql` (its one parameter the row's id) reads for the
/// row `after`, the last of the page before; `None` for a first page, or when that row is
/// gone (the offset places the page then).
pub(crate) async fn key_of<'q, K, A>(
    pool: &SqlitePool,
    sql: &'q str,
    after: Option<A>,
) -> Result<Option<K>>
where
    K: for<'r> FromRow<'r, SqliteRow> + Send + Unpin,
    A: 'q + Encode<'q, Sqlite> + Type<Sqlite> + Send,
{
    let Some(after) = after else {
        return Ok(None);
    };
    Ok(sqlx::query_as(sql).bind(after).fetch_optional(pool).await?)
}

/// Ends a list's inner query of ids and closes it: the page of [`push_newest_rows`]; the
/// outer query in the same order.
pub(crate) fn push_newest_page(
    sql: &mut QueryBuilder<'_, Sqlite>,
    (time, id): (&str, &str),
    key: Option<(i64, i64)>,
    limit: u32,
    offset: u32,
) {
    push_newest_rows(sql, (time, id), key, limit.into(), offset.into());
    sql.push(format!(") ORDER BY {time} DESC, {id} DESC"));
}

/// Ends a list's query with its page: the rows after `key` (the last row's `time` and `id`
/// columns' values) when there is one, else after skipping `offset`; newest first by
/// `(time, id)`, at most `limit`.
pub(crate) fn push_newest_rows<'args, Id>(
    sql: &mut QueryBuilder<'args, Sqlite>,
    (time, id): (&str, &str),
    key: Option<(i64, Id)>,
    limit: i64,
    offset: i64,
) where
    Id: 'args + Encode<'args, Sqlite> + Type<Sqlite>,
{
    let keyed = key.is_some();
    if let Some(key) = key {
        push_older_than(sql, (time, id), key);
    }
    sql.push(format!(" ORDER BY {time} DESC, {id} DESC LIMIT "));
    sql.push_bind(limit);
    sql.push(" OFFSET ");
    sql.push_bind(if keyed { 0 } else { offset });
}

/// Ends a list's query with its page in the order an index on `time` alone lists the rows,
/// ties in the order they were stored: newest first is `time DESC, id ASC`, oldest first
/// `time ASC, id DESC` (so no sort beside the index). The rows after `key` when there is one,
/// else after skipping `offset`; at most `limit`.
pub(crate) fn push_page_in_time_index(
    sql: &mut QueryBuilder<'_, Sqlite>,
    (time, id): (&str, &str),
    key: Option<(i64, i64)>,
    newest_first: bool,
    limit: i64,
    offset: u32,
) {
    if let Some(key) = key {
        push_after_in_time_index(sql, (time, id), key, newest_first);
    }
    sql.push(if newest_first {
        format!(" ORDER BY {time} DESC, {id} ASC LIMIT ")
    } else {
        format!(" ORDER BY {time} ASC, {id} DESC LIMIT ")
    })
    .push_bind(limit)
    .push(" OFFSET ")
    .push_bind(if key.is_some() { 0 } else { i64::from(offset) });
}

/// Adds the condition for the rows after `key` (the last row's `time` and `id` values) in an
/// order that sorts `time` one way and ties by `id` the other, as an index on `time` alone
/// lists them (its ties in rowid order): newest first is `time DESC, id ASC`, oldest first
/// `time ASC, id DESC`. The bound on `time` alone comes first so the index starts at the key.
fn push_after_in_time_index(
    sql: &mut QueryBuilder<'_, Sqlite>,
    (time, id): (&str, &str),
    (key_time, key_id): (i64, i64),
    newest_first: bool,
) {
    let (bound, past, tie) = if newest_first {
        ("<=", "<", ">")
    } else {
        (">=", ">", "<")
    };
    sql.push(format!(" AND {time} {bound} "))
        .push_bind(key_time)
        .push(format!(" AND ({time} {past} "))
        .push_bind(key_time)
        .push(format!(" OR {id} {tie} "))
        .push_bind(key_id)
        .push(")");
}

/// Adds the condition for the rows after `key` (the last row's `time` and `id` values) in the
/// order newest first by `(time, id)`, both descending; `id` may be a number or text. As one
/// row value, an index on `(time, id)` starts right at the key.
fn push_older_than<'args, Id>(
    sql: &mut QueryBuilder<'args, Sqlite>,
    (time, id): (&str, &str),
    (key_time, key_id): (i64, Id),
) where
    Id: 'args + Encode<'args, Sqlite> + Type<Sqlite>,
{
    sql.push(format!(" AND ({time}, {id}) < ("))
        .push_bind(key_time)
        .push(", ")
        .push_bind(key_id)
        .push(")");
}
