//! The coordination finder against straightforward recounts: each windowed signal's edges are
//! the same as comparing every pair of posts on a small generated scope (over several seeds),
//! co-repost the same as cosines computed account by account, near-duplicates a subset of the
//! exact pairs with the recall stated; a planted group stands out of the baseline and a news
//! burst does not; the CSV's columns and the GEXF read back; the store's pages read a real
//! scope.

mod fixture;
mod paraphrases;
pub(crate) mod repost_bar;
mod scope;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use sightline_api::CancelToken;
use sightline_core::coordination::{
    self, analyse, edge_events, export, group_events, link_form, normalise, Coordination,
    CoordinationOptions, ScopePosts, Signal,
};
use sightline_store::CoordinationRow;

use fixture::{Fixture, Listed};

/// `(source, target) -> (weight, the shared events as (source's post id, target's post id))`.
type Edges = BTreeMap<(String, String), (u32, BTreeSet<(String, String)>)>;

fn run(posts: &ScopePosts, options: &CoordinationOptions) -> Coordination {
    analyse(posts, options, &mut |_| {}, &CancelToken::new()).expect("not cancelled")
}

fn only(signal: Signal) -> CoordinationOptions {
    CoordinationOptions {
        signals: vec![signal],
        baseline_runs: 19,
        ..CoordinationOptions::default()
    }
}

/// The finder's edges of one signal, as `Edges`.
fn found(result: &Coordination, signal: Signal) -> Edges {
    result
        .edges
        .iter()
        .filter(|e| e.signal == signal)
        .map(|e| {
            let events = edge_events(result, e)
                .into_iter()
                .map(|ev| (ev.first.id, ev.second.id))
                .collect();
            ((e.source.clone(), e.target.clone()), (e.weight, events))
        })
        .collect()
}

/// Every pair of posts by different accounts for which `shared` holds, as edges with at least
/// `min` events.
fn recount(
    rows: &[CoordinationRow],
    min: u32,
    shared: impl Fn(&CoordinationRow, &CoordinationRow) -> bool,
) -> Edges {
    let mut edges = Edges::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if a.author == b.author || !shared(a, b) {
                continue;
            }
            let (a, b) = if a.author < b.author { (a, b) } else { (b, a) };
            let edge = edges
                .entry((a.author.clone(), b.author.clone()))
                .or_default();
            edge.0 += 1;
            edge.1.insert((a.id.clone(), b.id.clone()));
        }
    }
    edges.retain(|_, (w, _)| *w >= min);
    edges
}

fn within(a: &CoordinationRow, b: &CoordinationRow, seconds: i64) -> bool {
    (a.at_ms - b.at_ms).abs() <= seconds * 1000
}

fn original(a: &CoordinationRow) -> bool {
    a.repost_of.is_none()
}

fn tag_set(row: &CoordinationRow) -> Vec<String> {
    let mut tags = row.hashtags.clone();
    tags.sort();
    tags.dedup();
    tags
}

fn recount_signal(rows: &[CoordinationRow], signal: Signal, o: &CoordinationOptions) -> Edges {
    let w = i64::from(o.window_seconds);
    let fast = i64::from(o.fast_repost_seconds) * 1000;
    let min = o.min_events;
    match signal {
        Signal::CoPost => recount(rows, min, |a, b| {
            original(a)
                && original(b)
                && within(a, b, w)
                && !normalise(&a.text).is_empty()
                && normalise(&a.text) == normalise(&b.text)
        }),
        Signal::CoLink => recount(rows, min, |a, b| {
            original(a)
                && original(b)
                && within(a, b, w)
                && a.links
                    .iter()
                    .any(|x| b.links.iter().any(|y| link_form(x) == link_form(y)))
        }),
        Signal::CoHashtag => recount(rows, min, |a, b| {
            original(a)
                && original(b)
                && within(a, b, w)
                && !a.hashtags.is_empty()
                && tag_set(a) == tag_set(b)
        }),
        Signal::CoReply => recount(rows, min, |a, b| {
            within(a, b, w) && a.reply_to_id.is_some() && a.reply_to_id == b.reply_to_id
        }),
        Signal::FastRepost => recount(rows, min, |a, b| {
            let quick = |r: &CoordinationRow| {
                r.repost_of_at_ms
                    .is_some_and(|o| (0..=fast).contains(&(r.at_ms - o)))
            };
            a.repost_of.is_some() && a.repost_of == b.repost_of && quick(a) && quick(b)
        }),
        Signal::NearDuplicate | Signal::CoRepost => unreachable!("recounted on their own"),
    }
}

