// Written by crates/core/src/bindings.rs from Operation::label when the tests run. Do not edit.
import type { Operation } from './Operation';

export const operationNames: Record<Operation, string> = {
  ai_search: "AI search",
  links_web: "Web links",
  links_twitter: "X links",
  twitter_search: "X search",
  twitter_urls: "Posts by link",
  twitter_post: "One post",
  twitter_post_user: "A user's posts",
  twitter_retweeters: "Reposters",
  twitter_user_posts: "Timeline",
  twitter_replies: "A user's replies",
  twitter_replies_post: "Replies to a post",
  twitter_trends: "Trends",
  web_search: "Web search",
  web_crawl: "Page text",
  forecast: "Forecast",
  forecast_status: "Forecast status",
};
