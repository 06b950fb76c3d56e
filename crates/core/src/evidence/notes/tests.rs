//! `notes.md` with hostile post text: read as a Markdown viewer reads it (the `marked` the UI
//! ships, run by Node; skipped with a line saying so where either is missing), nothing in it
//! loads or runs, and a stranger's text makes no link.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::super::tests::{sample, stored_post};
use super::super::BundlePost;
use super::{inert, literal, write};
use crate::read_back::have;

/// A post written to reach out from any Markdown viewer.
const HOSTILE: &str = "Look ![pixel](https://evil.example/p.png) <img src=\"https://evil.example/i.png\">\n\
     <iframe src=\"https://evil.example/f\"></iframe> <script>fetch('https://evil.example')</script>\n\
     [click](https://evil.example/x) <https://evil.example/auto> https://evil.example/bare www.evil.example\n\
     ![ref][r]\n\n[r]: https://evil.example/ref.png\n<style>@import url(https://evil.example/s.css)</style>";

/// The `marked` the UI ships, when it and Node are here.
fn marked() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ui/node_modules/marked/lib/marked.esm.js");
    if !have("node") || !path.exists() {
        println!("skipped the Markdown read-back: node or ui/node_modules/marked is missing");
        return None;
    }
    Some(path)
}

/// `markdown` as HTML, as `marked` renders it.
fn render(marked: &Path, markdown: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.md");
    std::fs::write(&file, markdown).unwrap();
    let script = format!(
        "import {{ marked }} from {:?}; import {{ readFileSync }} from 'node:fs';\n\
         process.stdout.write(marked.parse(readFileSync(process.argv[1], 'utf8')));",
        format!("file://{}", marked.display())
    );
    let run = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// The tags of `html` (text has every `<` escaped, so each `<` left opens a real tag).
fn tags(html: &str) -> Vec<String> {
    html.split('<')
        .skip(1)
        .map(|t| t[..t.find('>').unwrap_or(t.len())].to_lowercase())
        .collect()
}

/// Nothing in `html` loads when shown: no element that fetches, no `src`, no style.
fn assert_reaches_nowhere(html: &str) {
    for tag in tags(html) {
        let name = tag.split_whitespace().next().unwrap_or_default();
        let fetching = [
            "img", "iframe", "script", "style", "link", "object", "embed", "video", "audio",
            "source", "svg", "image", "frame", "base", "meta",
        ];
        assert!(!fetching.contains(&name), "<{tag}> in {html}");
        assert!(
            !tag.contains("src=") && !tag.contains("style="),
            "<{tag}> in {html}"
        );
    }
}

#[test]
fn a_strangers_text_is_shown_as_typed_and_is_never_markup() {
    let md = literal("<b>x</b> & *y* [a](b) ![c](d) `e` # f https://g.h");
    assert_eq!(
        md,
        r"&lt;b&gt;x&lt;\/b&gt; &amp; \*y\* \[a\]\(b\) \!\[c\]\(d\) \`e\` \# f https\:\/\/g\.h"
    );
    let Some(marked) = marked() else { return };
    let html = render(
        &marked,
        &format!("> {}\n", literal(HOSTILE.lines().next().unwrap())),
    );
    assert_reaches_nowhere(&html);
    assert!(!html.contains("<a "), "{html}");
    // What it shows is the text as typed.
    assert!(
        html.contains("![pixel](https://evil.example/p.png) &lt;img"),
        "{html}"
    );
}

#[test]
fn the_investigators_markdown_keeps_its_form_but_loads_nothing() {
    let notebook =
        "**Lead**: [the source](https://example.org/a) ![map](https://tiles.example/m.png)\n\
                    <img src=\"https://tiles.example/x.png\"> `<kept in code>`\n\
                    ```html\n<img src=\"in-a-fence\">\n```\n";
    let md = inert(notebook);
    assert_eq!(
        md,
        "**Lead**: [the source](https://example.org/a) !\\[map](https://tiles.example/m.png)\n\
         &lt;img src=\"https://tiles.example/x.png\"> `<kept in code>`\n\
         ```html\n<img src=\"in-a-fence\">\n```\n"
    );
    let Some(marked) = marked() else { return };
    let html = render(&marked, &md);
    assert!(html.contains("<strong>Lead</strong>"), "{html}");
    assert!(
        html.contains(r#"<a href="https://example.org/a">the source</a>"#),
        "{html}"
    );
    assert_reaches_nowhere(&html);
    assert!(
        html.contains("&lt;img src=&quot;in-a-fence&quot;&gt;"),
        "code stays code: {html}"
    );
}

#[test]
fn notes_md_with_hostile_posts_reaches_nowhere_when_opened() {
    let (mut bundle, _) = sample();
    bundle.notebook = format!("# Leads\n\n{HOSTILE}\n\n[our source](https://example.org/s)");
    bundle.name = "Floods <img src=https://evil.example/n.png>".into();
    bundle.posts.push(BundlePost {
        post: {
            let mut post = stored_post("7", HOSTILE);
            post.author_username = "evil](https://evil.example)<img src=x>".into();
            post
        },
        note: "Seen at ![x](https://evil.example/note.png)".into(),
        tags: vec!["<img src=https://evil.example/t.png>".into()],
        found_by: None,
        imported: None,
    });
    let mut out = Vec::new();
    write(&bundle, &mut out).unwrap();
    let md = String::from_utf8(out).unwrap();
    assert!(md.contains("> Look \\!\\[pixel\\]"), "{md}");
    let Some(marked) = marked() else { return };
    let html = render(&marked, &md);
    assert_reaches_nowhere(&html);
    // Links come only from the investigator's own writing (a link loads nothing until clicked):
    // the notebook's, and the notebook's copy of the hostile text, none from a post.
    let links: Vec<&str> = html
        .match_indices("<a href=\"")
        .map(|(i, _)| &html[i..])
        .collect();
    assert!(
        links
            .iter()
            .any(|l| l.starts_with("<a href=\"https://example.org/s\"")),
        "{html}"
    );
    // A post's text (the quotes) and its author (the headings) make no link.
    for (open, close) in [("<blockquote>", "</blockquote>"), ("<h3>", "</h3>")] {
        for part in html.split(open).skip(1) {
            let part = &part[..part.find(close).unwrap()];
            assert!(!part.contains("<a "), "{part}");
        }
    }
}