#[test]
fn each_windowed_signal_equals_a_recount_of_every_pair_of_posts() {
    for seed in [1, 2, 3, 4, 5, 6] {
        let fixture = Fixture::generate(seed, 400);
        let posts = fixture.scope();
        for signal in [
            Signal::CoPost,
            Signal::CoLink,
            Signal::CoHashtag,
            Signal::CoReply,
            Signal::FastRepost,
        ] {
            for options in [
                only(signal),
                CoordinationOptions {
                    window_seconds: 20,
                    min_events: 2,
                    fast_repost_seconds: 30,
                    ..only(signal)
                },
            ] {
                let result = run(&posts, &options);
                let expected = recount_signal(&fixture.rows, signal, &options);
                assert!(
                    !expected.is_empty(),
                    "seed {seed}: the fixture has no {signal:?} edge to compare"
                );
                assert_eq!(
                    found(&result, signal),
                    expected,
                    "seed {seed}, {signal:?}, window {} s, min {}",
                    options.window_seconds,
                    options.min_events
                );
            }
        }
    }
}

/// Cosines computed account by account from who reposted what.
fn recount_co_repost(
    fixture: &Fixture,
    o: &CoordinationOptions,
) -> BTreeMap<(String, String), (u32, f64)> {
    let mut sets: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in &fixture.rows {
        if let Some(of) = &row.repost_of {
            sets.entry(row.author.clone())
                .or_default()
                .insert(of.clone());
        }
    }
    for Listed { post, reposter } in &fixture.listed {
        sets.entry(reposter.clone())
            .or_default()
            .insert(post.clone());
    }
    let n = sets.len() as f64;
    let mut df: HashMap<&str, usize> = HashMap::new();
    for set in sets.values() {
        for p in set {
            *df.entry(p.as_str()).or_default() += 1;
        }
    }
    let idf = |p: &str| (1.0 + n / df[p] as f64).ln();
    let norm = |s: &BTreeSet<String>| s.iter().map(|p| idf(p).powi(2)).sum::<f64>().sqrt();
    let accounts: Vec<(&String, &BTreeSet<String>)> = sets.iter().collect();
    let mut out = BTreeMap::new();
    for (i, (a, sa)) in accounts.iter().enumerate() {
        for (b, sb) in &accounts[i + 1..] {
            let shared: Vec<&String> = sa.intersection(sb).collect();
            let dot: f64 = shared.iter().map(|p| idf(p).powi(2)).sum();
            let cosine = dot / (norm(sa) * norm(sb));
            if shared.len() as u32 >= o.min_events && cosine >= o.co_repost_cosine {
                out.insert(((*a).clone(), (*b).clone()), (shared.len() as u32, cosine));
            }
        }
    }
    out
}

