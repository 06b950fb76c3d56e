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
            TweetList,
            RetweetersPage,
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
}
