//! The command surface, declared once. Each feature module holds one table, a
//! `define_commands! { ... }` block with a line per command: its kind, name, arguments, answer
//! and the one core call it makes. From those tables come the `#[tauri::command]` functions
//! (for every kind but `hand`), the handler Tauri calls ([`handler`]), and, when the tests run
//! (`tests/command_surface.rs`), `command-names.txt` (read by `build.rs`), the capability that
//! grants each command to the window, and the UI's typed map `ui/src/lib/bindings/commands.ts`.
//! A name written once cannot be misspelt in another place.
//!
//! The kinds:
//! - `read`: opens what it needs and answers; changes nothing.
//! - `set`: as `read`, for a change no other screen shows (a key, a setting, a stop): the
//!   caller gets what changed as its answer.
//! - `change`: as `read`, then tells open screens that records changed (when it succeeded).
//! - `send`: goes through the request pipeline (it has a session); open screens are told that
//!   records changed whatever the answer, since a failed request is recorded too.
//! - `monitor`: a change to monitors; its call answers `monitors::changes::Changed` (the answer
//!   and what the window is told), then the scheduler looks again and the window hears
//!   `monitors-changed` (when it succeeded).
//! - `collection`: a change to a collection's state; its call answers the `Collection`, which
//!   the window then hears as `collection-progress`.
//! - `hand`: written by hand in the same module, because the window is involved; the table
//!   still names its types.
//!
//! What a line's call sees is named between bars: `|store|` (the open database), `|state|`
//! (the app's state), `|state, session|` (both, for a send), and what the app manages by its
//! type, alone or after `state` (`|following: Arc<Following>|`, `|state, collector:
//! Arc<Collector>|`).
//!
//! Written by hand, and why:
//! - `open_link`, `show_in_folder`, `open_log_folder`: the system's browser and file manager,
//!   reached through the window's opener plugin (what may be opened is core's:
//!   `external::web_address`, `external::revealable`, `logging::ready_log_dir`);
//! - `ai_search_stream`, `evidence_verify`: their messages travel on a channel the window opens;
//! - `forecast`, `forecast_resume`: they follow the job in the background, its steps sent to
//!   the window as events;
//! - `monitor_run_now`, `monitor_confirm`, `collection_start`, `collection_resume`: they start
//!   a run or a collection's paging in the background, its progress sent as events;
//! - `database_status`: asking starts the database's opening in the background;
//! - `import_start`, `import_resume`: an import read in its run, its progress sent to the window
//!   as `import-progress` events (`import_pick_file`, `import_export_outcomes`: the open and
//!   save dialogs);
//! - `media_backfill_start`: it queues archived posts' media in the background, its status
//!   sent as `media-backfill` events;
//! - `export_history`, `export_posts`, `export_forecasts`, `export_ledger`,
//!   `analysis_export_network`, `analysis_export_table`, `analysis_save_chart`,
//!   `signing_key_export`, `evidence_pick_bundle`, `case_package_pick`: the save or open dialog
//!   (and `evidence_export`, `wacz_export`, `case_package_export`: the save dialog and a channel
//!   for its progress; `case_package_open`: a channel);
//! - `storage_compact`: its progress travels on a channel the window opens.

use std::collections::BTreeMap;
use std::path::PathBuf;

use sightline_core::errors::CommandError;
use ts_rs::{Config, Dependency, TypeVisitor, TS};

/// A command's answer: its core call's `Result`, the error made a `CommandError`.
pub fn answer<T, E: Into<CommandError>>(result: Result<T, E>) -> Result<T, CommandError> {
    result.map_err(Into::into)
}

/// The answer of a core call that cannot fail.
pub fn ok<T>(value: T) -> Result<T, CommandError> {
    Ok(value)
}

/// A type as TypeScript names it, and the generated bindings it needs.
pub struct TsType {
    pub text: String,
    imports: Vec<Dependency>,
}

/// How to name one argument's or answer's type in TypeScript.
pub type TsOf = fn(&Config) -> TsType;

/// `T`'s TypeScript name (ts-rs), with the bindings it and its parameters come from.
pub fn ts<T: TS + 'static + ?Sized>(config: &Config) -> TsType {
    let mut imports = Vec::new();
    Imports(config, &mut imports).visit::<T>();
    T::visit_dependencies(&mut Imports(config, &mut imports));
    TsType {
        text: T::name(config),
        imports,
    }
}

/// Gathers a type's binding and those of its parameters (`Vec<StoredLink>` needs `StoredLink`).
struct Imports<'a>(&'a Config, &'a mut Vec<Dependency>);

impl TypeVisitor for Imports<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        self.1.extend(Dependency::from_ty::<T>(self.0));
        T::visit_generics(self);
    }
}

