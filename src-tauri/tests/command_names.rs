//! Every command's name agrees across the four places that must list it: the handler list in
//! `src/lib.rs` (`tauri::generate_handler![...]`), `COMMANDS` in `build.rs` (which lets
//! capabilities name it), the `allow-<name>` permissions in `capabilities/default.json`, and the
//! UI's `invoke` calls. A command missing from any one of them fails at run time only (an unknown
//! command, or one the window is not allowed to call), so this reads the four files as text and
//! compares the names, without depending on the crate's API or on which module holds a command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Removes `//` line comments, so a commented-out entry does not count.
fn without_line_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text between `open` (the first after `marker`) and its matching `close`.
fn bracketed<'a>(text: &'a str, marker: &str, open: char, close: char) -> &'a str {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` not found"));
    let start = at
        + text[at..]
            .find(open)
            .unwrap_or_else(|| panic!("no `{open}` after `{marker}`"))
        + 1;
    let mut depth = 1;
    for (i, c) in text[start..].char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return &text[start..start + i];
            }
        }
    }
    panic!("`{open}` after `{marker}` is never closed")
}

/// Every `"..."` literal in `text`, in order.
fn string_literals(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// `generate_handler![commands::a, export::b, c]` → `a`, `b`, `c`: only the last path segment
/// counts, whichever module the command lives in.
fn handler_names(lib_rs: &str) -> Vec<String> {
    let list = without_line_comments(bracketed(lib_rs, "generate_handler!", '[', ']'));
    list.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| entry.rsplit("::").next().unwrap().trim().to_string())
        .collect()
}

/// The string literals of `const COMMANDS: [&str; N] = [...]`.
fn build_names(build_rs: &str) -> Vec<String> {
    let after = &build_rs[build_rs.find("const COMMANDS").expect("const COMMANDS")..];
    let list = without_line_comments(bracketed(after, "=", '[', ']'));
    string_literals(&list)
}

