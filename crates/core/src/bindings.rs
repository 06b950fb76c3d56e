//! Writes the TypeScript twin of every type that crosses IPC into ui/src/lib/bindings when the
//! tests run (ts-rs; the folder is set in .cargo/config.toml). `make test` then fails if the
//! committed bindings differ, so Rust and the UI can never disagree silently.

#[cfg(test)]
mod tests {
    use sightline_api::model::*;
    use sightline_api::request::*;
    use sightline_store::*;
    use ts_rs::TS;

    macro_rules! export {
        ($($ty:ty),* $(,)?) => {{
            let config = ts_rs::Config::from_env();
            $(<$ty>::export_all(&config).expect(concat!("could not export ", stringify!($ty)));)*
        }};
    }

    #[test]
    fn export_every_ipc_type() {
        export!(
            // Requests, one per operation, and what the service answers.
            AiSearchRequest,
            LinksWebRequest,
            LinksTwitterRequest,
            TwitterSearchRequest,
            TwitterUrlsRequest,
            TwitterPostRequest,
            TwitterPostUserRequest,
            TwitterRetweetersRequest,
            TwitterUserPostsRequest,
            TwitterRepliesRequest,
            TwitterRepliesPostRequest,
            TwitterTrendsRequest,
            WebSearchRequest,
            WebCrawlRequest,
            ForecastRequest,
            ForecastStatusRequest,
            AiSearchResult,
            WebLinksResult,
            TwitterLinksResult,
            Posts,
            RepostersPage,
            UserPostsPage,
            Trends,
            WebSearchResults,
            ForecastAccepted,
            ForecastJob,
            sightline_api::Operation,
            // What the app remembers.
            HistoryQuery,
            StoredResult,
            PostQuery,
            StoredUser,
            StoredLink,
            LinkQuery,
            UserQuery,
            BudgetLimits,
            SpendTotals,
            DaySpend,
            SpendBreakdown,
            SpendDimension,
            LearnedRate,
            // Investigations.
            InvestigationSummary,
            InvestigationChanges,
            InvestigationDetail,
            InvestigationPostQuery,
            InvestigationPostPage,
            InvestigationItem,
            ItemMemberships,
            FilingChange,
            CheckReport,
            // Monitors and long collections.
            crate::monitors::MonitorDraft,
            crate::monitors::Monitor,
            crate::monitors::UnseenCounts,
            crate::monitors::MonitorEstimate,
            crate::monitors::MonitorPostPage,
            crate::monitors::MonitorPostQuery,
            crate::monitors::RunLogEntry,
            crate::monitors::MonitorsChanged,
            crate::collections::CollectionDraft,
            crate::collections::Collection,
            // Analysis.
            AnalysisScope,
            ScopeSummary,
            ActivitySeries,
            Heatmap,
            TopLists,
            TopKind,
            Network,
            NetworkQuery,
            ScopePostQuery,
            ScopePostPage,
            ConversationTree,
            crate::analysis::ActivityOptions,
            crate::analysis::ConversationFetchEstimate,
            crate::analysis::ConversationFetch,
            crate::analysis::export::AnalysisTable,
            crate::analysis::export::NetworkFormat,
            crate::analysis::export::ChartFormat,
        );
    }

    /// Writes a generated UI file into the bindings folder when it differs, and then fails, so a
    /// stale file is rewritten at once but never passes unnoticed; a current tree stays untouched.
    fn write_generated(file: &str, ts: String) {
        let dir = std::env::var("TS_RS_EXPORT_DIR").expect("set in .cargo/config.toml");
        let path = std::path::Path::new(&dir).join(file);
        let stale = std::fs::read_to_string(&path).ok().as_deref() != Some(ts.as_str());
        if stale {
            std::fs::write(&path, ts).unwrap_or_else(|e| panic!("could not write {file}: {e}"));
        }
        assert!(
            !stale,
            "{} was out of date with the Rust it is written from and is now rewritten: run the \
             tests again and commit it",
            path.display()
        );
    }

    /// The error kinds after which the service may have billed a request that gave no answer,
    /// from [`sightline_api::ErrorKind::may_have_billed`]: the UI asks before sending again for
    /// exactly these, so the rule keeps its one home in Rust.
    #[test]
    fn export_may_have_billed_kinds() {
        use sightline_api::ErrorKind;
        let kinds: Vec<String> = ErrorKind::ALL
            .into_iter()
            .filter(|kind| kind.may_have_billed())
            .map(|kind| format!("'{}'", kind.as_str()))
            .collect();
        let ts = format!(
            "// Written by crates/core/src/bindings.rs from ErrorKind::may_have_billed when the \
             tests run. Do not edit.\n\
             import type {{ ErrorKind }} from './ErrorKind';\n\n\
             export const mayHaveBilledKinds: readonly ErrorKind[] = [{}];\n",
            kinds.join(", ")
        );
        write_generated("mayHaveBilledKinds.ts", ts);
    }

