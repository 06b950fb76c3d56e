//! A post's pictures and videos in `report.html`, in safe view: each shown grey and blurred by
//! the page's CSS until its own "Show plainly" box is ticked (a checkbox and its label, so it
//! works from the keyboard and needs no script), one at a time; videos muted, with controls,
//! never playing or loading by themselves. Only the bundle's own files are named, by their
//! path inside it (`media/<sha256>.<ext>`): nothing remote is ever loaded. An item with no
//! file (gone, given up, over the limit, not fetched, left out) says so in words.

use std::io::Write;

use sightline_store::zone_names::local_seconds;
use sightline_store::{MediaFile, MediaItemRecord, MediaKind, MediaState, Tz};

use crate::evidence::media::{state_words, MediaWritten};
use crate::evidence::utc_words;
use crate::markup::escape;

/// The safe view's rules: grey and blurred until the item's own box is ticked.
pub(super) const STYLE: &str = r#"
.media { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0 0; }
.medium { margin: 0; width: 18rem; max-width: 100%; }
.medium .frame { overflow: hidden; border-radius: 6px; border: 1px solid var(--line);
  background: var(--line); }
.medium img, .medium video { display: block; width: 100%; max-height: 16rem;
  object-fit: contain; filter: grayscale(1) blur(18px); }
.medium .reveal:checked ~ .frame img, .medium .reveal:checked ~ .frame video { filter: none; }
.medium label { font-size: 12px; margin-left: 4px; }
.medium .reveal:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.medium figcaption { font-size: 12px; color: var(--muted); margin-top: 4px;
  overflow-wrap: anywhere; }
.medium.absent { border: 1px dashed var(--line); border-radius: 6px; padding: 8px; }
"#;

/// The sentence near the top that says how media are shown.
pub(super) const SAFE_VIEW_WORDS: &str = "Pictures and videos are shown grey and blurred. \
    Tick “Show plainly” beside one to see it as kept; videos are muted and play only when \
    asked. Each is a file of this bundle (media/, named by its SHA-256); nothing is loaded \
    from anywhere else.";

fn kind_words(kind: MediaKind) -> &'static str {
    match kind {
        MediaKind::Photo => "Picture",
        MediaKind::Video => "Video",
        MediaKind::AnimatedGif => "Animated GIF",
    }
}

/// The post's media items, as figures.
pub(super) fn write(
    items: &[&MediaItemRecord],
    written: &MediaWritten,
    zone: Tz,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    if items.is_empty() {
        return Ok(());
    }
    writeln!(out, "<div class=\"media\">")?;
    for item in items {
        figure(item, written, zone, out)?;
    }
    writeln!(out, "</div>")
}

fn figure(
    item: &MediaItemRecord,
    written: &MediaWritten,
    zone: Tz,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let e = escape;
    let what = format!("{} {}", kind_words(item.kind), item.position + 1);
    let kept = item.state == MediaState::Kept;
    let file = item.file.as_ref().filter(|_| kept);
    let path = written.file(file);
    let caption = caption(item, file, written, zone);
    let (Some(file), Some(path)) = (file, path) else {
        return writeln!(
            out,
            "<figure class=\"medium absent\"><figcaption><strong>{}</strong>: {}</figcaption>\
             </figure>",
            e(&what),
            caption
        );
    };
    let id = format!("show-{}", item.id);
    let element = if file.content_type.starts_with("image/") {
        format!(
            "<img src=\"{}\" alt=\"{} of the post, kept\" loading=\"lazy\" \
             decoding=\"async\">",
            e(path),
            e(&what)
        )
    } else {
        // A video: muted, controls, nothing loaded before it is played; its still picture,
        // when kept, as its poster (blurred with it).
        let poster = written
            .file(item.poster.as_ref())
            .map(|p| format!(" poster=\"{}\"", e(p)))
            .unwrap_or_default();
        format!(
            "<video src=\"{}\"{poster} controls muted preload=\"none\" playsinline \
             aria-label=\"{} of the post, kept\"></video>",
            e(path),
            e(&what)
        )
    };
    writeln!(
        out,
        "<figure class=\"medium\"><input type=\"checkbox\" class=\"reveal\" id=\"{id}\">\
         <label for=\"{id}\">Show plainly: {}</label>\
         <div class=\"frame\">{element}</div><figcaption>{caption}</figcaption></figure>",
        e(&what)
    )
}

/// What the item is and its capture record, in words.
fn caption(
    item: &MediaItemRecord,
    file: Option<&MediaFile>,
    written: &MediaWritten,
    zone: Tz,
) -> String {
    let e = escape;
    let mut parts = vec![e(&state_words(item))];
    if let Some(file) = file {
        let mut what = format!("{}, {} bytes", e(&file.content_type), file.size);
        if let (Some(w), Some(h)) = (file.width, file.height) {
            what.push_str(&format!(", {w}×{h}"));
        }
        parts.push(what);
        parts.push(format!(
            "SHA-256 <span class=\"hash\">{}</span>",
            e(&file.sha256)
        ));
        if let Some(pdq) = &file.pdq {
            parts.push(format!("PDQ <span class=\"hash\">{}</span>", e(pdq)));
        }
        if let Some(why) = written.left_out.get(&file.sha256) {
            parts.push(format!("not in this bundle: {}", e(why)));
        }
    }
    if let Some(status) = item.http_status.filter(|_| item.state == MediaState::Kept) {
        parts.push(format!("HTTP {status}"));
    }
    if let Some(at) = item.fetched_at {
        parts.push(format!(
            "{} {} · {}",
            if item.state == MediaState::Kept {
                "fetched"
            } else {
                "tried"
            },
            e(&utc_words(at)),
            e(&local_seconds(at, zone))
        ));
    }
    // The address as text, not a link.
    parts.push(format!(
        "from <span class=\"hash\">{}</span>",
        e(&item.source_url)
    ));
    parts.join(" · ")
}
