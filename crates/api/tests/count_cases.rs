//! Counts in words: every case of `fixtures/count-cases.json` through `count_of`. The UI's
//! `countOf` runs the same table (ui/src/lib/format.test.ts).

use serde::Deserialize;
use sightline_api::words::count_of;

#[derive(Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    count: u64,
    one: String,
    many: String,
    says: String,
}

#[test]
fn every_count_meets_its_noun_as_the_ui_says_it() {
    let table: Table = serde_json::from_str(include_str!("fixtures/count-cases.json"))
        .expect("count-cases.json is a table of cases");
    assert!(!table.cases.is_empty());
    for case in table.cases {
        assert_eq!(count_of(case.count, &case.one, &case.many), case.says);
    }
}
