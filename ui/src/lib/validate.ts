/**
 * Each operation's request checked as crates/api's `validate()` checks it, with the same messages
 * (lib/rules.ts), so a bad input is caught before it costs a request and reads the same either way.
 */
import type { AiSearchRequest } from './bindings/AiSearchRequest';
import type { FieldError } from './bindings/FieldError';
import type { ForecastRequest } from './bindings/ForecastRequest';
import type { ForecastStatusRequest } from './bindings/ForecastStatusRequest';
import type { LinksTwitterRequest } from './bindings/LinksTwitterRequest';
import type { LinksWebRequest } from './bindings/LinksWebRequest';
import type { Operation } from './bindings/Operation';
import type { TwitterPostRequest } from './bindings/TwitterPostRequest';
import type { TwitterPostUserRequest } from './bindings/TwitterPostUserRequest';
import type { TwitterRepliesPostRequest } from './bindings/TwitterRepliesPostRequest';
import type { TwitterRepliesRequest } from './bindings/TwitterRepliesRequest';
import type { TwitterRetweetersRequest } from './bindings/TwitterRetweetersRequest';
import type { TwitterSearchRequest } from './bindings/TwitterSearchRequest';
import type { TwitterTrendsRequest } from './bindings/TwitterTrendsRequest';
import type { TwitterUrlsRequest } from './bindings/TwitterUrlsRequest';
import type { TwitterUserPostsRequest } from './bindings/TwitterUserPostsRequest';
import type { WebCrawlRequest } from './bindings/WebCrawlRequest';
import type { WebSearchRequest } from './bindings/WebSearchRequest';
import {
  Checks,
  LIMITS,
  MESSAGES,
  bareHandle,
  cutoffMessage,
  firstPerField,
  forecastIdMessage,
  isDay,
  isInstant,
  isPostId,
  isPostUrl,
  isWebAddress,
  parseRfc3339,
  postIdMessage,
  postUrlMessage,
  woeidMessage,
  type FieldMessages,
} from './rules';
import { TOOL_NAMES, parseTool } from './tools';

/** The request each operation takes. */
export interface RequestOf {
  ai_search: AiSearchRequest;
  links_web: LinksWebRequest;
  links_twitter: LinksTwitterRequest;
  twitter_search: TwitterSearchRequest;
  twitter_urls: TwitterUrlsRequest;
  twitter_post: TwitterPostRequest;
  twitter_post_user: TwitterPostUserRequest;
  twitter_retweeters: TwitterRetweetersRequest;
  twitter_user_posts: TwitterUserPostsRequest;
  twitter_replies: TwitterRepliesRequest;
  twitter_replies_post: TwitterRepliesPostRequest;
  twitter_trends: TwitterTrendsRequest;
  web_search: WebSearchRequest;
  web_crawl: WebCrawlRequest;
  forecast: ForecastRequest;
  forecast_status: ForecastStatusRequest;
}

/** The text of an optional field, trimmed, when there is any. */
function given(value: string | null): string | null {
  const text = value?.trim() ?? '';
  return text ? text : null;
}

function prompt(checks: Checks, text: string) {
  checks.required('prompt', text, MESSAGES.prompt);
}

/** At least one source, each one the service knows; X only where `allowTwitter`. */
function tools(checks: Checks, names: string[], allowTwitter: boolean) {
  if (names.length === 0) {
    checks.add('tools', MESSAGES.tools);
    return;
  }
  for (const name of names) {
    const tool = parseTool(name);
    if (tool === null) checks.add('tools', `"${name}" is not a source the service knows. Choose from: ${TOOL_NAMES.join(', ')}.`);
    else if (tool === 'twitter' && !allowTwitter) checks.add('tools', MESSAGES.twitterInWebLinks);
  }
}

/** A post id: given, and digits only. */
function postId(checks: Checks, field: string, id: string) {
  if (checks.required(field, id, MESSAGES.postId) && !isPostId(id)) checks.add(field, postIdMessage(id.trim()));
}

function handle(checks: Checks, field: string, user: string) {
  checks.required(field, bareHandle(user), MESSAGES.handle);
}

