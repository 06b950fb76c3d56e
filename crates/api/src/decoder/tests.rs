use proptest::prelude::*;
use serde_json::json;

use super::*;

fn decode_all(chunks: &[&[u8]]) -> (Vec<StreamEvent>, Result<(), Truncated>) {
    let mut d = StreamDecoder::new();
    let mut events = Vec::new();
    for c in chunks {
        events.extend(d.push(c));
    }
    match d.finish() {
        Ok(rest) => {
            events.extend(rest);
            (events, Ok(()))
        }
        Err(t) => (events, Err(t)),
    }
}

const SAMPLE: &str = concat!(
    "data: {\"type\":\"flow\",\"id\":\"f1\",\"content\":\"searching\",\"status\":\"started\"}\n\n",
    "data: {\"type\":\"search\",\"content\":[{\"title\":\"A\",\"snippet\":\"s\",\"link\":\"https://a\"}]}\n\n",
    "data: {\"type\":\"tweets\",\"content\":[{\"id\":\"1\",\"text\":\"RT @x_data: data: {\\\"a\\\"}\",\"created_at\":\"2026-02-16T18:33:57.000Z\"}]}",
    "data: {\"type\":\"miner_link_scores\",\"content\":{\"https://a\":\"HIGH\",\"1\":\"LOW\"}}\n\n",
    "\n\n",
    "data: {\"type\":\"text\",\"role\":\"summary\",\"content\":\"Hello \"}\n\n",
    "data: {\"type\":\"text\",\"role\":\"summary\",\"content\":\"world}\"}\n\n",
    "data: {\"type\":\"tiktok_search\",\"content\":[1]}\n\n",
    "data: {\"type\":\"completion\",\"content\":\"Hello world}\"}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn decodes_every_event_kind_in_order() {
    let (events, end) = decode_all(&[SAMPLE.as_bytes()]);
    assert_eq!(end, Ok(()));
    let kinds: Vec<String> = events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "flow",
            "link_results",
            "tweets",
            "link_scores",
            "text",
            "text",
            "unknown",
            "completion"
        ]
    );
    let StreamEvent::Tweets { tweets } = &events[2] else {
        panic!()
    };
    assert_eq!(tweets[0].text, "RT @x_data: data: {\"a\"}");
    let StreamEvent::Text { role, text } = &events[5] else {
        panic!()
    };
    assert_eq!(
        (role.as_deref(), text.as_str()),
        (Some("summary"), "world}")
    );
    let StreamEvent::Unknown { event_type, raw } = &events[6] else {
        panic!()
    };
    assert_eq!(event_type, "tiktok_search");
    assert_eq!(raw["content"], json!([1]));
    let StreamEvent::Flow {
        id,
        status,
        content,
    } = &events[0]
    else {
        panic!()
    };
    assert_eq!(
        (id.as_deref(), status.as_deref()),
        (Some("f1"), Some("started"))
    );
    assert_eq!(content, &json!("searching"));
}

#[test]
fn byte_at_a_time_gives_the_same_events() {
    let whole = decode_all(&[SAMPLE.as_bytes()]);
    let bytes: Vec<&[u8]> = SAMPLE.as_bytes().chunks(1).collect();
    assert_eq!(decode_all(&bytes), whole);
}

#[test]
fn error_event_is_terminal() {
    let input = "data: {\"type\":\"text\",\"content\":\"a\"}\n\ndata: {\"error\":\"model overloaded\"}\n\ndata: {\"type\":\"text\",\"content\":\"b\"}\n\n";
    let mut d = StreamDecoder::new();
    let events = d.push(input.as_bytes());
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[1],
        StreamEvent::Error {
            message: "model overloaded".into()
        }
    );
    assert!(d.is_terminated());
    assert!(d
        .push(b"data: {\"type\":\"completion\",\"content\":\"x\"}\n\n")
        .is_empty());
    let obj = to_event(br#"{"error":{"message":"quota","code":1}}"#);
    assert_eq!(
        obj,
        StreamEvent::Error {
            message: "quota".into()
        }
    );
}

#[test]
fn a_cut_stream_keeps_what_arrived_and_reports_truncation() {
    let cut = "data: {\"type\":\"text\",\"content\":\"a\"}\n\ndata: {\"type\":\"completion\",\"con";
    let (events, end) = decode_all(&[cut.as_bytes()]);
    assert_eq!(
        events,
        vec![StreamEvent::Text {
            role: None,
            text: "a".into()
        }]
    );
    assert!(matches!(end, Err(Truncated { .. })));
}

