//! A post's conversation tree from what is stored: up from the post through the replies it
//! answers while those are stored, then down through every stored reply and quote. What is
//! missing is said: the post the top replies to when it is not stored, and each post whose
//! replies the service counts more of than are held.

use std::collections::HashSet;

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::types::{ConversationNode, ConversationTree, MissingReplies, TreeRelation};
use crate::error::Result;
use crate::time::from_ms;
use crate::Store;

/// A tree stops growing at this many posts (a thread the size of a whole archive is not read
/// into one answer).
pub const TREE_LIMIT: usize = 5_000;

/// Steps up a reply chain at most (a loop in bad data cannot hold the walk).
const CHAIN_LIMIT: usize = 1_000;

const NODE_COLUMNS: &str = "p.id, p.author_username, p.author_name, p.text, p.created_at, \
    p.reply_count, f.reply_to_id";

struct TreePost {
    id: String,
    author_username: String,
    author_name: String,
    text: String,
    created_at: i64,
    reply_count: i64,
    reply_to_id: Option<String>,
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
        let mut seen = HashSet::from([root_id.clone()]);
        // Depth first, children in time order: a stack of (post, parent, depth, relation).
        let mut stack = vec![(top, None::<String>, 0_u32, TreeRelation::Root)];
        while let Some((post, parent_id, depth, relation)) = stack.pop() {
            let children = if nodes.len() < TREE_LIMIT {
                self.tree_children(&post.id).await?
            } else {
                Vec::new()
            };
            let replies_held = children
                .iter()
                .filter(|child| child.reply_to_id.as_deref() == Some(post.id.as_str()))
                .count();
            let id = post.id.clone();
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
                replies_held: i64::try_from(replies_held).unwrap_or(i64::MAX),
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
        let mut missing: Vec<MissingReplies> = nodes
            .iter()
            .filter(|node| node.reply_count > node.replies_held)
            .map(|node| MissingReplies {
                post_id: node.id.clone(),
                missing: node.reply_count - node.replies_held,
            })
            .collect();
        missing.sort_by(|a, b| {
            b.missing
                .cmp(&a.missing)
                .then_with(|| a.post_id.cmp(&b.post_id))
        });
        Ok(Some(ConversationTree {
            root_id,
            nodes,
            root_parent_missing,
            missing,
        }))
    }
}