/// One line of a table, as the tests read it.
pub struct Declaration {
    pub name: &'static str,
    pub kind: &'static str,
    pub args: Vec<(&'static str, TsOf)>,
    /// Channels the window opens for the command's messages (`Channel<T>`), by argument name.
    pub channels: Vec<(&'static str, TsOf)>,
    pub result: TsOf,
}

/// Declares a feature's commands (see the module's doc). Besides each command, it defines the
/// feature's `handler`, `NAMES` and `declarations`, gathered by [`features!`].
macro_rules! define_commands {
    ($(
        $kind:ident $name:ident (
            $($arg:ident : $ty:ty),* $(,)? $(; $($chan:ident : $cty:ty),+ $(,)? )?
        ) -> $out:ty $(= |$($ctx:ident $(: $managed:ty)?),+| $call:expr)? ;
    )*) => {
        $( define_commands!(
            @command $kind $name ($($arg: $ty),*) -> $out $(= [$($ctx $(: $managed)?),+] $call)?
        ); )*

        /// This feature's commands, for Tauri's `invoke_handler`.
        pub fn handler<R: tauri::Runtime>(
        ) -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($name),*]
        }

        /// This feature's command names, as the window calls them.
        pub const NAMES: &[&str] = &[$(stringify!($name)),*];

        /// This feature's table, for the generated files.
        pub fn declarations() -> Vec<$crate::surface::Declaration> {
            vec![$($crate::surface::Declaration {
                name: stringify!($name),
                kind: stringify!($kind),
                args: vec![$((stringify!($arg), $crate::surface::ts::<$ty> as $crate::surface::TsOf)),*],
                channels: vec![$($((stringify!($chan), $crate::surface::ts::<$cty> as $crate::surface::TsOf)),+)?],
                result: $crate::surface::ts::<$out>,
            }),*]
        }
    };

    (@command hand $name:ident ($($arg:ident: $ty:ty),*) -> $out:ty) => {};
    (@command set $($rest:tt)*) => { define_commands!(@command read $($rest)*); };
    (@command $kind:ident $name:ident ($($arg:ident: $ty:ty),*) -> $out:ty = [$($ctx:tt)+] $call:expr) => {
        #[tauri::command]
        pub async fn $name<R: tauri::Runtime>(
            app: tauri::AppHandle<R>,
            state: tauri::State<'_, sightline_core::state::AppState>,
            $($arg: $ty),*
        ) -> Result<$out, sightline_core::errors::CommandError> {
            define_commands!(@open app state [$($ctx)+] [$($ctx)+]);
            define_commands!(@after $kind app state $crate::surface::answer($call))
        }
    };

    // What follows the call, by kind.
    (@after read $app:ident $state:ident $result:expr) => {{
        let _ = &$app;
        $result
    }};
    (@after change $app:ident $state:ident $result:expr) => {{
        let result = $result;
        if result.is_ok() {
            $crate::commands::records_changed(&$app);
        }
        result
    }};
    (@after send $app:ident $state:ident $result:expr) => {{
        let result = $result;
        $crate::commands::records_changed(&$app);
        result
    }};
    (@after monitor $app:ident $state:ident $result:expr) => {{
        let changed: sightline_core::monitors::changes::Changed<_> = $result?;
        $crate::monitors::monitors_changed(&$app, changed.told);
        Ok(changed.answer)
    }};
    (@after collection $app:ident $state:ident $result:expr) => {{
        let collection: sightline_core::collections::Collection = $result?;
        $crate::monitors::collection_progress(&$app, &collection);
        Ok(collection)
    }};

    // What the call sees: the first list is matched by its words, the second binds them.
    (@open $app:ident $state:ident [store] [$store:ident]) => {
        let $store = $state.store().await?;
    };
    (@open $app:ident $state:ident [state] [$bound:ident]) => {
        let $bound: &sightline_core::state::AppState = &$state;
        let _ = $bound;
    };
    (@open $app:ident $state:ident [state, session] [$bound:ident, $session:ident]) => {
        let $bound: &sightline_core::state::AppState = &$state;
        let $session = $state.session().await?;
    };
    (@open $app:ident $state:ident [state, $m:ident : $mty:ty] [$bound:ident, $managed:ident : $ty:ty]) => {
        let $bound: &sightline_core::state::AppState = &$state;
        let $managed = tauri::Manager::state::<$ty>(&$app);
    };
    (@open $app:ident $state:ident [$m:ident : $mty:ty] [$managed:ident : $ty:ty]) => {
        let _ = &$state;
        let $managed = tauri::Manager::state::<$ty>(&$app);
    };
}
pub(crate) use define_commands;

