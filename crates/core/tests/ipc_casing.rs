//! The README's one casing rule across IPC, held over every TypeScript binding ts-rs writes
//! (ui/src/lib/bindings): a type defined in `crates/core` or `src-tauri` (made for the window)
//! has camelCase fields; a type of `crates/api` or `crates/store` keeps its Rust snake_case
//! names. Each binding's type is found by name in the workspace's sources to learn its crate,
//! so a new type, or a `rename_all` added or left out, cannot break the rule silently.
//!
//! The bindings are the ones the unit tests of this crate and of the store write when
//! `cargo test` runs (and `make test` fails when the committed ones are stale).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Where a type is defined, as the rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// `crates/api`, `crates/store`: snake_case, the service's and the database's names.
    Data,
    /// `crates/core`, `src-tauri`: camelCase, made for the window.
    Window,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The attributes and doc lines right above line `at`, back to the end of the item before.
fn attributes_above(lines: &[&str], at: usize) -> String {
    let mut above = Vec::new();
    for line in lines[..at].iter().rev() {
        let t = line.trim();
        let comment = t.starts_with("//");
        if !comment && (t.ends_with('}') || t.ends_with(';') || t.ends_with('{')) {
            break;
        }
        above.push(t);
    }
    above.reverse();
    above.join(" ")
}

/// `pub struct Name` / `pub(crate) enum Name<T>` → `Name`.
fn item_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(after) = rest.strip_prefix("pub") {
        rest = after.trim_start();
        if rest.starts_with('(') {
            rest = rest[rest.find(')')? + 1..].trim_start();
        }
    }
    let rest = rest
        .strip_prefix("struct ")
        .or_else(|| rest.strip_prefix("enum "))?;
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_alphanumeric() || c == '_' || (i == 0 && c == '$')))
        .map_or(rest.len(), |(i, _)| i);
    Some(&rest[..end])
}

/// The type a macro call such as `wire_enum!(/// doc\n Name { … } …)` names: the first word
/// after the call's doc lines and attributes.
fn macro_call_name<'t>(lines: &[&'t str], call: usize) -> Option<&'t str> {
    let first = lines[call]
        .split_once("!(")
        .map_or("", |(_, rest)| rest)
        .trim();
    std::iter::once(first)
        .chain(lines[call + 1..].iter().map(|line| line.trim()))
        .find(|line| !line.is_empty() && !line.starts_with("//") && !line.starts_with("#["))
        .and_then(|line| {
            line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
        })
        .filter(|word| !word.is_empty())
}

fn derives_ts(attributes: &str) -> bool {
    attributes.split("derive(").skip(1).any(|derive| {
        let list = &derive[..derive.find(')').unwrap_or(derive.len())];
        list.split(',').any(|name| name.trim() == "TS")
    })
}

/// Every type that derives `TS` in the workspace, with the side of the rule its crate is on.
fn ts_types() -> BTreeMap<String, Vec<(Side, PathBuf)>> {
    let root = root();
    let mut types: BTreeMap<String, Vec<(Side, PathBuf)>> = BTreeMap::new();
    for (dir, side) in [
        ("crates/api/src", Side::Data),
        ("crates/store/src", Side::Data),
        ("crates/core/src", Side::Window),
        ("src-tauri/src", Side::Window),
    ] {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        let texts: Vec<(PathBuf, String)> = files
            .into_iter()
            .map(|file| {
                let text = fs::read_to_string(&file).unwrap();
                (file, text)
            })
            .collect();
        // Macros that make a type deriving TS (`pub enum $name`), as their calls begin.
        let mut makers = Vec::new();
        for (file, text) in &texts {
            let lines: Vec<&str> = text.lines().collect();
            let mut in_macro = None;
            for (at, line) in lines.iter().enumerate() {
                if let Some(rest) = line.trim_start().strip_prefix("macro_rules! ") {
                    in_macro = rest.split_whitespace().next();
                }
                let Some(name) = item_name(line) else {
                    continue;
                };
                if !derives_ts(&attributes_above(&lines, at)) {
                    continue;
                }
                if name.starts_with('$') {
                    makers.extend(in_macro.map(|m| format!("{m}!(")));
                } else {
                    let short = file.strip_prefix(&root).unwrap_or(file).to_path_buf();
                    types
                        .entry(name.to_owned())
                        .or_default()
                        .push((side, short));
                }
            }
        }
        for (file, text) in &texts {
            let lines: Vec<&str> = text.lines().collect();
            for (at, line) in lines.iter().enumerate() {
                let called = makers
                    .iter()
                    .any(|m| line.trim_start().starts_with(m.as_str()));
                if let Some(name) = macro_call_name(&lines, at).filter(|_| called) {
                    let short = file.strip_prefix(&root).unwrap_or(file).to_path_buf();
                    types
                        .entry(name.to_owned())
                        .or_default()
                        .push((side, short));
                }
            }
        }
    }
    types
}

