//! Text made safe inside HTML or XML, for every page and file of markup the app writes (the
//! evidence bundle's `report.html`, the analysis's GEXF network): one rule, so a post's text
//! or an account's name can never open a tag or end an attribute in either. The UI's SVG charts
//! escape by the same rule (`ui/src/lib/markup.ts`); both run the case table
//! `tests/fixtures/markup-escape-cases.json`.

/// Text safe in element content and in a quoted attribute, in HTML and in XML 1.0: `& < > " '`
/// escaped; tab, line feed and carriage return written as character references (so an
/// attribute keeps them instead of folding them into spaces); the other control characters,
/// which XML 1.0 cannot hold at all, dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    /// The rule character for character, from the table the UI's charts run too.
    #[test]
    fn text_is_escaped_as_the_shared_table_says() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/markup-escape-cases.json"
        );
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = table["cases"].as_array().unwrap();
        assert!(cases.len() >= 8);
        for case in cases {
            let input = case["input"].as_str().unwrap();
            let expected = case["expected"].as_str().unwrap();
            assert_eq!(escape(input), expected, "{}", case["name"]);
        }
    }

    #[test]
    fn markup_is_escaped_and_what_xml_cannot_hold_is_dropped() {
        assert_eq!(
            escape(r#"<b class="x">Tom & 'Jerry'</b>"#),
            "&lt;b class=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(escape("a\tb\r\nc"), "a&#9;b&#13;&#10;c");
        assert_eq!(escape("bell\u{7}\u{FFFF}!"), "bell!");
        assert_eq!(escape("ünïcödé ✓"), "ünïcödé ✓");
    }

    /// Read back by an XML parser (attribute values normalized as XML says), an attribute holds
    /// the text exactly, line breaks and tabs included.
    #[test]
    fn an_xml_reader_gets_the_text_back() {
        let text = "a <tag> & \"quote\" 'apostrophe'\nsecond line\ttab";
        let doc = format!(r#"<n label="{}"/>"#, escape(text));
        let mut reader = quick_xml::Reader::from_str(&doc);
        loop {
            match reader.read_event().unwrap() {
                quick_xml::events::Event::Empty(e) => {
                    let label = e.try_get_attribute("label").unwrap().unwrap();
                    assert_eq!(
                        label
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .unwrap(),
                        text
                    );
                }
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
    }
}
