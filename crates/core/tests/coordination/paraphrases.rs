//! Paraphrases of twenty news sentences, each edited one way and posted by another account
//! ten seconds later, for the near-duplicate signal's recall; and unrelated sentences about
//! the same events, which must not match.

use sightline_store::CoordinationRow;

const SENTENCES: [&str; 20] = [
    "The river burst its banks near the old mill this morning and the road is now closed",
    "Firefighters are still working on the warehouse blaze by the harbour as smoke covers the bay",
    "The mayor says the new bridge will open next spring once the final safety checks are done",
    "Trains between the north station and the airport are cancelled for the rest of the day",
    "Thousands gathered in the main square tonight to celebrate the cup final win with the team",
    "Health officials confirm the clinic on the west side will stay open late all this week",
    "A power cut has left most of the east district without light since the storm last night",
    "Police have closed the coastal road after a lorry lost its load near the lighthouse turn",
    "The school board voted to delay the start of term by one week because of the repairs",
    "Volunteers are handing out blankets and hot food at the sports hall until midnight tonight",
    "The airport expects long queues this weekend as staff shortages hit the security checks",
    "Farmers say the late frost has ruined most of the apple harvest across the valley this year",
    "The city museum reopens on Saturday with a free exhibition about the history of the docks",
    "Heavy snow is forecast for the hills tomorrow so drivers should avoid the mountain pass",
    "The ferry service to the island resumes at noon after two days of strong winds and high seas",
    "Residents of the tower block were moved to a hotel after cracks appeared in the walls",
    "The central library will lend laptops to students who have no computer at home this term",
    "A new cycle lane along the canal opens on Monday linking the university and the old town",
    "Water in the southern suburbs must be boiled before drinking until further notice is given",
    "The festival organisers have moved the opening concert indoors because of the heavy rain",
];

const UNRELATED: [&str; 4] = [
    "Cannot believe what is happening out there, stay safe everyone and look after neighbours",
    "Just saw the news, my cousin lives nearby and says it is much worse than they say",
    "Why does this always happen to our town, somebody needs to answer for it",
    "Thoughts with all the families tonight, what a terrible day for the whole city",
];

fn edit(sentence: &str, how: &str) -> String {
    let mut words: Vec<&str> = sentence.split(' ').collect();
    let middle = words.len() / 2;
    match how {
        "one word swapped" => {
            words[middle] = "suddenly";
            words.join(" ")
        }
        "two words swapped" => {
            words[3] = "suddenly";
            let near_end = words.len() - 4;
            words[near_end] = "reportedly";
            words.join(" ")
        }
        "a word dropped" => {
            words.remove(middle);
            words.join(" ")
        }
        "a hashtag added" => format!("{sentence} #breaking"),
        "punctuation changed" => format!(
            "{}!!! {}...",
            words[..middle].join(", "),
            words[middle..].join(" ")
        ),
        "a sentence added" => format!("{sentence}. Share this with everyone you know today"),
        other => unreachable!("{other}"),
    }
}

const EDITS: [&str; 6] = [
    "one word swapped",
    "two words swapped",
    "a word dropped",
    "a hashtag added",
    "punctuation changed",
    "a sentence added",
];

/// The posts, and the pairs `(original id, paraphrase id, how it was edited)`.
pub fn scope() -> (Vec<CoordinationRow>, Vec<(String, String, &'static str)>) {
    let start = 1_795_000_000_000i64;
    let mut rows = Vec::new();
    let mut pairs = Vec::new();
    let mut post = |id: String, author: String, at_ms: i64, text: String| {
        rows.push(CoordinationRow {
            pk: 0,
            id,
            author,
            at_ms,
            text,
            links: Vec::new(),
            hashtags: Vec::new(),
            reply_to_id: None,
            repost_of: None,
            repost_of_at_ms: None,
        });
    };
    for (s, sentence) in SENTENCES.iter().enumerate() {
        // Each sentence an hour apart: only its own paraphrases are within the window.
        let at = start + s as i64 * 3_600_000;
        let original = format!("orig{s}");
        post(
            original.clone(),
            format!("writer{s}"),
            at,
            (*sentence).to_owned(),
        );
        for (e, how) in EDITS.iter().enumerate() {
            let id = format!("para{s}_{e}");
            post(
                id.clone(),
                format!("copier{s}_{e}"),
                at + 10_000,
                edit(sentence, how),
            );
            pairs.push((original.clone(), id, *how));
        }
        let id = format!("other{s}");
        post(
            id.clone(),
            format!("bystander{s}"),
            at + 5_000,
            UNRELATED[s % UNRELATED.len()].to_owned(),
        );
        pairs.push((original.clone(), id, "unrelated, same event"));
    }
    (rows, pairs)
}