#[test]
fn co_repost_equals_cosines_computed_account_by_account() {
    for seed in [1, 2, 3, 4] {
        let fixture = Fixture::generate(seed, 400);
        let posts = fixture.scope();
        for options in [
            only(Signal::CoRepost),
            CoordinationOptions {
                min_events: 2,
                co_repost_cosine: 0.3,
                ..only(Signal::CoRepost)
            },
        ] {
            let result = run(&posts, &options);
            let got: BTreeMap<(String, String), (u32, f64)> = result
                .edges
                .iter()
                .map(|e| ((e.source.clone(), e.target.clone()), (e.weight, e.score)))
                .collect();
            let expected = recount_co_repost(&fixture, &options);
            assert!(
                !expected.is_empty(),
                "seed {seed}: no co-repost edge to compare"
            );
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                expected.keys().collect::<Vec<_>>(),
                "seed {seed}"
            );
            for (pair, (weight, cosine)) in &expected {
                let (w, c) = got[pair];
                assert_eq!(w, *weight, "seed {seed} {pair:?}");
                assert!(
                    (c - cosine).abs() < 1e-9,
                    "seed {seed} {pair:?}: {c} vs {cosine}"
                );
            }
        }
    }
}

/// Word pairs of the normalised text, as the finder's shingles are described.
fn shingles(text: &str) -> BTreeSet<String> {
    let normalised = normalise(text);
    let words: Vec<&str> = normalised
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    match words.len() {
        0 => BTreeSet::new(),
        1 => BTreeSet::from([words[0].to_owned()]),
        _ => words.windows(2).map(|w| w.join(" ")).collect(),
    }
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let shared = a.intersection(b).count() as f64;
    shared / (a.len() as f64 + b.len() as f64 - shared)
}

/// Every pair of original posts by different accounts within the window, with a Jaccard of at
/// least the bar and not the same normalised text.
fn recount_near_duplicates(rows: &[CoordinationRow], o: &CoordinationOptions) -> Edges {
    let sets: Vec<BTreeSet<String>> = rows.iter().map(|r| shingles(&r.text)).collect();
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    recount(rows, 1, |a, b| {
        original(a)
            && original(b)
            && within(a, b, i64::from(o.window_seconds))
            && !normalise(&a.text).is_empty()
            && normalise(&a.text) != normalise(&b.text)
            && jaccard(&sets[index[a.id.as_str()]], &sets[index[b.id.as_str()]])
                >= o.near_duplicate_jaccard
    })
}

#[test]
fn near_duplicates_are_exact_pairs_and_find_nearly_all_of_them() {
    let (mut wanted, mut got) = (0usize, 0usize);
    for seed in [1, 2, 3, 4, 5, 6] {
        let fixture = Fixture::generate(seed, 400);
        let options = CoordinationOptions {
            min_events: 1,
            ..only(Signal::NearDuplicate)
        };
        let result = run(&fixture.scope(), &options);
        let expected = recount_near_duplicates(&fixture.rows, &options);
        let expected: BTreeSet<(String, String)> = expected
            .into_values()
            .flat_map(|(_, events)| events)
            .collect();
        let found: BTreeSet<(String, String)> = found(&result, Signal::NearDuplicate)
            .into_values()
            .flat_map(|(_, events)| events)
            .collect();
        assert!(
            !expected.is_empty(),
            "seed {seed}: no near-duplicate to find"
        );
        assert!(
            found.is_subset(&expected),
            "seed {seed}: pairs found that are not near-duplicates: {:?}",
            found.difference(&expected).collect::<Vec<_>>()
        );
        wanted += expected.len();
        got += found.len();
    }
    let recall = got as f64 / wanted as f64;
    // LSH at 20 bands of 3 rows misses a pair at J = 0.6 with probability (1 - 0.216)^20 ≈ 0.008.
    assert!(recall >= 0.97, "recall {recall:.3} ({got} of {wanted})");
}

