//! `notes.md`: the investigation's notebook, then each post's note and tags, as Markdown that
//! reaches nowhere when opened. A Markdown viewer loads an image (`![x](https://…)`) or runs
//! raw HTML (`<img src=…>`, `<iframe>`) the moment it shows the file, which would tell a
//! stranger's server who opened the evidence, and when. So:
//! * a stranger's text (a post's text, an author's name, a post's id) is written [`literal`]:
//!   every character Markdown or HTML reads as markup escaped, so it shows as typed and is never
//!   a link, an image or a tag;
//! * the investigator's own Markdown (the name, description, notebook, notes, tags) keeps its
//!   formatting and links (a link loads nothing until clicked) but is made [`inert`]: outside
//!   code (where neither works anyway), raw HTML and an image are shown as their text.

use std::io::Write;

use super::{utc_words, Bundle};

/// Writes `notes.md`.
pub fn write(bundle: &Bundle, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "# {}\n", inert(&one_line(&bundle.name)))?;
    if !bundle.description.trim().is_empty() {
        writeln!(out, "{}\n", inert(bundle.description.trim()))?;
    }
    writeln!(out, "## Notebook\n")?;
    if bundle.notebook.trim().is_empty() {
        writeln!(out, "(empty)\n")?;
    } else {
        writeln!(out, "{}\n", inert(bundle.notebook.trim_end()))?;
    }
    writeln!(out, "## Notes and tags on posts\n")?;
    let mut any = false;
    for p in bundle
        .posts
        .iter()
        .filter(|p| !p.note.trim().is_empty() || !p.tags.is_empty())
    {
        any = true;
        writeln!(
            out,
            "### @{} · post {} · {}\n",
            literal(&one_line(&p.post.author_username)),
            literal(&p.post.id),
            utc_words(p.post.created_at)
        )?;
        for line in p.post.text.lines() {
            writeln!(out, "> {}", literal(line))?;
        }
        writeln!(out)?;
        if !p.tags.is_empty() {
            let tags: Vec<String> = p.tags.iter().map(|t| literal(t)).collect();
            writeln!(out, "Tags: {}\n", tags.join(", "))?;
        }
        if !p.note.trim().is_empty() {
            writeln!(out, "{}\n", inert(p.note.trim_end()))?;
        }
    }
    if !any {
        writeln!(out, "(no post has a note or tags)")?;
    }
    Ok(())
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A stranger's text as Markdown that shows exactly what was typed: `<`, `>` and `&` as
/// character references (which every Markdown reads), every other character Markdown may read
/// as markup backslash-escaped (which CommonMark allows for any ASCII punctuation), so no
/// link, image, tag, autolink (`https\://`, `www\.`) or emphasis comes of it.
pub fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// The investigator's own Markdown, kept as written except what would load or run when shown:
/// outside code spans and fenced code, `<` becomes `&lt;` (raw HTML shows as text) and `![`
/// becomes `!\[` (an image shows as its Markdown text).
pub fn inert(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 8);
    let mut fence: Option<String> = None;
    for line in markdown.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|c| *c == '`' || *c == '~')
            .collect();
        let opens = marker.len() >= 3 && marker.chars().all(|c| c == marker.as_bytes()[0] as char);
        match &fence {
            Some(open) => {
                out.push_str(line);
                if opens && marker.starts_with(open.as_str()) && trimmed.trim_end() == marker {
                    fence = None;
                }
            }
            None if opens => {
                out.push_str(line);
                fence = Some(marker);
            }
            None => inert_line(line, &mut out),
        }
    }
    out
}

/// One line outside fenced code: code spans copied as they are, the rest made inert.
fn inert_line(line: &str, out: &mut String) {
    let mut rest = line;
    while let Some(tick) = rest.find('`') {
        let run = rest[tick..].chars().take_while(|c| *c == '`').count();
        let (before, from) = rest.split_at(tick);
        inert_text(before, out);
        let ticks = &from[..run];
        // The span closes at the next run of exactly as many backticks.
        let close = find_run(&from[run..], run);
        match close {
            Some(end) => {
                let span = run + end + run;
                out.push_str(&from[..span]);
                rest = &from[span..];
            }
            None => {
                out.push_str(ticks);
                rest = &from[run..];
            }
        }
    }
    inert_text(rest, out);
}

/// Where the next run of exactly `n` backticks starts in `text`.
fn find_run(text: &str, n: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            if run == n {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

fn inert_text(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => out.push_str("&lt;"),
            '!' if chars.peek() == Some(&'[') => out.push_str("!\\"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests;