const VALIDATORS: { [O in Operation]: (checks: Checks, request: RequestOf[O]) => void } = {
  ai_search(checks, request) {
    prompt(checks, request.prompt);
    tools(checks, request.tools, true);
    checks.range('count', request.count, LIMITS.aiCount);
    checks.instant('start_date', request.start_date);
    checks.instant('end_date', request.end_date);
    checks.order(request.start_date, request.end_date, isInstant);
  },
  links_web(checks, request) {
    prompt(checks, request.prompt);
    tools(checks, request.tools, false);
    checks.range('count', request.count, LIMITS.aiCount);
  },
  links_twitter(checks, request) {
    prompt(checks, request.prompt);
    checks.range('count', request.count, LIMITS.aiCount);
  },
  twitter_search(checks, request) {
    checks.required('query', request.query, MESSAGES.xQuery);
    checks.range('count', request.count, LIMITS.xCount);
    checks.day('start_date', request.start_date);
    checks.day('end_date', request.end_date);
    checks.order(request.start_date, request.end_date, isDay);
    checks.wholeNumber('min_retweets', request.min_retweets);
    checks.wholeNumber('min_replies', request.min_replies);
    checks.wholeNumber('min_likes', request.min_likes);
  },
  twitter_urls(checks, request) {
    const urls = request.urls.map((url) => url.trim()).filter(Boolean);
    if (urls.length === 0) checks.add('urls', MESSAGES.urls);
    for (const url of urls) if (!isPostUrl(url)) checks.add('urls', postUrlMessage(url));
  },
  twitter_post(checks, request) {
    postId(checks, 'id', request.id);
  },
  twitter_post_user(checks, request) {
    handle(checks, 'user', request.user);
    checks.range('count', request.count, LIMITS.xCount);
  },
  twitter_retweeters(checks, request) {
    postId(checks, 'id', request.id);
  },
  twitter_user_posts(checks, request) {
    handle(checks, 'username', request.username);
  },
  twitter_replies(checks, request) {
    handle(checks, 'user', request.user);
    checks.range('count', request.count, LIMITS.xCount);
  },
  twitter_replies_post(checks, request) {
    postId(checks, 'post_id', request.post_id);
    checks.range('count', request.count, LIMITS.xCount);
  },
  twitter_trends(checks, request) {
    if (request.woeid === null) checks.add('woeid', MESSAGES.woeid);
    else if (request.woeid < 1) checks.add('woeid', woeidMessage(request.woeid));
    checks.range('count', request.count, LIMITS.trendsCount);
  },
  web_search(checks, request) {
    checks.required('query', request.query, MESSAGES.webQuery);
    checks.range('start', request.start, LIMITS.webStart);
  },
  web_crawl(checks, request) {
    if (checks.required('url', request.url, MESSAGES.pageUrl) && !isWebAddress(request.url)) checks.add('url', MESSAGES.webAddress);
  },
  forecast(checks, request) {
    if (given(request.query) === null && given(request.title) === null) checks.add('query', MESSAGES.forecastQuestion);
    const cutoff = given(request.cutoff);
    if (cutoff !== null) {
      const at = parseRfc3339(cutoff);
      if (at === null) checks.add('cutoff', cutoffMessage(cutoff));
      else if (at.getTime() <= Date.now()) checks.add('cutoff', MESSAGES.cutoffPassed);
    }
  },
  forecast_status(checks, request) {
    const id = request.prediction_id.trim();
    if (checks.required('prediction_id', id, MESSAGES.forecastId) && !/^[A-Za-z0-9-]+$/.test(id)) {
      checks.add('prediction_id', forecastIdMessage(id));
    }
  },
};

/** Every problem with the request, in the order crates/api lists them. */
export function validateRequest<O extends Operation>(operation: O, request: RequestOf[O]): FieldError[] {
  const checks = new Checks();
  VALIDATORS[operation](checks, request);
  return checks.errors;
}

/**
 * A form's problems: the request's (the first message per field), then what only the form can
 * tell (`formOnly`, e.g. a count field holding no number), which wins on the same field.
 */
export function formProblems<O extends Operation>(operation: O, request: RequestOf[O], formOnly: FieldMessages = {}): FieldMessages {
  return { ...requestProblems(operation, request), ...formOnly };
}

/** The request's problems as a form shows them: the first message per field. */
export function requestProblems<O extends Operation>(operation: O, request: RequestOf[O]): FieldMessages {
  return firstPerField(validateRequest(operation, request));
}