#[test]
fn near_duplicate_recall_on_paraphrases() {
    let (rows, pairs) = paraphrases::scope();
    let mut posts = ScopePosts::default();
    for row in rows {
        posts.push(row);
    }
    let options = CoordinationOptions {
        min_events: 1,
        ..only(Signal::NearDuplicate)
    };
    let result = run(&posts, &options);
    let found: BTreeSet<(String, String)> = found(&result, Signal::NearDuplicate)
        .into_values()
        .flat_map(|(_, events)| events)
        .map(|(a, b)| if a < b { (a, b) } else { (b, a) })
        .collect();
    let mut by_edit: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (a, b, edit) in &pairs {
        let key = if a < b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        let tally = by_edit.entry(edit).or_default();
        tally.0 += 1;
        tally.1 += usize::from(found.contains(&key));
    }
    let total: usize = by_edit.values().map(|t| t.0).sum();
    let hit: usize = by_edit.values().map(|t| t.1).sum();
    for (edit, (n, h)) in &by_edit {
        println!("near-duplicate recall, {edit}: {h} of {n}");
    }
    println!("near-duplicate recall, all paraphrases: {hit} of {total}");
    // The edits the bar is meant to catch are caught every time (two words swapped in a
    // fifteen-word text change four of its fourteen word pairs: J ≈ 0.56, below the bar).
    for edit in [
        "one word swapped",
        "a hashtag added",
        "a word dropped",
        "punctuation changed",
        "a sentence added",
    ] {
        let (n, h) = by_edit[edit];
        assert_eq!(h, n, "{edit}: {h} of {n}");
    }
    // Unrelated texts about the same event are never near-duplicates.
    assert_eq!(by_edit["unrelated, same event"].1, 0);
}

#[test]
fn a_planted_group_is_unusual_and_a_news_burst_is_not() {
    let fixture = Fixture::planted_and_burst(7);
    let result = run(&fixture.scope(), &CoordinationOptions::default());
    let planted: BTreeSet<String> = fixture.planted.iter().cloned().collect();
    let unusual: Vec<_> = result.groups.iter().filter(|g| g.unusual).collect();
    assert_eq!(unusual.len(), 1, "{:#?}", result.groups);
    let group = unusual[0];
    assert_eq!(
        group.members.iter().cloned().collect::<BTreeSet<_>>(),
        planted
    );
    let baseline = group.baseline.as_ref().expect("windowed signals");
    assert!(baseline.p <= 0.01, "{baseline:?}");
    assert!(
        group
            .reason
            .contains("accounts posted the same text within"),
        "{}",
        group.reason
    );
    // The burst's accounts were grouped too, and judged ordinary.
    let burst = result
        .groups
        .iter()
        .find(|g| g.members.iter().any(|m| fixture.burst.contains(m)))
        .expect("the burst's accounts share hashtags within a minute");
    assert!(!burst.unusual, "{burst:#?}");
    assert!(
        burst.baseline.as_ref().unwrap().p > 0.05,
        "{:?}",
        burst.baseline
    );
    // The same seed, the same figures.
    let again = run(&fixture.scope(), &CoordinationOptions::default());
    assert_eq!(again.groups, result.groups);
    // Group events are every edge's, with their posts and times.
    let events = group_events(&result, group.id);
    let weights: u32 = group
        .edges
        .iter()
        .map(|i| result.edges[*i as usize].weight)
        .sum();
    assert_eq!(events.len() as u32, weights);
    assert!(events.iter().all(|e| e.apart_seconds <= 60.0));
}

#[test]
fn no_group_is_called_a_bot_or_fake() {
    let fixture = Fixture::planted_and_burst(3);
    let result = run(&fixture.scope(), &CoordinationOptions::default());
    assert!(!result.groups.is_empty());
    for group in &result.groups {
        let words = group.reason.to_lowercase();
        for banned in ["bot", "fake", "inauthentic"] {
            assert!(!words.contains(banned), "{}", group.reason);
        }
    }
}

#[test]
fn cancelling_stops_the_search() {
    let fixture = Fixture::generate(1, 400);
    let cancel = CancelToken::new();
    let mut steps = 0;
    let outcome = analyse(
        &fixture.scope(),
        &CoordinationOptions::default(),
        &mut |_| {
            steps += 1;
            if steps == 2 {
                cancel.cancel();
            }
        },
        &cancel,
    );
    assert!(outcome.is_none());
    assert_eq!(steps, 2);
}

