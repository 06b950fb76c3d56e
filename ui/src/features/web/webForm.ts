/**
 * The Web screen's two requests: a web search (`GET /web`, ten results a page, `start` 0–100)
 * and the crawl of one page (`GET /web/crawl`). Rules as in crates/api's `validate()`.
 */
import type { CrawlFormat } from '../../lib/bindings/CrawlFormat';
import type { WebCrawlRequest } from '../../lib/bindings/WebCrawlRequest';
import type { WebSearchRequest } from '../../lib/bindings/WebSearchRequest';

/** Results per page of `GET /web`. */
export const PAGE_SIZE = 10;
/** The largest `start` the service takes. */
export const MAX_START = 100;

export function searchErrors(query: string): Record<string, string> {
  return query.trim() ? {} : { query: 'Type what to search the web for.' };
}

export function searchRequest(query: string, start = 0): WebSearchRequest {
  return { query: query.trim(), start };
}

/** True for an absolute http(s) address with a host, as the service requires. */
export function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function crawlErrors(url: string): Record<string, string> {
  if (!url.trim()) return { url: 'Enter the address of the page to read.' };
  if (!isWebAddress(url)) return { url: 'Enter a full web address starting with https://, for example https://example.com/page.' };
  return {};
}

export function crawlRequest(url: string, format: CrawlFormat): WebCrawlRequest {
  return { url: url.trim(), format };
}

/** Whether another page can follow: a full page came back and `start` can still grow. */
export function hasNextPage(start: number, shown: number): boolean {
  return shown >= PAGE_SIZE && start + PAGE_SIZE <= MAX_START;
}
