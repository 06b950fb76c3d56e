//! A post's conversation tree from what is stored: up from the post through the replies it
//! answers while those are stored, then down through every stored reply and quote. What is
//! missing is said: the post the top replies to when it is not stored, and each post whose
//! thread the service counts more replies in than are held. The service's count is the whole
//! thread below a post (replies to replies too, what its replies request returns), so the
//! replies held are counted the same way; and a thread the service was asked for since its
//! count was taken, which came back without them, is said to be so (fetching it again would
//! pay for nothing new).

use std::collections::{HashMap, HashSet};

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::types::{ConversationNode, ConversationTree, MissingReplies, TreeRelation};
use crate::error::Result;
use crate::time::from_ms;
use crate::Store;

/// A tree stops growing at this many posts (a thread the size of a whole archive is not read
/// into one answer).
pub const TREE_LIMIT: usize = 5_000;

/// The most replies one replies request may ask for (the service's limit).
pub const REPLIES_PER_REQUEST: i64 = 100;

/// Steps up a reply chain at most (a loop in bad data cannot hold the walk).
const CHAIN_LIMIT: usize = 1_000;

const NODE_COLUMNS: &str = "p.id, p.author_username, p.author_name, p.text, p.created_at, \
    p.reply_count, f.reply_to_id, p.last_seen";

struct TreePost {
    id: String,
    author_username: String,
    author_name: String,
    text: String,
    created_at: i64,
    reply_count: i64,
    reply_to_id: Option<String>,
    /// When the post (and so its reply count) was last stored.
    last_seen: i64,
}

fn read(row: &SqliteRow) -> Result<TreePost> {
    Ok(TreePost {
        id: row.try_get(0)?,
        author_username: row.try_get(1)?,
        author_name: row.try_get(2)?,
        text: row.try_get(3)?,
        created_at: row.try_get(4)?,
        reply_count: row.try_get(5)?,
        reply_to_id: row.try_get(6)?,
        last_seen: row.try_get(7)?,
    })
}

