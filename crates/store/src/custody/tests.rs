//! The chain rule and its checks; the table's triggers and appends in
//! `log_tests.rs`.

use super::*;

fn chain(details: &[&str]) -> Vec<CustodyEntry> {
    let mut entries: Vec<CustodyEntry> = Vec::new();
    for (index, detail) in details.iter().enumerate() {
        let mut entry = CustodyEntry {
            seq: index as i64 + 1,
            at: 1_764_277_200_000 + index as i64,
            collector: "Jane Doe".into(),
            action: CustodyAction::PostAdded,
            ids: vec![format!("post:179000000000000000{index}")],
            detail: (*detail).into(),
            prev_hash: entries
                .last()
                .map_or(GENESIS_HASH.to_owned(), |e| e.hash.clone()),
            hash: String::new(),
        };
        entry.hash = entry_hash(&entry);
        entries.push(entry);
    }
    entries
}

#[test]
fn an_intact_chain_is_unbroken_with_its_head() {
    let entries = chain(&["a", "b", "c"]);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Unbroken {
            head_hash: entries[2].hash.clone(),
            count: 3
        }
    );
    assert_eq!(
        check_chain(&[]),
        ChainCheck::Unbroken {
            head_hash: GENESIS_HASH.into(),
            count: 0
        }
    );
}

#[test]
fn a_removed_entry_breaks_the_chain_at_that_entry() {
    let mut entries = chain(&["a", "b", "c", "d"]);
    entries.remove(1);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 2,
            why: ChainBreak::Missing
        }
    );
    // The first removed: the log does not start at 1.
    let mut entries = chain(&["a", "b"]);
    entries.remove(0);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 1,
            why: ChainBreak::Missing
        }
    );
}

#[test]
fn a_removed_entry_with_the_rest_renumbered_breaks_at_the_renumbered_one() {
    let mut entries = chain(&["a", "b", "c"]);
    entries.remove(1);
    entries[1].seq = 2;
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 2,
            why: ChainBreak::Edited
        }
    );
}

#[test]
fn an_edited_detail_breaks_the_chain_at_that_entry() {
    let mut entries = chain(&["a", "b", "c"]);
    entries[1].detail = "B".into();
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 2,
            why: ChainBreak::Edited
        }
    );
    // Rewritten with a hash of its own: the next entry no longer links to it.
    entries[1].hash = entry_hash(&entries[1]);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 3,
            why: ChainBreak::Unlinked
        }
    );
}

#[test]
fn every_field_is_under_the_hash() {
    let base = chain(&["a"]);
    let edits: [fn(&mut CustodyEntry); 6] = [
        |e| e.at += 1,
        |e| e.collector.push('x'),
        |e| e.action = CustodyAction::PostRemoved,
        |e| e.ids.push("post:1".into()),
        |e| e.detail.push('x'),
        |e| e.prev_hash = "1".repeat(64),
    ];
    for edit in edits {
        let mut entries = base.clone();
        edit(&mut entries[0]);
        assert!(!check_chain(&entries).is_unbroken(), "{:?}", entries[0]);
    }
}

#[test]
fn reordered_entries_break_the_chain() {
    let mut entries = chain(&["a", "b", "c", "d"]);
    entries.swap(1, 2);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 2,
            why: ChainBreak::Reordered
        }
    );
    let mut entries = chain(&["a", "b", "c"]);
    let copy = entries[1].clone();
    entries.insert(2, copy);
    assert_eq!(
        check_chain(&entries),
        ChainCheck::Broken {
            at_seq: 3,
            why: ChainBreak::Reordered
        }
    );
}

#[test]
fn the_canonical_form_is_the_compact_json_array_the_rule_describes() {
    let entry = CustodyEntry {
        seq: 2,
        at: 1_764_277_200_123,
        collector: "Zoë \"Z\" O\\Brien".into(),
        action: CustodyAction::TagAdded,
        ids: vec!["post:1790000000000000001".into()],
        detail: "tag “élections”".into(),
        prev_hash: GENESIS_HASH.into(),
        hash: String::new(),
    };
    let text = String::from_utf8(canonical_bytes(&entry)).unwrap();
    assert_eq!(
        text,
        format!(
            r#"["{GENESIS_HASH}",2,1764277200123,"Zoë \"Z\" O\\Brien","tag_added",["post:1790000000000000001"],"tag “élections”"]"#
        )
    );
    // SHA-256 as sha256sum prints it.
    assert_eq!(entry_hash(&entry), hex(&Sha256::digest(text.as_bytes())));
    assert_eq!(entry_hash(&entry).len(), 64);
}

#[test]
fn jsonl_round_trips_and_refuses_what_is_not_an_entry() {
    let entries = chain(&["a", "b"]);
    let text = to_jsonl(&entries);
    assert_eq!(text.lines().count(), 2);
    assert!(text.ends_with('\n'));
    assert_eq!(from_jsonl(&text).unwrap(), entries);
    let extra = text.replacen("\"seq\":1", "\"seq\":1,\"extra\":0", 1);
    assert!(from_jsonl(&extra).unwrap_err().contains("line 1"));
    let unknown = text.replacen("post_added", "post_eaten", 1);
    assert!(from_jsonl(&unknown).is_err());
}

#[test]
fn every_action_word_round_trips() {
    for action in CustodyAction::ALL {
        assert_eq!(CustodyAction::parse(action.as_str()), Some(action));
        assert_eq!(
            serde_json::to_string(&action).unwrap(),
            format!("\"{}\"", action.as_str())
        );
    }
}
