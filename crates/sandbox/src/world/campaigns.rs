//! What happens in the world's last two days on top of its seeded years: news that many
//! unrelated accounts post about at once (a harbour fire, a cup final with three goals, news
//! desks' updates reposted by their readers), and, hidden among it, a few accounts acting in
//! concert (the same text in bursts, near-same text with one link, one hashtag set in bursts,
//! a ring reposting one account within seconds).
//!
//! Nothing in a post, an account or an answer of the service marks which is which: the
//! accounts look like any other, and organic and concerted posts share hashtags and hours.
//! Which accounts act in concert is written down for the tests alone
//! (`tests/fixtures/planted_campaigns.json`); a unit test below keeps that file and this one
//! in step.
//!
//! Everything here is drawn from its own random stream, and the seeded world is not touched:
//! new accounts come after the seeded ones, new posts are merged into it by time with ids of
//! their own (`generate::merge_added`), and no seeded post gains a reply, quote or repost.

use super::corpus::{COUNTRIES, ORGS, TOPICS};
use super::{snowflake, Link, Page, PageKind, Post, User, DAY_MS};
use crate::rng::{url_safe_chars, Rng};

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;

/// What is added to the seeded world.
#[derive(Default)]
pub struct Added {
    /// New accounts, to be appended after the seeded ones (their indices already count them).
    pub users: Vec<User>,
    /// New original posts, in no particular order; their `conversation` is set by the merge.
    pub posts: Vec<Post>,
    /// Reposts of the new posts.
    pub reposts: Vec<AddedRepost>,
}

/// A repost of one of [`Added::posts`].
pub struct AddedRepost {
    pub user: u32,
    /// Index into [`Added::posts`].
    pub post: usize,
    pub created_ms: i64,
}

/// Accounts that post the very same text within seconds of each other, six times.
pub const SAME_TEXT: [&str; 8] = [
    "nora_vance77",
    "tidewatch_jo",
    "calder_mae",
    "rivet_harlow",
    "quaymaster_b",
    "linnea_portside",
    "ezra_dockline",
    "marlow_hythe",
];
/// Accounts that post near-same wording with the same link within a minute, five times.
pub const SAME_LINK: [&str; 7] = [
    "fenwick_ada",
    "harbourtruth_sam",
    "odette_reyes",
    "pell_granger",
    "saltmarsh_ivy",
    "tobin_achter",
    "wren_castellan",
];
/// Accounts that post different words under one hashtag set within a minute, five times.
pub const SAME_TAGS: [&str; 6] = [
    "measure7_no",
    "gull_and_gavel",
    "brisk_ottoline",
    "kestrel_dunmore",
    "haven_ilse",
    "pierpoint_lou",
];
/// The account whose posts the ring reposts.
pub const RING_HUB: &str = "portside_insider";
/// Accounts that repost the hub's posts within seconds.
pub const RING: [&str; 10] = [
    "anchorline_kai",
    "bollard_beth",
    "capstan_rui",
    "drydock_dee",
    "estuary_finn",
    "ferrygirl_ola",
    "gantry_gus",
    "hawser_hal",
    "inlet_ines",
    "jetty_jules",
];

const FIRE: &str = "HarbourFire";
const DEAL: &str = "PortDeal";
const CLEAN: &str = "CleanHarbour";
const MEASURE: &str = "NoOnMeasure7";
const CUP: &str = "CupFinal";
const GOAL: &str = "GOAL";
const BREAKING: &str = "BreakingNews";

/// Built with its own stream; `first_n` numbers the new posts' ids after the seeded ones.
pub fn plant(seed: u64, now_ms: i64, seeded: &[User], pages: &[Page], first_n: u64) -> Added {
    let mut p = Planter {
        rng: Rng::derive(seed, 0xC0_0D),
        now_ms,
        seeded,
        pages,
        first_n,
        added: Added {
            users: Vec::new(),
            posts: Vec::new(),
            reposts: Vec::new(),
        },
    };
    // The fire breaks out 30 hours before "now"; the final kicks off 16 hours before.
    let fire = now_ms - 30 * HOUR;
    let kick_off = now_ms - 16 * HOUR;
    organic_fire(&mut p, fire);
    organic_final(&mut p, kick_off);
    organic_clean_ups(&mut p);
    same_text(&mut p, fire);
    same_link(&mut p, fire);
    same_tags(&mut p, fire);
    ring(&mut p, fire);
    p.added
}