    /// The limits and words of the drafts the UI checks before it asks (a monitor's, an
    /// investigation's name), from the constants the core checks them by: the UI imports these
    /// instead of typing its own copies, and the shared tables of cases hold both to the words.
    #[test]
    fn export_limits() {
        use crate::collections::{items_message, DATE_MISSING, ESTIMATE_PER, MAX_ITEMS};
        use crate::investigations::{name_too_long, NAME_MISSING};
        use crate::monitors::rules::{
            MAX_CAP, MAX_INTERVAL_MINUTES, MAX_NAME_CHARS, MIN_INTERVAL_MINUTES,
        };
        let text = |words: &str| serde_json::to_string(words).expect("words are a string");
        let ts = format!(
            "// Written by crates/core/src/bindings.rs from the core's limits when the tests run. \
             Do not edit.\n\n\
             /** A monitor's draft (crates/core/src/monitors/rules.rs). */\n\
             export const monitorLimits = {{\n  nameChars: {MAX_NAME_CHARS},\n  \
             intervalMinutes: {{ min: {MIN_INTERVAL_MINUTES}, max: {MAX_INTERVAL_MINUTES} }},\n  \
             cap: {{ min: 1, max: {MAX_CAP} }},\n}} as const;\n\n\
             /** When a collection stops (crates/core/src/collections.rs, check); a date or the \
             end is estimated per `estimatePer` items. */\n\
             export const collectionLimits = {{\n  items: {{ min: 1, max: {MAX_ITEMS} }},\n  \
             estimatePer: {ESTIMATE_PER},\n  itemsMessage: {},\n  dateMissing: {},\n}} as const;\n\n\
             /** An investigation's name (crates/core/src/investigations.rs, name_problem). */\n\
             export const investigationNameRule = {{\n  maxChars: {},\n  missing: {},\n  \
             tooLong: {},\n}} as const;\n",
            text(&items_message()),
            text(DATE_MISSING),
            sightline_store::MAX_NAME_CHARS,
            text(NAME_MISSING),
            text(&name_too_long()),
        );
        write_generated("limits.ts", ts);
    }

    /// The words of a run's outcome and of a monitor's and a collection's state, from each
    /// enum's `label`, as tables the UI imports. Each table is typed `Record<State, string>`,
    /// so a state missing from an enum's `ALL` does not compile in the UI. Running this test
    /// rewrites a stale `stateWords.ts` and then fails (as every generated table here does).
    #[test]
    fn export_state_words() {
        use sightline_store::{CollectionState, MonitorState, RunOutcome};
        fn table<T: serde::Serialize>(
            name: &str,
            ty: &str,
            doc: &str,
            states: impl IntoIterator<Item = (T, &'static str)>,
        ) -> String {
            let mut ts = format!("/** {doc} */\nexport const {name}: Record<{ty}, string> = {{\n");
            for (state, label) in states {
                let word = serde_json::to_value(&state).expect("a state is its word");
                let word = word.as_str().expect("a state is its word");
                let label = serde_json::to_string(label).expect("a label is a string");
                ts.push_str(&format!("  {word}: {label},\n"));
            }
            ts.push_str("};\n");
            ts
        }
        let ts = [
            "// Written by crates/core/src/bindings.rs from the store's `label` of each state when \
             the tests run. Do not edit.\n\
             import type { CollectionState } from './CollectionState';\n\
             import type { MonitorState } from './MonitorState';\n\
             import type { RunOutcome } from './RunOutcome';\n"
                .to_owned(),
            table(
                "runOutcomeLabels",
                "RunOutcome",
                "How a run ended, in words (crates/store/src/runs.rs, RunOutcome::label).",
                RunOutcome::ALL.map(|outcome| (outcome, outcome.label())),
            ),
            table(
                "collectionStateLabels",
                "CollectionState",
                "Where a collection stands, in words (crates/store/src/collections.rs, \
                 CollectionState::label).",
                CollectionState::ALL.map(|state| (state, state.label())),
            ),
            table(
                "monitorStateLabels",
                "MonitorState",
                "Where a monitor stands, in words (crates/store/src/monitors.rs, \
                 MonitorState::label).",
                MonitorState::ALL.map(|state| (state, state.label())),
            ),
        ]
        .join("\n");
        write_generated("stateWords.ts", ts);
    }

    /// The operations' names in words, from [`sightline_api::Operation::label`], as a table the
    /// UI imports: the one home of the words stays in Rust, where reports need them too.
    #[test]
    fn export_operation_names() {
        use sightline_api::Operation;
        let mut ts = String::from(
            "// Written by crates/core/src/bindings.rs from Operation::label when the tests run. \
             Do not edit.\n\
             import type { Operation } from './Operation';\n\n\
             export const operationNames: Record<Operation, string> = {\n",
        );
        for op in Operation::ALL {
            let label = serde_json::to_string(op.label()).expect("a label is a string");
            ts.push_str(&format!("  {}: {label},\n", op.as_str()));
        }
        ts.push_str("};\n");
        write_generated("operationNames.ts", ts);
    }
}
