//! An X search for a word many of the sandbox's posts hold: X reads are billed per post found,
//! so a test's search finds as many posts as it asks for.

use sightline_api::request::TwitterSearchRequest;
use sightline_sandbox::Sandbox;

/// Up to `count` posts holding the same common word of the sandbox's world.
pub fn search(sandbox: &Sandbox, count: i64) -> TwitterSearchRequest {
    let world = sandbox.world();
    let word = world
        .token_index
        .iter()
        .filter(|(word, posts)| word.len() > 4 && posts.len() > 200)
        .map(|(word, _)| word)
        .min()
        .expect("the sandbox world has common words");
    TwitterSearchRequest {
        count,
        ..TwitterSearchRequest::new(word.as_str())
    }
}