#[test]
fn the_csv_has_the_qut_columns_first_and_one_line_per_edge() {
    let fixture = Fixture::planted_and_burst(5);
    let result = run(&fixture.scope(), &CoordinationOptions::default());
    let mut out = Vec::new();
    export::edges_csv(&result, &mut out).unwrap();
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(&header[..4], ["source", "target", "weight", "edge_type"]);
    assert_eq!(header, export::CSV_COLUMNS);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), result.edges.len());
    for (record, edge) in records.iter().zip(&result.edges) {
        assert_eq!(&record[0], edge.source);
        assert_eq!(&record[1], edge.target);
        assert_eq!(record[2].parse::<u32>().unwrap(), edge.weight);
        assert_eq!(&record[3], edge.signal.edge_type());
        let ids: BTreeSet<&str> = record[7].split(' ').collect();
        let expected: BTreeSet<String> = edge_events(&result, edge)
            .into_iter()
            .flat_map(|e| [e.first.id, e.second.id])
            .collect();
        assert_eq!(ids, expected.iter().map(String::as_str).collect());
    }
}

#[test]
fn the_gexf_is_xml_with_every_account_and_edge() {
    use quick_xml::events::Event;
    let fixture = Fixture::planted_and_burst(5);
    let result = run(&fixture.scope(), &CoordinationOptions::default());
    let mut out = Vec::new();
    export::gexf(&result, "Scope <with> “quotes” & more", &mut out).unwrap();
    let mut reader = quick_xml::Reader::from_reader(out.as_slice());
    let (mut nodes, mut edges, mut version) = (BTreeSet::new(), Vec::new(), String::new());
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).expect("well-formed XML") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name).unwrap().map(|a| {
                        a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                            .unwrap()
                            .into_owned()
                    })
                };
                match e.name().as_ref() {
                    "gexf" => version = attr("version").unwrap(),
                    "node" => {
                        nodes.insert(attr("id").unwrap());
                    }
                    "edge" => edges.push((
                        attr("source").unwrap(),
                        attr("target").unwrap(),
                        attr("kind").unwrap(),
                        attr("weight").unwrap(),
                    )),
                    _ => {}
                }
            }
            _ => {}
        }
        buf.clear();
    }
    assert_eq!(version, "1.3");
    assert_eq!(edges.len(), result.edges.len());
    for (edge, (source, target, kind, weight)) in result.edges.iter().zip(&edges) {
        assert_eq!((&edge.source, &edge.target), (source, target));
        assert_eq!(kind, edge.signal.edge_type());
        assert_eq!(weight, &edge.weight.to_string());
        assert!(nodes.contains(source) && nodes.contains(target));
    }
}

#[test]
fn fused_scores_weigh_signals_as_the_user_says() {
    let fixture = Fixture::generate(2, 400);
    let posts = fixture.scope();
    let default = run(&posts, &CoordinationOptions::default());
    assert!(!default.fused.is_empty());
    let only_posts = CoordinationOptions {
        weights: coordination::SIGNALS
            .iter()
            .map(|s| coordination::SignalWeight {
                signal: *s,
                weight: if *s == Signal::CoPost { 1.0 } else { 0.0 },
            })
            .collect(),
        ..CoordinationOptions::default()
    };
    let weighed = run(&posts, &only_posts);
    for fused in &weighed.fused {
        // Only co-post counts: the score is the co-post edge's own.
        let edge = weighed
            .edges
            .iter()
            .find(|e| {
                e.signal == Signal::CoPost && e.source == fused.source && e.target == fused.target
            })
            .expect("a pair weighed only by co-post has a co-post edge");
        assert!((fused.score - edge.score).abs() < 1e-12);
    }
}
