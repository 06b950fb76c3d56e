//! The fused view: for each pair of accounts, its signals' scores (co-repost: the cosine; the
//! others: the edge's weight over the heaviest edge of that signal in the scope) weighted by
//! the user's weights, added, and divided by the sum of those weights, so a score runs from 0
//! to 1 whatever the weights.

use std::collections::BTreeMap;

use super::{CoordinationEdge, CoordinationOptions, FusedEdge, Signal};

/// The fused edges, highest score first; a pair whose signals all weigh 0 is left out.
pub(super) fn fuse(edges: &[CoordinationEdge], options: &CoordinationOptions) -> Vec<FusedEdge> {
    let mut pairs: BTreeMap<(&str, &str), Vec<(Signal, f64)>> = BTreeMap::new();
    for edge in edges {
        pairs
            .entry((edge.source.as_str(), edge.target.as_str()))
            .or_default()
            .push((edge.signal, edge.score));
    }
    let total: f64 = super::SIGNALS
        .iter()
        .filter(|s| options.wants(**s))
        .map(|s| options.weight(*s).max(0.0))
        .sum();
    let mut fused: Vec<FusedEdge> = pairs
        .into_iter()
        .filter_map(|((source, target), signals)| {
            let weighed: f64 = signals
                .iter()
                .map(|(s, score)| options.weight(*s).max(0.0) * score)
                .sum();
            let any = signals.iter().any(|(s, _)| options.weight(*s) > 0.0);
            (any && total > 0.0).then(|| FusedEdge {
                source: source.to_owned(),
                target: target.to_owned(),
                score: weighed / total,
                signals: signals.iter().map(|(s, _)| *s).collect(),
            })
        })
        .collect();
    fused.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| (&a.source, &a.target).cmp(&(&b.source, &b.target)))
    });
    fused
}
