//! Small generated scopes: many accounts drawing texts, links, tag sets, posts to answer and
//! posts to repost from small pools within a quarter of an hour, so every signal has edges to
//! recount; and a scope with a planted group among ordinary posts and a news burst.

use sightline_core::coordination::ScopePosts;
use sightline_store::CoordinationRow;

/// A reposters list's entry.
pub struct Listed {
    pub post: String,
    pub reposter: String,
}

pub struct Fixture {
    pub rows: Vec<CoordinationRow>,
    pub listed: Vec<Listed>,
    /// The planted group's accounts (`planted_and_burst`).
    pub planted: Vec<String>,
    /// The news burst's accounts (`planted_and_burst`).
    pub burst: Vec<String>,
}

/// xorshift64*: the fixtures' own seeded numbers.
pub struct Numbers(u64);

impl Numbers {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const START: i64 = 1_795_000_000_000;

const TEXTS: [&str; 6] = [
    "Flood warning for the river district tonight, move your cars uphill now",
    "The council meeting about the new bridge starts at seven in the town hall",
    "Power is back on in the east side after the storm took the lines down",
    "Free water bottles handed out at the station square until late evening",
    "Schools stay closed tomorrow while the roads are cleared of fallen trees",
    "Volunteers needed at the harbour to fill sandbags before the high tide",
];
const SWAPS: [&str; 5] = ["quickly", "downtown", "again", "today", "please"];
const LINKS: [&str; 4] = [
    "https://www.Example.org/flood/",
    "http://example.org/flood",
    "https://news.test/bridge?id=4",
    "https://t.co/abc",
];
const TAGS: [&str; 4] = ["flood", "storm", "bridge", "harbour"];

fn row(id: String, author: &str, at_ms: i64, text: String) -> CoordinationRow {
    CoordinationRow {
        pk: 0,
        id,
        author: author.to_owned(),
        at_ms,
        text,
        links: Vec::new(),
        hashtags: Vec::new(),
        reply_to_id: None,
        repost_of: None,
        repost_of_at_ms: None,
    }
}

/// A pool text as someone might write it: in other case, with a mention, a link or extra
/// spaces, sometimes with one word swapped (a near-duplicate).
fn variant(n: &mut Numbers) -> String {
    let base = *n.pick(&TEXTS);
    let mut words: Vec<String> = base.split(' ').map(str::to_owned).collect();
    if n.chance(25) {
        let at = n.below(words.len() as u64) as usize;
        words[at] = (*n.pick(&SWAPS)).to_owned();
    }
    let mut text = words.join(if n.chance(20) { "  " } else { " " });
    if n.chance(30) {
        text = text.to_uppercase();
    }
    if n.chance(30) {
        text = format!("@someone{} {text}", n.below(3));
    }
    if n.chance(30) {
        text.push_str(" https://t.co/xyz");
    }
    text
}

impl Fixture {
    /// `count` posts by 12 accounts within 15 minutes, plus 20 reposted originals and
    /// reposters lists naming them.
    pub fn generate(seed: u64, count: usize) -> Self {
        let mut n = Numbers::new(seed);
        let accounts: Vec<String> = (0..12).map(|i| format!("acct{i:02}")).collect();
        let mut rows = Vec::new();
        let originals: Vec<(String, i64)> = (0..20)
            .map(|i| (format!("s{seed}orig{i}"), START + i * 40_000))
            .collect();
        for (id, at) in &originals {
            rows.push(row(
                id.clone(),
                "newsdesk",
                *at,
                format!("Update number {id} from the desk"),
            ));
        }
        for i in 0..count {
            let author = n.pick(&accounts).clone();
            let at = START + n.below(900_000) as i64;
            let id = format!("s{seed}p{i}");
            if n.chance(20) {
                // Reposts of the first six originals, most within 20 s of them.
                let (of, of_at) = n.pick(&originals[..6]).clone();
                let at = of_at + n.below(20_000) as i64;
                let mut r = row(id, &author, at, format!("RT @newsdesk: Update number {of}"));
                r.repost_of_at_ms = (!n.chance(10)).then_some(of_at);
                r.repost_of = Some(of);
                // A repost carries the reposted post's links and tags; they are not the reposter's.
                r.links = vec![(*n.pick(&LINKS)).to_owned()];
                r.hashtags = vec![(*n.pick(&TAGS)).to_owned()];
                rows.push(r);
                continue;
            }
            let text = if n.chance(15) {
                format!(
                    "my own words number {} about {}",
                    n.next() % 1000,
                    n.pick(&TAGS)
                )
            } else {
                variant(&mut n)
            };
            let mut r = row(id, &author, at, text);
            for _ in 0..n.below(3) {
                r.links.push((*n.pick(&LINKS)).to_owned());
            }
            for _ in 0..n.below(3) {
                let tag = (*n.pick(&TAGS)).to_owned();
                if !r.hashtags.contains(&tag) {
                    r.hashtags.push(tag);
                }
            }
            if n.chance(30) {
                r.reply_to_id = Some(format!("s{seed}thread{}", n.below(5)));
            }
            rows.push(r);
        }
        let mut listed = Vec::new();
        let listers: Vec<String> = accounts
            .iter()
            .cloned()
            .chain((0..5).map(|i| format!("lurker{i}")))
            .collect();
        for (id, _) in &originals {
            for who in &listers {
                if n.chance(30) {
                    listed.push(Listed {
                        post: id.clone(),
                        reposter: who.clone(),
                    });
                }
            }
        }
        Self {
            rows,
            listed,
            planted: Vec::new(),
            burst: Vec::new(),
        }
    }

