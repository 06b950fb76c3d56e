//! How long the coordination finder takes on synthetic scopes held in memory (the store's
//! reading is not timed here), and its peak memory (VmHWM): a 1,000,000-post scope with every
//! exact signal and co-repost (goal: 120 s or less), then near-duplicate text alone (300 s),
//! peak memory 4 GB or less; and a 100,000-post scope with every signal (10 s).
//! Run: `cargo bench -p sightline-core --bench coordination` (release).

use std::time::Instant;

use sightline_api::CancelToken;
use sightline_core::coordination::{analyse, CoordinationOptions, ScopePosts, Signal};
use sightline_store::CoordinationRow;

/// xorshift64*: the same scope on every run.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const START: i64 = 1_790_000_000_000;
const DAYS: u64 = 30;

/// `count` posts by `count / 20` accounts over 30 days: own words from a 5,000-word
/// vocabulary, links, tag sets, replies and reposts drawn from large pools, and a planted
/// group every 10,000 posts (eight accounts, the same or nearly the same text within 30 s); reposters lists for
/// one post in fifty.
fn scope(count: usize) -> ScopePosts {
    let mut n = Numbers(0x9e37_79b9_7f4a_7c15);
    let vocabulary: Vec<String> = (0..5000).map(|i| format!("w{i:x}")).collect();
    let accounts = (count / 20).max(100) as u64;
    let span = DAYS * 86_400_000;
    let mut posts = ScopePosts::default();
    let mut listed = Vec::new();
    for i in 0..count {
        let id = format!("{}", 1_000_000_000_000 + i);
        let author = format!("user{}", n.below(accounts));
        let at = START + n.below(span) as i64;
        let mut row = CoordinationRow {
            pk: i as i64 + 1,
            id: id.clone(),
            author,
            at_ms: at,
            text: String::new(),
            links: Vec::new(),
            hashtags: Vec::new(),
            reply_to_id: None,
            repost_of: None,
            repost_of_at_ms: None,
        };
        if i % 10_000 < 8 {
            // A planted group: the same text within 30 s.
            let burst = i / 10_000;
            row.author = format!("planted{}", i % 10_000);
            row.at_ms = START + (burst as i64 * 2_591_000) % span as i64 + n.below(30_000) as i64;
            row.text = format!("read this now about the mayor number {}", burst % 50);
            if i % 2 == 1 {
                // Half of them add a word: near-duplicates of the others' text.
                row.text.push_str(" today");
            }
        } else if n.below(100) < 15 {
            let of = n.below(100_000);
            let of_at = START + (of * 25_000) as i64 % span as i64;
            row.repost_of = Some(format!("orig{of}"));
            row.repost_of_at_ms = Some(of_at);
            row.at_ms = of_at + n.below(3_600_000) as i64;
            row.text = format!("RT @someone: original {of}");
        } else {
            let words = 12 + n.below(7) as usize;
            let text: Vec<&str> = (0..words)
                .map(|_| vocabulary[n.below(5000) as usize].as_str())
                .collect();
            row.text = text.join(" ");
            if n.below(100) < 30 {
                row.links.push(format!(
                    "https://site{}.example/p/{}",
                    n.below(500),
                    n.below(200)
                ));
            }
            if n.below(100) < 40 {
                row.hashtags.push(format!("tag{}", n.below(2000)));
                if n.below(2) == 0 {
                    row.hashtags.push(format!("tag{}", n.below(2000)));
                }
            }
            if n.below(100) < 20 {
                row.reply_to_id = Some(format!("thread{}", n.below(50_000)));
            }
        }
        if i % 50 == 0 {
            for _ in 0..n.below(40) {
                listed.push((id.clone(), format!("user{}", n.below(accounts))));
            }
        }
        posts.push(row);
    }
    for (post, reposter) in listed {
        posts.push_reposter(&post, &reposter, 0);
    }
    posts
}

fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmHWM"))
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

fn time(label: &str, posts: &ScopePosts, signals: Vec<Signal>) {
    let options = CoordinationOptions {
        signals,
        ..CoordinationOptions::default()
    };
    let started = Instant::now();
    let result = analyse(posts, &options, &mut |_| {}, &CancelToken::new()).unwrap();
    println!(
        "{label}: {:.1} s; {} edges, {} groups ({} unusual); peak memory so far {}",
        started.elapsed().as_secs_f64(),
        result.edges.len(),
        result.groups.len(),
        result.groups.iter().filter(|g| g.unusual).count(),
        peak_memory()
    );
}

fn main() {
    let exact = vec![
        Signal::CoPost,
        Signal::CoLink,
        Signal::CoHashtag,
        Signal::CoReply,
        Signal::CoRepost,
        Signal::FastRepost,
    ];
    let started = Instant::now();
    let small = scope(100_000);
    println!(
        "100,000 posts built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    time("100,000 posts, every signal", &small, Vec::new());
    drop(small);

    let started = Instant::now();
    let large = scope(1_000_000);
    println!(
        "1,000,000 posts built in {:.1} s ({} accounts); peak memory {}",
        started.elapsed().as_secs_f64(),
        large.accounts(),
        peak_memory()
    );
    time(
        "1,000,000 posts, exact signals and co-repost",
        &large,
        exact,
    );
    time(
        "1,000,000 posts, near-duplicate",
        &large,
        vec![Signal::NearDuplicate],
    );
}
