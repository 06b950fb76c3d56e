/** The operations in words a reader recognises, for history rows, filters and spend lines. */
import type { Operation } from './bindings/Operation';

export const operationNames: Record<Operation, string> = {
  ai_search: 'AI search',
  links_web: 'Web links',
  links_twitter: 'X links',
  twitter_search: 'X search',
  twitter_urls: 'Posts by link',
  twitter_post: 'One post',
  twitter_post_user: "A user's posts",
  twitter_retweeters: 'Reposters',
  twitter_user_posts: 'Timeline',
  twitter_replies: "A user's replies",
  twitter_replies_post: 'Replies to a post',
  twitter_trends: 'Trends',
  web_search: 'Web search',
  web_crawl: 'Page text',
  forecast: 'Forecast',
  forecast_status: 'Forecast status',
};

/** The name of a stored operation; one this version does not know is shown as stored. */
export function operationName(operation: string): string {
  return operationNames[operation as Operation] ?? operation;
}