/// `allow-key-set-active` → `key_set_active`; plugin permissions (`core:…`, `dialog:…`) and
/// anything other than `allow-` grants are not app commands.
fn permission_names(capability_json: &str) -> Vec<String> {
    let capability: serde_json::Value =
        serde_json::from_str(capability_json).expect("capability file is JSON");
    let permissions = capability["permissions"]
        .as_array()
        .expect("`permissions` is an array");
    permissions
        .iter()
        .filter_map(|p| p.as_str().or_else(|| p["identifier"].as_str()))
        .filter(|id| !id.contains(':'))
        .filter_map(|id| id.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect()
}

/// Skips a balanced `<...>` at the start of `text` (a TypeScript type argument, which may nest:
/// `invoke<Outcome<Res>>`), returning the rest; `text` unchanged when it does not start with `<`.
fn skip_type_arguments(text: &str) -> &str {
    if !text.starts_with('<') {
        return text;
    }
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    text
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The first argument of every call of `callee` in `source` (`callee(` or `callee<T>(`), as
/// written: `'name'` for a literal, else the expression's first token.
fn first_arguments<'a>(source: &'a str, callee: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    for (at, _) in source.match_indices(callee) {
        let before = source[..at].chars().next_back();
        if before.is_some_and(|c| is_identifier_char(c) || c == '.') {
            continue;
        }
        let rest = skip_type_arguments(&source[at + callee.len()..]);
        let Some(args) = rest.strip_prefix('(') else {
            continue;
        };
        let args = args.trim_start();
        let end = match args.chars().next() {
            Some(quote @ ('\'' | '"' | '`')) => args[1..].find(quote).map(|i| i + 2),
            _ => args.find(|c: char| !is_identifier_char(c)),
        };
        found.push(&args[..end.unwrap_or(args.len())]);
    }
    found
}

fn literal(argument: &str) -> Option<&str> {
    let quote = argument.chars().next()?;
    matches!(quote, '\'' | '"' | '`').then(|| argument.trim_matches(quote))
}

/// Helpers that take the command's name and pass it to `invoke`, as `operation(command: string)`
/// does in ipc.ts: `function name<…>(command: string` or `const name = <…>(command: string`.
fn forwarding_helpers(source: &str) -> Vec<String> {
    let mut helpers = Vec::new();
    for (at, _) in source.match_indices("(command: string") {
        let head = source[..at].trim_end();
        let head = match head.strip_suffix('>') {
            // Walk back over the helper's type parameters.
            Some(_) => {
                let mut depth = 0;
                let mut cut = head.len();
                for (i, c) in head.char_indices().rev() {
                    match c {
                        '>' => depth += 1,
                        '<' => {
                            depth -= 1;
                            if depth == 0 {
                                cut = i;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                head[..cut].trim_end()
            }
            None => head,
        };
        let head = head.strip_suffix('=').map(str::trim_end).unwrap_or(head);
        let name: String = head
            .chars()
            .rev()
            .take_while(|&c| is_identifier_char(c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if !name.is_empty() {
            helpers.push(name);
        }
    }
    helpers
}

/// The command names a UI source file invokes: `invoke('x')`, `invoke<T>('x', …)` (including the
/// streaming one that passes a `Channel`), and `helper<…>('x')` for helpers that forward their
/// `command` argument to `invoke`. An `invoke` whose name is neither a literal nor a forwarded
/// `command` cannot be read from the text: that is an error, not a silent miss.
fn invoked_names(source: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let helpers = forwarding_helpers(source);
    for argument in first_arguments(source, "invoke") {
        match literal(argument) {
            Some(name) => names.push(name.to_string()),
            None if argument == "command" && !helpers.is_empty() => {}
            None => {
                return Err(format!(
                    "invoke({argument}, …): a name this test cannot read"
                ))
            }
        }
    }
    for helper in &helpers {
        for argument in first_arguments(source, helper) {
            if let Some(name) = literal(argument) {
                names.push(name.to_string());
            }
        }
    }
    Ok(names)
}

/// Every non-test TypeScript and Svelte file under `dir` (ipc.ts is the wrapper; a few helpers
/// such as external.ts call `invoke` themselves), skipping tests, test support and the
/// generated bindings.
fn ui_sources(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !matches!(name.as_str(), "bindings" | "test" | "tests" | "__tests__") {
                ui_sources(&path, files);
            }
        } else if (name.ends_with(".ts") || name.ends_with(".svelte"))
            && !name.contains(".test.")
            && !name.contains(".spec.")
            && !name.starts_with("test-setup")
            && !name.ends_with(".d.ts")
        {
            files.push(path);
        }
    }
}

/// For each place, the names it repeats; then for each name some place lacks, which places lack
/// it. Empty when every place lists exactly the same names once.
fn disagreements(places: &[(&str, Vec<String>)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (place, names) in places {
        let mut seen = BTreeSet::new();
        for name in names {
            if !seen.insert(name) {
                problems.push(format!("`{name}` is listed twice in {place}"));
            }
        }
    }
    let mut present: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (place, names) in places {
        for name in names {
            let at = present.entry(name).or_default();
            if !at.contains(place) {
                at.push(place);
            }
        }
    }
    for (name, at) in &present {
        let missing: Vec<&str> = places
            .iter()
            .map(|(place, _)| *place)
            .filter(|place| !at.contains(place))
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "`{name}` is missing from {} (present in {})",
                missing.join(", "),
                at.join(", ")
            ));
        }
    }
    problems
}

const HANDLERS: &str = "generate_handler! in src/lib.rs";
const BUILD: &str = "COMMANDS in build.rs";
const PERMISSIONS: &str = "capabilities/default.json";
const UI: &str = "the UI's invoke calls (ui/src)";
// Their positions in `read_places()` and `agreeing_places()`.
const PLACE_HANDLERS: usize = 0;
const PLACE_BUILD: usize = 1;
const PLACE_UI: usize = 3;

/// The four places' names, read from the files.
fn read_places() -> Vec<(&'static str, Vec<String>)> {
    let dir = manifest_dir();
    let mut ui_files = Vec::new();
    ui_sources(&dir.join("../ui/src"), &mut ui_files);
    ui_files.sort();
    assert!(
        ui_files.iter().any(|f| f.ends_with("lib/ipc.ts")),
        "ui/src/lib/ipc.ts not found among {ui_files:?}"
    );
    // Two UI files may call the same command; the UI's set counts each name once.
    let mut ui_names = BTreeSet::new();
    for file in &ui_files {
        let names =
            invoked_names(&read(file)).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        ui_names.extend(names);
    }
    vec![
        (HANDLERS, handler_names(&read(&dir.join("src/lib.rs")))),
        (BUILD, build_names(&read(&dir.join("build.rs")))),
        (
            PERMISSIONS,
            permission_names(&read(&dir.join("capabilities/default.json"))),
        ),
        (UI, ui_names.into_iter().collect()),
    ]
}

#[test]
fn every_command_is_named_alike_in_all_four_places() {
    let places = read_places();
    for (place, names) in &places {
        // A parser that finds nothing would make the comparison pass vacuously.
        assert!(names.len() >= 10, "only {names:?} found in {place}");
    }
    let problems = disagreements(&places);
    assert!(
        problems.is_empty(),
        "command names disagree:\n{}",
        problems.join("\n")
    );
}

/// The four places as they would be if all agreed: the real handler list, four times.
fn agreeing_places() -> Vec<(&'static str, Vec<String>)> {
    let names = handler_names(&read(&manifest_dir().join("src/lib.rs")));
    [HANDLERS, BUILD, PERMISSIONS, UI]
        .into_iter()
        .map(|place| (place, names.clone()))
        .collect()
}

#[test]
fn a_name_missing_from_one_place_is_reported_with_that_place() {
    assert!(disagreements(&agreeing_places()).is_empty());

    let mut places = agreeing_places();
    let dropped = places[PLACE_UI].1.remove(3);
    assert_eq!(
        disagreements(&places),
        [format!(
            "`{dropped}` is missing from {UI} (present in {HANDLERS}, {BUILD}, {PERMISSIONS})"
        )]
    );

    let mut places = agreeing_places();
    places[PLACE_BUILD].1.push("brand_new".into());
    let twice = places[PLACE_HANDLERS].1[0].clone();
    places[PLACE_HANDLERS].1.push(twice.clone());
    assert_eq!(
        disagreements(&places),
        [
            format!("`{twice}` is listed twice in {HANDLERS}"),
            format!(
                "`brand_new` is missing from {HANDLERS}, {PERMISSIONS}, {UI} (present in {BUILD})"
            ),
        ]
    );
}

#[test]
fn each_place_is_read_in_every_form_it_is_written() {
    let lib = "fn run() { b.invoke_handler(tauri::generate_handler![\n  commands::app_info,\n  // commands::gone,\n  export::export_posts,\n  crate::deep::path::x_y,\n  bare\n]) }";
    assert_eq!(
        handler_names(lib),
        ["app_info", "export_posts", "x_y", "bare"]
    );

    let build = "const COMMANDS: [&str; 2] = [\n    \"app_info\", // why\n    \"key_add\",\n];";
    assert_eq!(build_names(build), ["app_info", "key_add"]);

    let capability = r#"{"permissions": ["core:event:default", "dialog:allow-open", "allow-key-set-active",
        {"identifier": "allow-web-crawl", "allow": []}, "deny-app-info"]}"#;
    assert_eq!(
        permission_names(capability),
        ["key_set_active", "web_crawl"]
    );

    let ipc = "import { Channel, invoke } from '@tauri-apps/api/core';\n\
        // Screens never call `invoke` themselves.\n\
        export const a = () => invoke('plain');\n\
        export const b = () => invoke<AppStatus>(\"typed\", { x });\n\
        export const c = () => invoke<Outcome<Page<Res>>>(\n  'nested', { historyId });\n\
        function operation<Req, Res>(command: string) {\n\
          return (request: Req) => wrap(invoke<Outcome<Res>>(command, { request }));\n\
        }\n\
        export const d = operation<AiSearchRequest, AiSearchResult>('forwarded');\n\
        const channel = new Channel<StreamMessage>();\n\
        const e = noticeIfNotSaved(invoke<Outcome<R>>('streamed', { request, send, channel }));\n\
        const f = reinvoke('not_a_command');";
    assert_eq!(
        invoked_names(ipc).unwrap(),
        ["plain", "typed", "nested", "streamed", "forwarded"]
    );
    assert!(invoked_names("const x = invoke(name, {});").is_err());
}