impl Store {
    async fn tree_post(&self, id: &str) -> Result<Option<TreePost>> {
        let row = sqlx::query(&format!(
            "SELECT {NODE_COLUMNS} FROM posts p JOIN post_facts f ON f.post_pk = p.pk
             WHERE p.id = ?"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(read).transpose()
    }

    /// Stored replies and quotes of a post, oldest first.
    async fn tree_children(&self, id: &str) -> Result<Vec<TreePost>> {
        let rows = sqlx::query(&format!(
            "SELECT {NODE_COLUMNS} FROM post_facts f JOIN posts p ON p.pk = f.post_pk
             WHERE f.reply_to_id = ?1
             UNION
             SELECT {NODE_COLUMNS} FROM post_facts f JOIN posts p ON p.pk = f.post_pk
             WHERE f.quoted_id = ?1
             ORDER BY 5, 1"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(read).collect()
    }

    /// The conversation tree around a stored post; `None` when the post is not stored.
    pub async fn conversation_tree(&self, post_id: &str) -> Result<Option<ConversationTree>> {
        let Some(mut top) = self.tree_post(post_id.trim()).await? else {
            return Ok(None);
        };
        let mut root_parent_missing = None;
        let mut climbed = HashSet::from([top.id.clone()]);
        while let Some(parent_id) = top.reply_to_id.clone() {
            if climbed.len() > CHAIN_LIMIT || !climbed.insert(parent_id.clone()) {
                break;
            }
            match self.tree_post(&parent_id).await? {
                Some(parent) => top = parent,
                None => {
                    root_parent_missing = Some(parent_id);
                    break;
                }
            }
        }

        let root_id = top.id.clone();
        let mut nodes = Vec::new();
        let mut last_seen = Vec::new();
        let mut seen = HashSet::from([root_id.clone()]);
        // Depth first, children in time order: a stack of (post, parent, depth, relation).
        let mut stack = vec![(top, None::<String>, 0_u32, TreeRelation::Root)];
        while let Some((post, parent_id, depth, relation)) = stack.pop() {
            let children = if nodes.len() < TREE_LIMIT {
                self.tree_children(&post.id).await?
            } else {
                Vec::new()
            };
            let id = post.id.clone();
            last_seen.push(post.last_seen);
            nodes.push(ConversationNode {
                id: post.id,
                parent_id,
                depth,
                relation,
                author_username: post.author_username,
                author_name: post.author_name,
                text: post.text,
                created_at: from_ms(post.created_at),
                reply_count: post.reply_count,
                // Counted below, once the whole tree is read.
                replies_held: 0,
            });
            for child in children.into_iter().rev() {
                if !seen.insert(child.id.clone()) {
                    continue;
                }
                let relation = if child.reply_to_id.as_deref() == Some(id.as_str()) {
                    TreeRelation::Reply
                } else {
                    TreeRelation::Quote
                };
                stack.push((child, Some(id.clone()), depth + 1, relation));
            }
        }
        count_threads(&mut nodes);
        let asked = self.replies_asked(&nodes).await?;
        let missing = missing_replies(&nodes, &last_seen, &asked);
        Ok(Some(ConversationTree {
            root_id,
            nodes,
            root_parent_missing,
            missing,
        }))
    }

    /// The replies requests answered for posts of the tree: by post, when each was sent
    /// (ms), how many it asked for, and whether its answer held fewer (so all the service
    /// would give).
    async fn replies_asked(
        &self,
        nodes: &[ConversationNode],
    ) -> Result<HashMap<String, Vec<Asked>>> {
        let ids: Vec<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        let rows: Vec<(String, i64, i64, Option<i64>)> = sqlx::query_as(
            "SELECT json_extract(params_json, '$.post_id'), started_at, result_count,
                    json_extract(params_json, '$.count')
             FROM history
             WHERE operation = 'twitter_replies_post' AND status IN ('ok', 'not_modified')
               AND json_extract(params_json, '$.post_id') IN (SELECT value FROM json_each(?))",
        )
        .bind(serde_json::to_string(&ids)?)
        .fetch_all(&self.pool)
        .await?;
        let mut asked: HashMap<String, Vec<Asked>> = HashMap::new();
        for (post_id, at, returned, count) in rows {
            asked.entry(post_id).or_default().push(Asked {
                at,
                count: count.unwrap_or(0),
                complete: count.is_some_and(|count| returned < count),
            });
        }
        Ok(asked)
    }
}

/// A replies request sent for a post.
struct Asked {
    at: i64,
    count: i64,
    complete: bool,
}

/// Each post's replies held: every post below it along replies (not quotes, whose replies are
/// their own thread), as the service counts them. `nodes` is depth first, so each post's
/// descendants follow it and a post is counted into its parent after its own are.
fn count_threads(nodes: &mut [ConversationNode]) {
    let at: HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.clone(), i))
        .collect();
    for i in (0..nodes.len()).rev() {
        if nodes[i].relation != TreeRelation::Reply {
            continue;
        }
        let Some(&parent) = nodes[i].parent_id.as_ref().and_then(|p| at.get(p)) else {
            continue;
        };
        nodes[parent].replies_held = nodes[parent]
            .replies_held
            .saturating_add(nodes[i].replies_held.saturating_add(1));
    }
}

/// The posts missing replies, most missing first; each with the one above it that misses some
/// too, whether the service was asked for them already, and whether a fetch can bring them.
fn missing_replies(
    nodes: &[ConversationNode],
    last_seen: &[i64],
    asked: &HashMap<String, Vec<Asked>>,
) -> Vec<MissingReplies> {
    let at: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    // The posts above one along replies, nearest first.
    let above = |i: usize| {
        std::iter::successors(Some(i), |&j| {
            let node = &nodes[j];
            (node.relation == TreeRelation::Reply)
                .then(|| node.parent_id.as_deref().and_then(|p| at.get(p).copied()))
                .flatten()
        })
        .skip(1)
    };
    let mut listed: HashMap<usize, MissingReplies> = HashMap::new();
    // Depth first: a post's entry is made before those below it, which look it up.
    for (i, node) in nodes.iter().enumerate() {
        if node.reply_count <= node.replies_held {
            continue;
        }
        let counted = last_seen[i];
        // Sent since the count was taken, a request whose answer held all the service would
        // give (fewer than it asked for), or one for the post itself that asked for all it may.
        let whole = node.reply_count.min(REPLIES_PER_REQUEST);
        let since = |id: &str, own: bool| {
            asked.get(id).is_some_and(|list| {
                list.iter()
                    .any(|a| a.at >= counted && (a.complete || (own && a.count >= whole)))
            })
        };
        let is_asked = since(&node.id, true) || above(i).any(|j| since(&nodes[j].id, false));
        let within = above(i).find(|j| listed.contains_key(j));
        let covered = above(i).any(|j| listed.get(&j).is_some_and(|m| m.fetch));
        listed.insert(
            i,
            MissingReplies {
                post_id: node.id.clone(),
                missing: node.reply_count - node.replies_held,
                within: within.map(|j| nodes[j].id.clone()),
                asked: is_asked,
                fetch: !is_asked && !covered,
            },
        );
    }
    let mut missing: Vec<MissingReplies> = listed.into_values().collect();
    missing.sort_by(|a, b| {
        b.missing
            .cmp(&a.missing)
            .then_with(|| a.post_id.cmp(&b.post_id))
    });
    missing
}
