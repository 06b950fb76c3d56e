//! Paging by key, the one rule the lists that page share: a page is the rows after the last
//! row of the page before, found by its sort time and id in the index the list is ordered by,
//! so page 10,000 costs what page 1 does. `OFFSET` only when there is no such row (the list
//! opened at a far page, or the row before deleted).

use sqlx::{QueryBuilder, Sqlite};

/// Ends a list's inner query of ids and closes it: the rows after `key` (the last row's
/// `time` and `id` columns' values) when there is one, else after skipping `offset`; newest
/// first by `(time, id)`, at most `limit`; the outer query in the same order.
pub(crate) fn push_newest_page(
    sql: &mut QueryBuilder<'_, Sqlite>,
    (time, id): (&str, &str),
    key: Option<(i64, i64)>,
    limit: u32,
    offset: u32,
) {
    if let Some((key_time, key_id)) = key {
        sql.push(format!(" AND ({time}, {id}) < ("))
            .push_bind(key_time)
            .push(", ")
            .push_bind(key_id)
            .push(")");
    }
    sql.push(format!(" ORDER BY {time} DESC, {id} DESC LIMIT "));
    sql.push_bind(i64::from(limit));
    sql.push(" OFFSET ");
    sql.push_bind(i64::from(if key.is_some() { 0 } else { offset }));
    sql.push(format!(") ORDER BY {time} DESC, {id} DESC"));
}
