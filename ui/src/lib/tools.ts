/**
 * The sources the AI searches can use, with the names people know them by and the keys their
 * results come under (AI search answer and stream, web links answer). Order is display order.
 */
import type { LinkResult } from './bindings/LinkResult';
import type { LinkScore } from './bindings/LinkScore';
import type { Tool } from './bindings/Tool';
import type { Post } from './bindings/Post';
import type { WebLinksResult } from './bindings/WebLinksResult';

export interface ToolInfo {
  /** The contract's tool name, sent in `tools`. */
  id: Tool;
  label: string;
  /** Key of its results in the AI search answer, and the `tool` of its stream events. */
  resultKey: string;
  /** Key of its results in the web links answer; none for X. */
  linksKey: keyof WebLinksResult | null;
}

export const TOOLS: ToolInfo[] = [
  { id: 'web', label: 'Web', resultKey: 'search', linksKey: 'search_results' },
  { id: 'twitter', label: 'X', resultKey: 'tweets', linksKey: null },
  { id: 'hackernews', label: 'Hacker News', resultKey: 'hacker_news_search', linksKey: 'hacker_news_search_results' },
  { id: 'reddit', label: 'Reddit', resultKey: 'reddit_search', linksKey: 'reddit_search_results' },
  { id: 'wikipedia', label: 'Wikipedia', resultKey: 'wikipedia_search', linksKey: 'wikipedia_search_results' },
  { id: 'youtube', label: 'YouTube', resultKey: 'youtube_search', linksKey: 'youtube_search_results' },
  { id: 'arxiv', label: 'arXiv', resultKey: 'arxiv_search', linksKey: 'arxiv_search_results' },
];

/** The contract's tool names, in the order the service lists them (its "Choose from" message). */
export const TOOL_NAMES = ['web', 'hackernews', 'reddit', 'wikipedia', 'youtube', 'twitter', 'arxiv'] as const satisfies readonly Tool[];
type Unlisted = Exclude<Tool, (typeof TOOL_NAMES)[number]>;
/** Compiles only while TOOL_NAMES lists every Tool of crates/api. */
export const EVERY_TOOL_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;

/** A tool's contract name from its own or a legacy spelling (`Twitter Search`, `google`, `x`). */
export function parseTool(name: string): Tool | null {
  const key = name
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()
    .replace(/search$/, '');
  const aliases: Record<string, Tool> = { google: 'web', x: 'twitter' };
  return (TOOL_NAMES as readonly string[]).includes(key) ? (key as Tool) : (aliases[key] ?? null);
}

/** The tools of the web links search: every one but X. */
export const WEB_TOOLS = TOOLS.filter((tool) => tool.linksKey !== null);

export function toolByResultKey(key: string): ToolInfo | undefined {
  return TOOLS.find((tool) => tool.resultKey === key);
}

/** A link's host without `www.`, for the source line; empty when it is not a URL. */
export function domainOf(link: string): string {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * The service's grade for a link or post. `link_scores` keys are URLs or bare post ids, and a
 * URL may differ from the result's by a trailing slash.
 */
export function scoreOf(scores: Record<string, LinkScore>, key: string): LinkScore | null {
  const exact = scores[key];
  if (exact) return exact;
  const trimmed = key.replace(/\/+$/, '');
  return scores[trimmed] ?? scores[`${trimmed}/`] ?? null;
}

/** One source's results, as the source tabs show them. */
export interface SourceTab {
  key: string;
  label: string;
  links?: LinkResult[];
  posts?: Post[];
  /** Still searching: no results yet. */
  pending?: boolean;
  /** What to say when it has no results (default: none matched). */
  emptyNote?: string;
}