/// The field names a TypeScript declaration gives its objects: every identifier or string
/// followed by `:` (or `?:`), outside comments and string values.
fn field_names(ts: &str) -> Vec<String> {
    let chars: Vec<char> = ts.chars().collect();
    let mut names = Vec::new();
    let mut i = 0;
    // Whether the word just read is followed by `:` or `?:`.
    let key_follows = |mut j: usize| {
        while j < chars.len() && chars[j].is_whitespace() {
            j += 1;
        }
        if j < chars.len() && chars[j] == '?' {
            j += 1;
        }
        j < chars.len() && chars[j] == ':'
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '"' || c == '\'' {
            let start = i + 1;
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            let word: String = chars[start..i.min(chars.len())].iter().collect();
            i += 1;
            if key_follows(i) {
                names.push(word);
            }
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            if key_follows(i) {
                names.push(chars[start..i].iter().collect());
            }
        } else {
            i += 1;
        }
    }
    names
}

/// What breaks the rule in one name, if anything.
fn breaks(side: Side, name: &str) -> Option<&'static str> {
    match side {
        Side::Data if name.chars().any(|c| c.is_ascii_uppercase()) => {
            Some("is camelCase, but a type of crates/api or crates/store keeps snake_case")
        }
        Side::Window if name.contains('_') => {
            Some("is snake_case, but a type of crates/core or src-tauri is camelCase")
        }
        _ => None,
    }
}

/// The declaration of a ts-rs binding, after its imports (`None` for a file ts-rs did not
/// write, such as a table a test writes or the command map).
fn declaration(text: &str) -> Option<&str> {
    if !text.starts_with("// This file was generated by [ts-rs]") {
        return None;
    }
    text.find("export type ").map(|at| &text[at..])
}

/// Each field of the bindings in `dir` that breaks the rule, and each binding whose type is
/// not found once in the workspace; with how many bindings were checked.
fn problems_in(dir: &Path, types: &BTreeMap<String, Vec<(Side, PathBuf)>>) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        // Subfolders hold other crates' types (serde_json's JsonValue).
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ts") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let Some(decl) = declaration(&text) else {
            continue;
        };
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let side = match types.get(&name).map(Vec::as_slice) {
            Some([(side, _)]) => *side,
            Some(many) => {
                problems.push(format!(
                    "{name}: defined with TS in more than one place: {many:?}"
                ));
                continue;
            }
            None => {
                problems.push(format!(
                    "{name}: no type of that name derives TS in the workspace"
                ));
                continue;
            }
        };
        checked += 1;
        for field in field_names(decl) {
            if let Some(why) = breaks(side, &field) {
                problems.push(format!("{name}.{field} {why}"));
            }
        }
    }
    problems.sort();
    (checked, problems)
}

#[test]
fn every_binding_follows_the_casing_rule_of_its_crate() {
    let dir = root().join("ui/src/lib/bindings");
    let (checked, problems) = problems_in(&dir, &ts_types());
    assert!(
        checked > 100,
        "only {checked} bindings read from {}",
        dir.display()
    );
    assert!(
        problems.is_empty(),
        "the casing rule across IPC (README, \"Casing across IPC, one rule\") is broken:\n{}",
        problems.join("\n")
    );
}

/// The break this test was written for (a store type in camelCase, as the investigations'
/// were) and its opposite (a core type left snake_case) are both named.
#[test]
fn a_binding_that_breaks_the_rule_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let header = "// This file was generated by [ts-rs](https://github.com/Aleph-Alpha/ts-rs). Do not edit this file manually.\n";
    let write = |name: &str, decl: &str| {
        fs::write(
            dir.path().join(format!("{name}.ts")),
            format!("{header}{decl}\n"),
        )
        .unwrap()
    };
    write(
        "InvestigationSummary",
        "export type InvestigationSummary = { id: number, createdAt: string, /** Requests. */ requestCount: number, post_count: number, };",
    );
    write(
        "Monitor",
        "export type Monitor = { id: number, next_run_at: string, stateReason: string | null, };",
    );
    let (checked, problems) = problems_in(dir.path(), &ts_types());
    assert_eq!(checked, 2);
    assert_eq!(
        problems,
        [
            "InvestigationSummary.createdAt is camelCase, but a type of crates/api or crates/store keeps snake_case",
            "InvestigationSummary.requestCount is camelCase, but a type of crates/api or crates/store keeps snake_case",
            "Monitor.next_run_at is snake_case, but a type of crates/core or src-tauri is camelCase",
        ]
    );
}

#[test]
fn the_scan_reads_fields_and_crates_as_meant() {
    let decl = r#"export type A = { "kind": "post", post_id: string, /** a `fooBar`: x */ nextRunAt?: number, tags: Array<string>, "other_case": "not_a_key" | "x", } | { [key in string]?: number };"#;
    assert_eq!(
        field_names(decl),
        ["kind", "post_id", "nextRunAt", "tags", "other_case"]
    );
    assert_eq!(breaks(Side::Data, "post_id"), None);
    assert!(breaks(Side::Data, "postId").is_some());
    assert_eq!(breaks(Side::Window, "postId"), None);
    assert!(breaks(Side::Window, "post_id").is_some());

    let types = ts_types();
    let side = |name: &str| types.get(name).map(|found| found[0].0);
    assert_eq!(side("InvestigationSummary"), Some(Side::Data));
    assert_eq!(side("StoredPost"), Some(Side::Data));
    assert_eq!(side("TwitterSearchRequest"), Some(Side::Data));
    assert_eq!(side("Monitor"), Some(Side::Window));
    assert_eq!(side("BundleOutcome"), Some(Side::Window));
    // Made by a macro (`wire_enum!`).
    assert_eq!(side("ResultType"), Some(Side::Data));
}