/// Gathers the features' tables into the one handler and the one list.
macro_rules! features {
    ($($feature:ident),+ $(,)?) => {
        /// Every command: each call goes to the feature whose table names it.
        pub fn handler<R: tauri::Runtime>(
        ) -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
            $( let $feature = $crate::$feature::handler::<R>(); )+
            move |invoke| {
                let name = invoke.message.command();
                $( if $crate::$feature::NAMES.contains(&name) {
                    return $feature(invoke);
                } )+
                false
            }
        }

        /// Every table's lines, feature by feature.
        pub fn declarations() -> Vec<Declaration> {
            let mut all = Vec::new();
            $( all.extend($crate::$feature::declarations()); )+
            all
        }
    };
}

features!(
    commands,
    database,
    provenance,
    export,
    investigations,
    evidence,
    monitors,
    analysis,
    coordination,
    signing,
    stamps,
    storage,
    wacz,
    imports,
    media,
    case_packages
);

/// `post_ids` → `postIds`: Tauri's name for a command's argument on the window's side.
fn camel_case(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `ui/src/lib/bindings/commands.ts`: each command's arguments and answer, by name.
pub fn typescript(declarations: &[Declaration], config: &Config) -> String {
    let mut imports: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut body = String::from(
        "/** Every command the window may call: its arguments (as the window names them) and its\n \
         * answer. `ipc.ts` calls them through `call`, so a name or a type that is wrong does not\n \
         * compile. */\nexport interface Commands {\n",
    );
    let mut uses_channel = false;
    for declaration in declarations {
        let mut fields = Vec::new();
        let mut types = Vec::new();
        for (name, ts_of) in &declaration.args {
            let ts = ts_of(config);
            fields.push(format!("{}: {}", camel_case(name), ts.text));
            types.push(ts);
        }
        for (name, ts_of) in &declaration.channels {
            let ts = ts_of(config);
            fields.push(format!("{}: Channel<{}>", camel_case(name), ts.text));
            types.push(ts);
            uses_channel = true;
        }
        let result = (declaration.result)(config);
        // `()` crosses as null; the window reads it as nothing.
        let result_text = match result.text.as_str() {
            "null" => "void".to_string(),
            text => text.to_string(),
        };
        types.push(result);
        let args = if fields.is_empty() {
            "Record<never, never>".to_string()
        } else {
            format!("{{ {} }}", fields.join("; "))
        };
        body.push_str(&format!(
            "  {}: {{ args: {args}; result: {result_text} }};\n",
            declaration.name
        ));
        for ts in types {
            for dependency in ts.imports {
                imports.insert(dependency.ts_name, dependency.output_path);
            }
        }
    }
    body.push_str("}\n\nexport type CommandName = keyof Commands;\n");

    let mut out = String::from(
        "// Written by src-tauri/src/surface.rs from the command tables when the tests run. Do not \
         edit.\n",
    );
    if uses_channel {
        out.push_str("import type { Channel } from '@tauri-apps/api/core';\n");
    }
    for (name, path) in imports {
        // Only what the map names: a type's own fields' types are its binding's business.
        if !mentions(&body, &name) {
            continue;
        }
        let path = path.with_extension("");
        out.push_str(&format!(
            "import type {{ {name} }} from './{}';\n",
            path.display()
        ));
    }
    out.push('\n');
    out.push_str(&body);
    out
}

/// Whether `word` appears in `text` as a whole identifier.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !part(before) && !part(after)
    })
}

/// `capabilities/default.json`: the main window may call each command, and nothing else.
pub fn capability(names: &[&str]) -> String {
    let mut permissions = vec!["core:event:default".to_string()];
    permissions.extend(
        names
            .iter()
            .map(|name| format!("allow-{}", name.replace('_', "-"))),
    );
    let capability = serde_json::json!({
        "$schema": "../gen/schemas/desktop-schema.json",
        "identifier": "default",
        "description": "The main window may call Sightline's own commands and nothing else. \
                        Written from the command tables when the tests run.",
        "windows": ["main"],
        "permissions": permissions,
    });
    let mut text = serde_json::to_string_pretty(&capability).expect("JSON");
    text.push('\n');
    text
}

/// `command-names.txt`, which `build.rs` declares to Tauri: a name a line.
pub fn name_list(names: &[&str]) -> String {
    let mut text = String::from(
        "# Written from the command tables when the tests run (src-tauri/src/surface.rs). Do not \
         edit.\n",
    );
    for name in names {
        text.push_str(name);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_names_are_camel_case_as_tauri_passes_them() {
        assert_eq!(camel_case("post_ids"), "postIds");
        assert_eq!(camel_case("include_archived"), "includeArchived");
        assert_eq!(camel_case("id"), "id");
    }

    #[test]
    fn a_type_is_imported_only_where_named_whole() {
        assert!(mentions("result: Array<Monitor> }", "Monitor"));
        assert!(!mentions("result: MonitorDraft }", "Monitor"));
        assert!(!mentions("result: XMonitor }", "Monitor"));
    }
}
