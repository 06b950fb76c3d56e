/**
 * The Web screen's two requests: a web search (`GET /web`, ten results a page, `start` 0–100)
 * and the crawl of one page (`GET /web/crawl`), checked by their own rules (lib/validate.ts).
 */
import type { CrawlFormat } from '$lib/bindings/CrawlFormat';
import type { WebCrawlRequest } from '$lib/bindings/WebCrawlRequest';
import type { WebSearchRequest } from '$lib/bindings/WebSearchRequest';
import { LIMITS, type FieldMessages } from '$lib/rules';
import { requestProblems } from '$lib/validate';

/** Results per page of `GET /web`. */
export const PAGE_SIZE = 10;

export function searchErrors(query: string): FieldMessages {
  return requestProblems('web_search', searchRequest(query, 0));
}

export function searchRequest(query: string, start = 0): WebSearchRequest {
  return { query: query.trim(), start };
}

export function crawlErrors(url: string): FieldMessages {
  return requestProblems('web_crawl', crawlRequest(url, 'text'));
}

export function crawlRequest(url: string, format: CrawlFormat): WebCrawlRequest {
  return { url: url.trim(), format };
}

/** Whether another page can follow: a full page came back and `start` can still grow. */
export function hasNextPage(start: number, shown: number): boolean {
  return shown >= PAGE_SIZE && start + PAGE_SIZE <= LIMITS.webStart.max;
}
