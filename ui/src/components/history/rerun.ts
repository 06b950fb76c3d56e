/** Sending a stored request again: the operation's command, and the request as first given. */
import * as ipc from '$lib/ipc';
import type { Operation } from '$lib/bindings/Operation';
import type { Outcome } from '$lib/bindings/Outcome';

type Sender = (request: never, options?: ipc.SendOptions) => Promise<Outcome<unknown>>;

/** The operations History can send again; a forecast is asked anew on its own screen. */
const senders: Partial<Record<Operation, Sender>> = {
  ai_search: ipc.aiSearch,
  links_web: ipc.linksWeb,
  links_twitter: ipc.linksTwitter,
  twitter_search: ipc.twitterSearch,
  twitter_urls: ipc.twitterUrls,
  twitter_post: ipc.twitterPost,
  twitter_post_user: ipc.twitterPostUser,
  twitter_retweeters: ipc.twitterRetweeters,
  twitter_user_posts: ipc.twitterUserPosts,
  twitter_replies: ipc.twitterReplies,
  twitter_replies_post: ipc.twitterRepliesPost,
  twitter_trends: ipc.twitterTrends,
  web_search: ipc.webSearch,
  web_crawl: ipc.webCrawl,
};

export function isOperation(name: string): name is Operation {
  return name in senders;
}

/**
 * The request a history row was made with, ready to send again, or null when it cannot be read.
 * An AI search is re-run as one answer (the stream's events were its way of arriving).
 */
export function storedRequest(operation: Operation, paramsJson: string): Record<string, unknown> | null {
  try {
    const params: unknown = JSON.parse(paramsJson);
    if (!params || typeof params !== 'object' || Array.isArray(params)) return null;
    return operation === 'ai_search' ? { ...params, streaming: false } : (params as Record<string, unknown>);
  } catch {
    return null;
  }
}

export function sendAgain(operation: Operation, request: Record<string, unknown>, options: ipc.SendOptions) {
  const send = senders[operation];
  return send ? send(request as never, options) : Promise.reject(new Error('This request cannot be sent again from History.'));
}
