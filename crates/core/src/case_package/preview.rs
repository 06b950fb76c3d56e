//! "Open a case package", first look: the package verified as it would be before an import
//! (nothing written), and what it says it holds, so the user sees who signed it, when, whether
//! every check holds and whether it would merge into a case held here before importing it.

use std::path::Path;

use serde::Serialize;
use sightline_api::CancelToken;
use ts_rs::TS;

use super::open::{kind_of_manifest, refusal, NOT_A_PACKAGE};
use super::{Collector, KIND};
use crate::errors::CommandError;
use crate::evidence::verify::{verify_bundle, BundleCheck, Known, ReadProgress};
use crate::state::AppState;

/// What a package holds and would do here, before it is opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CasePreview {
    /// The checks, as "Verify a bundle" shows them.
    pub check: BundleCheck,
    /// Why opening it would be refused; `None`: it can be opened.
    pub refused: Option<String>,
    /// The case's id, as the manifest gives it.
    pub case_id: Option<String>,
    /// The case's name, as the manifest gives it.
    pub name: Option<String>,
    /// Who signed it: the manifest's collector and the signing key's fingerprint.
    pub from: Option<Collector>,
    /// When it was made, as the manifest says (RFC 3339 UTC).
    pub signed_at: Option<String>,
    /// Requests it carries.
    pub requests: u32,
    /// Posts it carries.
    pub posts: u32,
    /// The investigation here holding the same case (opening merges into it), if any.
    pub held: Option<i64>,
    /// That investigation's name here.
    pub held_name: Option<String>,
}

/// Verifies the package at `path` and says what it holds; `None` when cancelled. Writes
/// nothing.
pub async fn preview(
    state: &AppState,
    path: &Path,
    mut progress: impl FnMut(ReadProgress) + Send + 'static,
    cancel: &CancelToken,
) -> Result<Option<CasePreview>, CommandError> {
    let known = Known {
        keys: crate::signing::known_keys(state)?,
        trusted_tsa: state.settings().tsa_certificate_pem,
    };
    let (owned, token) = (path.to_owned(), cancel.clone());
    let read = tokio::task::spawn_blocking(move || {
        let check = verify_bundle(&owned, &known, &mut progress, &token)?;
        Ok::<_, CommandError>(check.map(|check| (check, kind_of_manifest(&owned))))
    })
    .await
    .map_err(|error| CommandError::internal(format!("The check stopped: {error}")))??;
    let Some((check, manifest)) = read else {
        return Ok(None);
    };
    let manifest = manifest.unwrap_or_default();
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    let count = |v: &serde_json::Value| u32::try_from(v.as_u64().unwrap_or(0)).unwrap_or(u32::MAX);
    let refused = if manifest["kind"].as_str() != Some(KIND) {
        Some(NOT_A_PACKAGE.to_owned())
    } else {
        refusal(&check)
    };
    let case_id = text(&manifest["case"]["case_id"]);
    let held = match &case_id {
        Some(case_id) => {
            let store = state.store().await?;
            store.investigation_of_case(case_id).await?
        }
        None => None,
    };
    Ok(Some(CasePreview {
        refused,
        name: text(&manifest["investigation"]["name"]),
        from: check
            .signature
            .fingerprint
            .clone()
            .map(|fingerprint| Collector {
                name: text(&manifest["collector"]).unwrap_or_default(),
                fingerprint,
            }),
        signed_at: text(&manifest["created_at_utc"]),
        requests: count(&manifest["case"]["counts"]["requests"]),
        posts: count(&manifest["case"]["counts"]["posts"]),
        held: held.as_ref().map(|(id, _)| *id),
        held_name: held.map(|(_, name)| name),
        case_id,
        check,
    }))
}