struct Planter<'a> {
    rng: Rng,
    now_ms: i64,
    seeded: &'a [User],
    pages: &'a [Page],
    first_n: u64,
    added: Added,
}

impl Planter<'_> {
    /// A new account with an ordinary-looking profile, younger and smaller than most.
    fn account(&mut self, handle: &str, followers: u64) -> u32 {
        let rng = &mut self.rng;
        let english: Vec<usize> = (0..COUNTRIES.len())
            .filter(|&c| COUNTRIES[c].lang == 0)
            .collect();
        let country = rng.pick(&english);
        let name = display_name(handle);
        let topic = TOPICS
            .iter()
            .position(|t| t.key == "elections")
            .unwrap_or(0);
        const BIOS: [&str; 5] = [
            "Local. Opinions my own.",
            "Dad, sailor, coffee. Here for the news.",
            "Harbour town born and raised.",
            "Reading everything, trusting little.",
            "Nurse. Runner. Tired.",
        ];
        let index = (self.seeded.len() + self.added.users.len()) as u32;
        self.added.users.push(User {
            id: 10_000_000 + rng.next_u64() % 1_900_000_000_000_000_000,
            username: handle.to_string(),
            name,
            lang: 0,
            country: country as u8,
            location: rng.pick(COUNTRIES[country].cities),
            description: rng.pick(&BIOS).to_string(),
            created_at_ms: self.now_ms - (40 + rng.below(500) as i64) * DAY_MS,
            followers: followers / 2 + rng.below(followers as usize + 1) as u64,
            followings: 150 + rng.below(900) as u64,
            favourites: 200 + rng.below(5_000) as u64,
            listed: rng.below(4) as u64,
            media_count: 0,
            statuses: 20 + rng.below(2_000) as u64,
            verified: false,
            blue_verified: rng.chance(0.1),
            can_dm: rng.chance(0.4),
            professional: None,
            topic: topic as u8,
            pinned: None,
            image_key: url_safe_chars(rng, 8),
        });
        index
    }

    /// Seeded English-speaking people (not news desks), `n` of them, all different.
    fn people(&mut self, n: usize) -> Vec<u32> {
        let mut pool: Vec<u32> = (ORGS.len()..self.seeded.len())
            .filter(|&u| self.seeded[u].lang == 0)
            .map(|u| u as u32)
            .collect();
        for i in 0..n.min(pool.len()) {
            let j = i + self.rng.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(n);
        pool
    }

    fn desk(&self, handle: &str) -> u32 {
        ORGS.iter()
            .position(|o| o.1 == handle)
            .expect("a seeded news desk") as u32
    }

    /// A web page of a topic, to link to.
    fn page(&mut self, topic: &str) -> u32 {
        let t = TOPICS.iter().position(|x| x.key == topic).unwrap_or(0) as u8;
        let found: Vec<u32> = (0..self.pages.len())
            .filter(|&i| self.pages[i].topic == t && self.pages[i].kind == PageKind::Web)
            .map(|i| i as u32)
            .collect();
        self.rng.pick(&found)
    }

    /// A new post: `body`, then its hashtags, then its link's short form, as X writes them.
    fn post(
        &mut self,
        author: u32,
        created_ms: i64,
        body: &str,
        tags: &[&'static str],
        page: Option<u32>,
    ) -> usize {
        let mut text = body.to_string();
        let mut mentions = Vec::new();
        // A leading `@handle` is a mention of that account.
        if let Some(rest) = body.strip_prefix('@') {
            let handle = rest.split(' ').next().unwrap_or_default();
            if let Some(u) = ORGS.iter().position(|o| o.1 == handle) {
                mentions.push(u as u32);
            }
        }
        for tag in tags {
            text.push_str(" #");
            text.push_str(tag);
        }
        let mut links = Vec::new();
        if let Some(page) = page {
            let short = format!("https://t.co/{}", url_safe_chars(&mut self.rng, 10));
            text.push(' ');
            text.push_str(&short);
            links.push(Link { short, page });
        }
        let rng = &mut self.rng;
        let likes = rng.long_tail(6.0, 1.2, 5_000);
        let k = self.added.posts.len();
        let created_ms = created_ms.min(self.now_ms - MINUTE);
        self.added.posts.push(Post {
            id: snowflake(created_ms, 0, self.first_n + k as u64),
            author,
            created_ms,
            lower: text.to_lowercase().into(),
            text: text.into(),
            lang: 0,
            topic: self.seeded.get(author as usize).map_or(5, |u| u.topic),
            hashtags: tags.to_vec().into(),
            symbols: Box::new([]),
            mentions: mentions.into(),
            links: links.into(),
            media: Box::new([]),
            reply_to: None,
            quote_of: None,
            conversation: 0,
            likes,
            retweets: 0,
            replies: 0,
            quotes: 0,
            bookmarks: likes / 12,
            views: likes * (30 + rng.below(60) as u64) + 40 + rng.below(900) as u64,
        });
        k
    }

    fn repost(&mut self, user: u32, post: usize, created_ms: i64) {
        self.added.reposts.push(AddedRepost {
            user,
            post,
            created_ms: created_ms.min(self.now_ms - MINUTE),
        });
    }

    /// Seconds after a moment, most soon, some late (exponential, capped at `cap_s`).
    fn after(&mut self, at: i64, mean_s: f64, cap_s: f64) -> i64 {
        let u = 1.0 - self.rng.unit();
        at + ((-u.ln() * mean_s).min(cap_s) * 1000.0) as i64
    }
}

/// "nora_vance77" → "Nora Vance".
fn display_name(handle: &str) -> String {
    handle
        .split('_')
        .map(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()))
        .filter(|w| w.len() > 1)
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `{a|b}` picks one of its choices: "the {harbour|waterfront}".
fn variant(rng: &mut Rng, template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("closed choice");
        let choices: Vec<&str> = rest[open + 1..close].split('|').collect();
        out.push_str(rng.pick(&choices));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

const FIRE_SAYS: [&str; 26] = [
    "Huge column of smoke over the harbour right now. Stay safe everyone",
    "Sirens everywhere near the docks, anyone know what's burning?",
    "Roads around the harbour are closed, avoid the area",
    "You can see the flames from the bridge. Terrifying",
    "My office just got evacuated, smoke is coming in through the vents",
    "Praying for the firefighters at the harbour tonight",
    "Warehouse at pier 4 fully on fire, this is bad",
    "Ferries cancelled until further notice because of the fire",
    "Keep your windows shut if you live near the port, the smoke is thick",
    "Just saw six fire engines heading down Quay Road",
    "The whole sky is orange over the old docks",
    "Hope nobody was inside that warehouse",
    "Fire crews say the blaze is contained but not out",
    "Buses diverted away from the harbour, expect delays",
    "Ash falling on cars two streets away from the port",
    "Local school closed tomorrow because of the smoke",
    "Firefighters have been at it for three hours now, respect",
    "Is the fish market ok? Anyone near there?",
    "Power cut in the harbour district since the fire started",
    "Watching the live stream, the roof just collapsed",
    "Air quality alert issued for the east side",
    "Volunteers handing out water to the crews at the harbour gate",
    "That smell is going to linger for days",
    "Thank you to everyone who checked in on us tonight",
    "The port authority says everyone is accounted for",
    "Cannot believe this is happening again at the harbour",
];

const DESK_UPDATES: [&str; 6] = [
    "Live: a large fire has broken out at a warehouse in the harbour district",
    "Update: residents near the port are asked to keep windows closed",
    "Update: ferry services suspended while crews fight the harbour fire",
    "Update: fire crews say the harbour blaze is now contained",
    "Update: the port authority says all workers are accounted for",
    "What we know so far about the harbour fire",
];

/// Many people post about the fire at once, each once or twice, many linking the same news;
/// two news desks post updates that their readers repost (some within a minute).
fn organic_fire(p: &mut Planter<'_>, fire: i64) {
    let news = [p.page("climate"), p.page("climate")];
    for person in p.people(46) {
        let posts = if p.rng.chance(0.3) { 2 } else { 1 };
        for _ in 0..posts {
            let at = p.after(fire, 900.0, 3.0 * 3600.0);
            let says = p.rng.pick(&FIRE_SAYS);
            let mut tags = vec![FIRE];
            if p.rng.chance(0.15) {
                tags.push(BREAKING);
            }
            let link = p.rng.chance(0.3).then(|| p.rng.pick(&news));
            p.post(person, at, says, &tags, link);
        }
    }
    let desks = [p.desk("climatedesk"), p.desk("dailyledger")];
    let readers = p.people(150);
    for (n, says) in DESK_UPDATES.iter().enumerate() {
        let desk = desks[n % 2];
        let at = fire + 4 * MINUTE + n as i64 * 35 * MINUTE;
        let link = Some(news[n % 2]);
        let post = p.post(desk, at, says, &[FIRE, BREAKING], link);
        let mut shared = readers.clone();
        for i in 0..28 {
            let j = i + p.rng.below(shared.len() - i);
            shared.swap(i, j);
            // A few readers repost within a minute, the rest over the next hours.
            let when = if i < 4 {
                p.after(at, 25.0, 90.0)
            } else {
                p.after(at + MINUTE, 3_600.0, 8.0 * 3600.0)
            };
            p.repost(shared[i], post, when);
        }
    }
}

const GOAL_SAYS: [&str; 12] = [
    "GOAL!!!",
    "GOOOOOOAL",
    "What a strike!!",
    "YESSSS",
    "Get in there!",
    "Unbelievable finish",
    "What a goal",
    "Scenes!!!",
    "I can't breathe",
    "He's done it again",
    "Top corner!!",
    "WHAT A GOAL",
];

const MATCH_SAYS: [&str; 10] = [
    "Kick off! Let's go",
    "Nervy start from both sides",
    "That was never a yellow card",
    "Half time, what a game so far",
    "The midfield is getting overrun",
    "Need a sub, we're tiring",
    "The atmosphere in the stadium is unreal",
    "Ref is having a shocker",
    "Five minutes of added time",
    "Full time! Champions!",
];

/// A final with three goals: fans post at each goal within seconds (the same few words, the
/// same hashtag), and the match desk's goal posts are reposted by its followers as fast.
fn organic_final(p: &mut Planter<'_>, kick_off: i64) {
    let goals = [18, 57, 83].map(|m| kick_off + m * MINUTE);
    let desk = p.desk("pitchside");
    let fans = p.people(40);
    for &fan in &fans {
        for &goal in &goals {
            if p.rng.chance(0.6) {
                let at = p.after(goal, 20.0, 80.0);
                let says = p.rng.pick(&GOAL_SAYS);
                let tags: &[&'static str] = if p.rng.chance(0.3) {
                    &[CUP, GOAL]
                } else {
                    &[CUP]
                };
                p.post(fan, at, says, tags, None);
            }
        }
        if p.rng.chance(0.3) {
            let at = kick_off + p.rng.below(100) as i64 * MINUTE;
            let says = p.rng.pick(&MATCH_SAYS);
            p.post(fan, at, says, &[CUP], None);
        }
    }
    let followers = p.people(120);
    for (n, &goal) in goals.iter().enumerate() {
        let at = goal + 15_000;
        let says = [
            "GOAL! 1-0 in the final",
            "GOAL! 1-1, game on",
            "GOAL! 2-1 late on",
        ][n];
        let post = p.post(desk, at, says, &[CUP], None);
        let mut shared = followers.clone();
        for i in 0..20 {
            let j = i + p.rng.below(shared.len() - i);
            shared.swap(i, j);
            let when = p.after(at, 40.0, 1_800.0);
            p.repost(shared[i], post, when);
        }
    }
}

/// A hashtag people use now and then, days apart, that one group also uses.
fn organic_clean_ups(p: &mut Planter<'_>) {
    const SAYS: [&str; 5] = [
        "Beach clean-up on Saturday, bring gloves",
        "Filled four bags of plastic at the harbour wall this morning",
        "Great turnout at the clean-up today, thank you all",
        "Who's joining the river walk clean-up next week?",
        "The harbour looks so much better after today's clean-up",
    ];
    for (n, person) in p.people(10).into_iter().enumerate() {
        let at = p.now_ms - (2 + 2 * n as i64) * DAY_MS - p.rng.below(600) as i64 * MINUTE;
        let says = p.rng.pick(&SAYS);
        p.post(person, at, says, &[CLEAN], None);
    }
}

const SAME_TEXT_SAYS: [(&str, &[&str]); 6] = [
    (
        "The harbour fire was no accident. Ask who gains from the port deal.",
        &[FIRE],
    ),
    (
        "Three fires in a year at the same harbour. Coincidence?",
        &[FIRE, DEAL],
    ),
    (
        "They want the old docks empty before the vote. Don't look away.",
        &[DEAL],
    ),
    (
        "Why is nobody asking about the insurance on those warehouses?",
        &[FIRE],
    ),
    (
        "The council knew about the fire risk and did nothing. Share this.",
        &[DEAL],
    ),
    (
        "Vote no on Measure 7. Our harbour is not for sale.",
        &[DEAL],
    ),
];

/// Eight accounts post the same words within 40 seconds, six times over a day; some put a
/// news desk's handle in front, as if telling it.
fn same_text(p: &mut Planter<'_>, fire: i64) {
    let members: Vec<u32> = SAME_TEXT.iter().map(|h| p.account(h, 300)).collect();
    let at = [20, 120, 300, 540, 900, 1_320].map(|m| fire + m * MINUTE);
    for (n, (says, tags)) in SAME_TEXT_SAYS.iter().enumerate() {
        for (m, &member) in members.iter().enumerate() {
            // One member sits one burst out.
            if m == n {
                continue;
            }
            let when = at[n] + p.rng.below(40_000) as i64;
            let text = if p.rng.chance(0.2) {
                format!("@civicpulse {says}")
            } else {
                (*says).to_string()
            };
            p.post(member, when, &text, tags, None);
        }
    }
}

const SAME_LINK_SAYS: [&str; 5] = [
    "A new report shows the port deal {hands|gives} the {harbour|waterfront} to one developer and {nobody|no one} on the council will {say|explain} why",
    "{Read|Look at} this before the vote: the developer behind the port deal {donated|gave money} to three councillors {last year|in 2025}",
    "The port deal {documents|papers} show the warehouses were {insured|covered} for twice their value {weeks|days} before the fire",
    "{Leaked|Secret} minutes: the council {discussed|talked about} clearing the old docks {months|a year} before the harbour fire",
    "{Everyone|Everybody} should {read|see} how the port deal {skips|avoids} the public inquiry the harbour {deserves|needs}",
];

/// Seven accounts post near-same wording with the same link within a minute, five times.
fn same_link(p: &mut Planter<'_>, fire: i64) {
    let members: Vec<u32> = SAME_LINK.iter().map(|h| p.account(h, 500)).collect();
    let at = [60, 240, 480, 780, 1_200].map(|m| fire + m * MINUTE);
    let pages = [p.page("elections"), p.page("markets")];
    for (n, template) in SAME_LINK_SAYS.iter().enumerate() {
        for &member in &members {
            let when = at[n] + p.rng.below(55_000) as i64;
            let mut text = variant(&mut p.rng, template);
            text.push_str(p.rng.pick(&[".", "!", ". Read it.", ""]));
            p.post(member, when, &text, &[DEAL], Some(pages[n % 2]));
        }
    }
}

const SAME_TAGS_SAYS: [&str; 20] = [
    "Our kids deserve a harbour they can swim in",
    "Measure 7 sells the waterfront for nothing",
    "I grew up fishing off that wall, it's not for sale",
    "Ask your councillor where they stand",
    "Polls open at 7, bring a neighbour",
    "The developer has never built anything here",
    "Clean water first, towers later",
    "Who benefits? Not the people who live here",
    "Read the small print before you vote",
    "Our harbour, our say",
    "Thirty years of promises and still no clean-up",
    "Save the old fish market",
    "They're counting on you not turning up",
    "Every vote counts on this one",
    "The harbour belongs to the town",
    "Don't let them pave the docks",
    "Local jobs, not luxury flats",
    "The fire changes nothing about the facts",
    "Talk to your family about Measure 7",
    "See you at the harbour wall on Sunday",
];

/// Six accounts post different words under the same two hashtags within a minute, five times.
fn same_tags(p: &mut Planter<'_>, fire: i64) {
    let members: Vec<u32> = SAME_TAGS.iter().map(|h| p.account(h, 400)).collect();
    let at = [180, 420, 720, 1_080, 1_500].map(|m| fire + m * MINUTE);
    let mut says: Vec<&str> = SAME_TAGS_SAYS.to_vec();
    for &start in &at {
        for &member in &members {
            let when = start + p.rng.below(50_000) as i64;
            // Each says something nobody else in the burst says.
            let i = p.rng.below(says.len());
            let text = says.swap_remove(i);
            if says.is_empty() {
                says = SAME_TAGS_SAYS.to_vec();
            }
            p.post(member, when, text, &[CLEAN, MEASURE], None);
        }
    }
}

const HUB_SAYS: [&str; 8] = [
    "Sources tell me the port deal was signed before the fire was even out",
    "The harbour fire investigation has been handed to a friend of the developer",
    "Ask yourself why the warehouse cameras were off that night",
    "Port deal: the numbers they don't want you to see, thread tomorrow",
    "Another councillor linked to the developer. That's four",
    "The insurers are already paying out. Fast, isn't it?",
    "Measure 7 vote moved up a week. Why the rush?",
    "I'm told more documents drop tonight. Stay tuned",
];

/// One account posts eight times over a day; ten accounts repost nearly every post within
/// seconds of it.
fn ring(p: &mut Planter<'_>, fire: i64) {
    let hub = p.account(RING_HUB, 3_000);
    let members: Vec<u32> = RING.iter().map(|h| p.account(h, 200)).collect();
    let link = p.page("elections");
    for (n, says) in HUB_SAYS.iter().enumerate() {
        let at = fire + 30 * MINUTE + n as i64 * 170 * MINUTE;
        let page = (n % 3 == 0).then_some(link);
        let post = p.post(hub, at, says, &[DEAL], page);
        for &member in &members {
            if p.rng.chance(0.85) {
                let when = at + 3_000 + p.rng.below(42_000) as i64;
                p.repost(member, post, when);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The file the tests read names exactly the accounts planted here, group by group.
    #[test]
    fn the_tests_ground_truth_names_the_planted_accounts() {
        let text = include_str!("../../tests/fixtures/planted_campaigns.json");
        let truth: Value = serde_json::from_str(text).unwrap();
        let listed = |name: &str| -> Vec<String> {
            truth["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["name"] == name)
                .unwrap()["accounts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_string())
                .collect()
        };
        let strings = |s: &[&str]| s.iter().map(|h| h.to_string()).collect::<Vec<_>>();
        assert_eq!(listed("same_text"), strings(&SAME_TEXT));
        assert_eq!(listed("same_link"), strings(&SAME_LINK));
        assert_eq!(listed("same_tags"), strings(&SAME_TAGS));
        let mut ring = vec![RING_HUB.to_string()];
        ring.extend(strings(&RING));
        assert_eq!(listed("repost_ring"), ring);
    }

    /// Every seeded post, account and repost is as it would be with nothing added: same id,
    /// text, time, counts, thread, quote, pin and reposters (compared by id, as indices move).
    #[test]
    fn nothing_seeded_changes() {
        const NOW: i64 = 1_790_000_000_000;
        let with = super::super::generate::build_with(42, NOW, true);
        let without = super::super::generate::build_with(42, NOW, false);
        assert!(with.posts.len() > without.posts.len() + 250);
        assert_eq!(with.users.len(), without.users.len() + 32);
        let id = |w: &super::super::World, i: Option<u32>| i.map(|i| w.posts[i as usize].id);
        let reposters = |w: &super::super::World, i: usize| -> Vec<(u32, u64, i64)> {
            w.retweets_of[i]
                .iter()
                .map(|&r| {
                    let r = &w.retweets[r as usize];
                    (r.user, r.id, r.created_ms)
                })
                .collect()
        };
        for (i, p) in without.posts.iter().enumerate() {
            let j = with.post_by_id[&p.id] as usize;
            let q = &with.posts[j];
            assert_eq!(
                (&q.text, q.created_ms, q.author),
                (&p.text, p.created_ms, p.author)
            );
            assert_eq!(
                (q.likes, q.retweets, q.replies, q.quotes, q.views),
                (p.likes, p.retweets, p.replies, p.quotes, p.views)
            );
            assert_eq!(id(&with, q.reply_to), id(&without, p.reply_to));
            assert_eq!(id(&with, q.quote_of), id(&without, p.quote_of));
            assert_eq!(
                with.posts[q.conversation as usize].id,
                without.posts[p.conversation as usize].id
            );
            assert_eq!(reposters(&with, j), reposters(&without, i));
        }
        for (u, user) in without.users.iter().enumerate() {
            let other = &with.users[u];
            assert_eq!((&other.username, other.id), (&user.username, user.id));
            assert_eq!(id(&with, other.pinned), id(&without, user.pinned));
        }
        // Posts stay in time order, ids unique; planted handles are taken by nobody else.
        assert!(with
            .posts
            .windows(2)
            .all(|w| w[0].created_ms <= w[1].created_ms));
        assert_eq!(with.post_by_id.len(), with.posts.len());
        assert_eq!(with.user_by_name.len(), with.users.len());
    }

    #[test]
    fn choices_are_expanded() {
        let mut rng = Rng::new(1);
        let s = variant(&mut rng, "the {harbour|waterfront} is {ours|not for sale}");
        assert!(s.starts_with("the "));
        assert!(!s.contains('{') && !s.contains('|'));
        assert_eq!(display_name("nora_vance77"), "Nora Vance");
    }
}