#[test]
fn malformed_events_are_skipped_not_fatal() {
    let input = "data: {\"type\":\"text\",\"content\":\nnot json at all\ndata: {nope}\n\ndata: {\"type\":\"completion\",\"content\":\"ok\"}\n\n: keep-alive comment\nevent: ping\n";
    let (events, end) = decode_all(&[input.as_bytes()]);
    assert_eq!(end, Ok(()));
    assert!(matches!(events[0], StreamEvent::Malformed { .. }));
    assert!(matches!(events[1], StreamEvent::Malformed { .. }));
    assert_eq!(events[2], StreamEvent::Completion { text: "ok".into() });
    assert_eq!(events.len(), 3);
    // A known type with the wrong shape is reported, not dropped silently.
    assert!(matches!(
        to_event(br#"{"type":"search","content":"oops"}"#),
        StreamEvent::Malformed { .. }
    ));
}

#[test]
fn tool_lists_may_come_wrapped_or_null() {
    assert_eq!(
        to_event(br#"{"type":"reddit_search","content":null}"#),
        StreamEvent::LinkResults {
            tool: "reddit_search".into(),
            results: vec![]
        }
    );
    let StreamEvent::LinkResults { results, .. } = to_event(
        br#"{"type":"search","content":{"search":[{"title":"t","snippet":"s","link":"l"}]}}"#,
    ) else {
        panic!()
    };
    assert_eq!(results[0].link, "l");
}

#[test]
fn crlf_and_no_space_after_data_are_accepted() {
    let input = "data:{\"type\":\"text\",\"content\":\"a\"}\r\n\r\ndata:  {\"type\":\"text\",\"content\":\"b\"}\r\n\r\n";
    let (events, end) = decode_all(&[input.as_bytes()]);
    assert_eq!(end, Ok(()));
    assert_eq!(events.len(), 2);
}

// ---- property tests ---------------------------------------------------------------

fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.!?]{0,24}",
        Just("data: inside a string".to_owned()),
        Just("RT @x_data: {\"nested\": [1,2]} \\ back\\slash".to_owned()),
        Just("unicode: café ☕ 𝄞".to_owned()),
        Just("}]{[\"".to_owned()),
    ]
}

fn arb_event() -> impl Strategy<Value = Value> {
    prop_oneof![
        (arb_text(), prop::option::of(Just("summary".to_owned())))
            .prop_map(|(t, role)| json!({"type": "text", "role": role, "content": t})),
        arb_text().prop_map(|t| json!({"type": "completion", "content": t})),
        prop::collection::vec((arb_text(), arb_text()), 0..3).prop_map(|items| json!({
            "type": "search",
            "content": items.iter().map(|(t, s)| json!({"title": t, "snippet": s, "link": "https://e.x/1"})).collect::<Vec<_>>()
        })),
        (arb_text(), 0u64..1000).prop_map(|(t, n)| json!({"type": "tweets", "content": [
            {"id": n.to_string(), "text": t, "like_count": n, "created_at": "Mon Mar 16 07:01:23 +0000 2026", "new_field": {"x": t}}
        ]})),
        Just(json!({"type": "miner_link_scores", "content": {"https://a": "HIGH", "99": "MEDIUM"}})),
        arb_text().prop_map(|t| json!({"type": "flow", "id": "1", "status": "done", "content": t})),
        arb_text().prop_map(|t| json!({"type": "brand_new_kind", "content": {"t": t}})),
    ]
}

/// How one event is framed on the wire.
fn arb_separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("\n\n"),
        Just(""),
        Just("\n"),
        Just("\r\n\r\n"),
        Just("\n\ndata: [DONE]\n\n"),
        Just("\n\n\n\n")
    ]
}

fn arb_stream() -> impl Strategy<Value = (Vec<u8>, usize)> {
    prop::collection::vec((arb_event(), arb_separator()), 1..12).prop_map(|items| {
        let mut out = String::new();
        for (event, sep) in &items {
            out.push_str("data: ");
            out.push_str(&event.to_string());
            out.push_str(sep);
        }
        (out.into_bytes(), items.len())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_split_decodes_to_the_same_events(
        (stream, count) in arb_stream(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let (whole, end) = decode_all(&[&stream]);
        prop_assert_eq!(end, Ok(()));
        prop_assert_eq!(whole.len(), count);
        let none_malformed = whole.iter().all(|e| !matches!(e, StreamEvent::Malformed { .. }));
        prop_assert!(none_malformed);

        let mut points: Vec<usize> = cuts.iter().map(|i| i.index(stream.len() + 1)).collect();
        points.sort_unstable();
        let mut chunks = Vec::new();
        let mut last = 0;
        for p in points {
            chunks.push(&stream[last..p]);
            last = p;
        }
        chunks.push(&stream[last..]);
        let (split, end) = decode_all(&chunks);
        prop_assert_eq!(end, Ok(()));
        prop_assert_eq!(split, whole);
    }

    #[test]
    fn a_prefix_never_invents_events((stream, _) in arb_stream(), cut in any::<prop::sample::Index>()) {
        let (whole, _) = decode_all(&[&stream]);
        let at = cut.index(stream.len());
        let (partial, _) = decode_all(&[&stream[..at]]);
        // Everything decoded from a prefix is a prefix of the full decode (the last event
        // may be cut to a Malformed one only when a line break was already seen: never here).
        prop_assert!(partial.len() <= whole.len());
        prop_assert_eq!(&partial[..], &whole[..partial.len()]);
    }
}
