//! "Export for a colleague": the investigation gathered as its evidence bundle is, its case
//! read from the store with who did what, the `case/` files added to the bundle, and the whole
//! sealed, recorded in the custody log and in `bundle_exports` by the bundle's own export
//! ([`crate::evidence::seal::export`]): one writer, one signature, one verifier for both.

use std::path::Path;

use sightline_api::CancelToken;

use super::{contents, CaseExportOutcome, CaseProgress, CaseStage, KIND};
use crate::errors::CommandError;
use crate::evidence::{
    gather, response_file_name, seal, token_file_name, BundleOutcome, BundleProgress, PackagePart,
    StampState,
};
use crate::state::AppState;

/// The package's file name without its extension: `sightline-case-` and the case's name.
pub fn file_name(investigation_name: &str) -> String {
    format!(
        "sightline-case-{}",
        crate::export::file_stem(investigation_name, "case")
    )
}

/// Writes investigation `id` as a case package at `path`; see [`super::export`].
pub(super) async fn export(
    state: &AppState,
    id: i64,
    path: &Path,
    progress: &mut (dyn FnMut(CaseProgress) + Send),
    cancel: &CancelToken,
) -> Result<CaseExportOutcome, CommandError> {
    let store = state.store().await?;
    let zone = crate::zone::time_zone();
    let mut bundle = gather::investigation(&store, id, zone, env!("CARGO_PKG_VERSION")).await?;
    let history_ids: Vec<i64> = bundle.requests.iter().map(|r| r.entry.id).collect();
    let mut case = store.case_contents(id, &history_ids).await?;
    // Each capture's bytes and token are the bundle's own files: the lines name them.
    let files: std::collections::HashMap<&str, (String, bool)> = bundle
        .requests
        .iter()
        .enumerate()
        .map(|(index, request)| {
            let stamped = matches!(request.stamp, StampState::Stamped(_));
            (
                request.entry.request_id.as_str(),
                (response_file_name(index, request), stamped),
            )
        })
        .collect();
    for line in &mut case.requests {
        let Some((file, stamped)) = files.get(line.request_id.as_str()) else {
            continue;
        };
        if let Some(capture) = &mut line.capture {
            capture.body = Vec::new();
            capture.file = Some(file.clone());
        }
        match (&mut line.stamp, stamped) {
            (Some(stamp), true) => {
                stamp.token = Vec::new();
                stamp.file = Some(token_file_name(file));
            }
            (stamp, _) => *stamp = None,
        }
    }
    drop(files);
    let (requests, posts, media_files) = (
        count(case.requests.len()),
        count(case.posts.len()),
        count(
            case.media
                .iter()
                .flat_map(|m| [&m.file, &m.poster])
                .flatten()
                .map(|f| &f.sha256)
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
        ),
    );
    let case_id = case.case_id.clone();
    bundle.package = Some(PackagePart {
        kind: KIND,
        manifest: contents::manifest_part(&case),
        files: contents::files(&case),
    });
    drop(case);
    let mut relay = |p: BundleProgress| {
        progress(CaseProgress {
            stage: CaseStage::Writing,
            done: p.done,
            total: p.total,
            file: p.file,
        })
    };
    let outcome = seal::export(state, &store, bundle, path, &mut relay, cancel).await?;
    Ok(match outcome {
        BundleOutcome::Written {
            path,
            responses,
            bytes,
            manifest_sha256,
            signed_by,
            ..
        } => CaseExportOutcome::Written {
            path,
            case_id,
            requests,
            responses,
            posts,
            media_files,
            bytes,
            manifest_sha256,
            signed_by,
        },
        BundleOutcome::Cancelled => CaseExportOutcome::Cancelled,
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