    /// Six accounts posting the same text within 30 s five times over six hours; a news burst
    /// of 40 accounts posting about one event with one hashtag, eight posts each, over two
    /// hours; 30 accounts posting their own words all along.
    pub fn planted_and_burst(seed: u64) -> Self {
        let mut n = Numbers::new(seed);
        let mut rows = Vec::new();
        let hours = 6 * 3_600_000;
        for i in 0..300 {
            let author = format!("person{:02}", n.below(30));
            let at = START + n.below(hours) as i64;
            rows.push(row(
                format!("o{i}"),
                &author,
                at,
                format!("thinking about lunch and item {} today", n.next() % 100_000),
            ));
        }
        let planted: Vec<String> = (0..6).map(|i| format!("camp{i}")).collect();
        for burst in 0..5 {
            let at = START + n.below(hours) as i64;
            let text = format!("Everyone must read this about the mayor, part {burst}");
            for (k, who) in planted.iter().enumerate() {
                let mut r = row(
                    format!("c{burst}_{k}"),
                    who,
                    at + n.below(30_000) as i64,
                    text.clone(),
                );
                r.hashtags = vec!["truth".into()];
                rows.push(r);
            }
        }
        let burst: Vec<String> = (0..40).map(|i| format!("local{i:02}")).collect();
        let from = START + 2 * 3_600_000;
        for (k, who) in burst.iter().enumerate() {
            for j in 0..8 {
                let mut r = row(
                    format!("b{k}_{j}"),
                    who,
                    from + n.below(2 * 3_600_000) as i64,
                    format!(
                        "the harbour fire seen from {who} view {j}, smoke everywhere {}",
                        n.next() % 1000
                    ),
                );
                r.hashtags = vec!["harbourfire".into()];
                rows.push(r);
            }
        }
        Self {
            rows,
            listed: Vec::new(),
            planted,
            burst,
        }
    }

    /// The finder's input.
    pub fn scope(&self) -> ScopePosts {
        let mut posts = ScopePosts::default();
        for r in &self.rows {
            posts.push(r.clone());
        }
        for l in &self.listed {
            posts.push_reposter(&l.post, &l.reposter, 0);
        }
        posts
    }
}
