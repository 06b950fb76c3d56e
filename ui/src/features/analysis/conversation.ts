/**
 * The conversation tree's pure parts: which posts have children, which are shown given the
 * collapsed branches, where the arrow keys go (the ARIA tree pattern, over the flat
 * depth-first list Rust sends), and the words of the fetch of what it is missing.
 */
import type { ConversationFetch } from '$lib/bindings/ConversationFetch';
import type { ConversationFetchEstimate } from '$lib/bindings/ConversationFetchEstimate';
import type { ConversationNode } from '$lib/bindings/ConversationNode';
import type { ConversationTree } from '$lib/bindings/ConversationTree';
import type { MissingReplies } from '$lib/bindings/MissingReplies';
import { countOf } from '$lib/format';

export interface TreeShape {
  /** Child ids of each post, in display order. */
  children: Map<string, string[]>;
  /** The replies the service counts in each post's thread that are not stored here. */
  missing: Map<string, MissingReplies>;
}

export function treeShape(tree: ConversationTree): TreeShape {
  const children = new Map<string, string[]>();
  for (const node of tree.nodes) {
    if (node.parent_id === null) continue;
    const list = children.get(node.parent_id) ?? [];
    list.push(node.id);
    children.set(node.parent_id, list);
  }
  return { children, missing: new Map(tree.missing.map((entry) => [entry.post_id, entry])) };
}

/** The posts shown: every one whose ancestors are all expanded, in display order. */
export function visibleNodes(tree: ConversationTree, collapsed: ReadonlySet<string>): ConversationNode[] {
  const hidden = new Set<string>();
  const shown: ConversationNode[] = [];
  for (const node of tree.nodes) {
    if (node.parent_id !== null && (hidden.has(node.parent_id) || collapsed.has(node.parent_id))) {
      hidden.add(node.id);
      continue;
    }
    shown.push(node);
  }
  return shown;
}

export type TreeMove = { focus: string } | { expand: string } | { collapse: string } | null;

/** What a key does on the focused post (WAI-ARIA tree view: arrows, Home, End). */
export function treeKey(key: string, focused: string, shown: ConversationNode[], shape: TreeShape, collapsed: ReadonlySet<string>): TreeMove {
  const at = shown.findIndex((node) => node.id === focused);
  if (at < 0) return null;
  const node = shown[at] as ConversationNode;
  const hasChildren = (shape.children.get(node.id)?.length ?? 0) > 0;
  switch (key) {
    case 'ArrowDown':
      return at + 1 < shown.length ? { focus: (shown[at + 1] as ConversationNode).id } : null;
    case 'ArrowUp':
      return at > 0 ? { focus: (shown[at - 1] as ConversationNode).id } : null;
    case 'Home':
      return shown[0] ? { focus: shown[0].id } : null;
    case 'End':
      return shown.length > 0 ? { focus: (shown[shown.length - 1] as ConversationNode).id } : null;
    case 'ArrowRight':
      if (!hasChildren) return null;
      if (collapsed.has(node.id)) return { expand: node.id };
      return { focus: (shape.children.get(node.id) as string[])[0] as string };
    case 'ArrowLeft':
      if (hasChildren && !collapsed.has(node.id)) return { collapse: node.id };
      return node.parent_id !== null ? { focus: node.parent_id } : null;
    default:
      return null;
  }
}

/**
 * The replies missing from the whole tree, counted once: a post's count holds the threads below
 * it, so only the posts with none missing above them add up. `notFetched`: a fetch can still
 * bring them; `notReturned`: the service was asked for them since they were counted and sent
 * them not (a fetch would pay for nothing new, so none is offered); `fetchable`: whether any
 * replies request is worth sending.
 */
export function missingSummary(tree: ConversationTree): { notFetched: number; notReturned: number; fetchable: boolean } {
  let notFetched = 0;
  let notReturned = 0;
  for (const entry of tree.missing) {
    if (entry.within !== null) continue;
    if (entry.asked) notReturned += entry.missing;
    else notFetched += entry.missing;
  }
  return { notFetched, notReturned, fetchable: tree.missing.some((entry) => entry.fetch) };
}

/** What the summary line says of the missing replies, after the count of posts held. */
export function missingWords(summary: { notFetched: number; notReturned: number }): string {
  const parts: string[] = [];
  if (summary.notFetched > 0) parts.push(`${countOf(summary.notFetched, 'reply', 'replies')} the service counts are not fetched yet`);
  if (summary.notReturned > 0) {
    const were = summary.notReturned === 1 ? 'was' : 'were';
    parts.push(`${countOf(summary.notReturned, 'reply', 'replies')} the service counts ${were} not returned when asked`);
  }
  return parts.length > 0 ? parts.join(' · ') : 'every counted reply is here';
}

/** A post's own line: "2 replies not fetched (1 of 3 here)", or not returned when asked. */
export function missingLine(entry: MissingReplies, held: number, counted: number): string {
  const what = entry.asked ? 'not returned when asked' : 'not fetched';
  return `${countOf(entry.missing, 'reply', 'replies')} ${what} (${held} of ${counted} here)`;
}

/** The fetch button's words: the post the first one answers, the missing replies, or both. */
export function fetchLabel(repliesToFetch: boolean, parentMissing: boolean): string {
  if (parentMissing && repliesToFetch) return 'Fetch the post it answers and missing replies';
  return parentMissing ? 'Fetch the post it answers' : 'Fetch missing replies';
}

/** What an estimate asks for: "2 requests for the post it answers and about 3 replies". */
export function estimateAsks(estimate: ConversationFetchEstimate): string {
  const what = [estimate.parent ? 'the post it answers' : '', estimate.replies > 0 ? `about ${countOf(estimate.replies, 'reply', 'replies')}` : ''].filter(Boolean).join(' and ');
  return `${countOf(estimate.requests, 'request', 'requests')} for ${what}`;
}

/**
 * What a fetch brought ("cost" added by the caller): the parent named apart from the replies, and
 * the replies that were new apart from those the service sent that were stored already (it picks
 * which replies it returns, so a fetch can bring none of the missing ones):
 * "Fetched the post it answers and 2 new replies in 2 requests; 1 reply was already stored".
 */
export function fetchedWords(answer: ConversationFetch): string {
  const parent = answer.parentFound === true;
  const replies = answer.newReplies === 0 ? 'no new replies' : countOf(answer.newReplies, 'new reply', 'new replies');
  const what = [parent ? 'the post it answers' : '', answer.newReplies > 0 || !parent ? replies : ''].filter(Boolean).join(' and ');
  const gone = answer.parentFound === false ? ' (the post it answers is no longer on the service)' : '';
  const held = answer.repliesAlreadyHeld;
  const already = held > 0 ? `; ${countOf(held, 'reply', 'replies')} ${held === 1 ? 'was' : 'were'} already stored` : '';
  return `Fetched ${what} in ${countOf(answer.requests, 'request', 'requests')}${gone}${already}`;
}
