/** The X search form: its values as typed, the rules the service applies, and the request built from it. */
import type { Sort } from '$lib/bindings/Sort';
import type { TwitterSearchRequest } from '$lib/bindings/TwitterSearchRequest';
import { LIMITS, bareHandle, countField, countValue, type FieldMessages } from '$lib/rules';
import { formProblems } from '$lib/validate';
import { LANGUAGES } from '$lib/languages';

export interface XForm {
  query: string;
  sort: Sort;
  count: string;
  user: string;
  start_date: string;
  end_date: string;
  lang: string;
  verified: boolean;
  blue_verified: boolean;
  is_quote: boolean;
  is_video: boolean;
  is_image: boolean;
  min_retweets: string;
  min_replies: string;
  min_likes: string;
}

export function emptyForm(): XForm {
  return {
    query: '',
    sort: 'Top',
    count: '20',
    user: '',
    start_date: '',
    end_date: '',
    lang: '',
    verified: false,
    blue_verified: false,
    is_quote: false,
    is_video: false,
    is_image: false,
    min_retweets: '',
    min_replies: '',
    min_likes: '',
  };
}

/** The service's rules on the request, and the count field holding a number. Keys are request fields. */
export function validate(form: XForm): FieldMessages {
  return formProblems('twitter_search', toRequest(form), countField(form.count, LIMITS.xCount));
}

/** The request as sent: empty filters are left out (null), unticked boxes are not sent as false. */
export function toRequest(form: XForm): TwitterSearchRequest {
  const text = (value: string) => (value.trim() ? value.trim() : null);
  const flag = (value: boolean) => (value ? true : null);
  return {
    query: form.query.trim(),
    sort: form.sort,
    count: countValue(form.count),
    user: text(bareHandle(form.user)),
    start_date: text(form.start_date),
    end_date: text(form.end_date),
    lang: text(form.lang),
    verified: flag(form.verified),
    blue_verified: flag(form.blue_verified),
    is_quote: flag(form.is_quote),
    is_video: flag(form.is_video),
    is_image: flag(form.is_image),
    min_retweets: text(form.min_retweets),
    min_replies: text(form.min_replies),
    min_likes: text(form.min_likes),
  };
}

/** What to suggest when nothing matched: the narrowest filter first. */
export function emptySuggestion(form: XForm): string {
  const language = LANGUAGES.find((item) => item.code === form.lang)?.name;
  if (form.min_likes || form.min_retweets || form.min_replies) return 'No posts match. Lower or clear the minimum counts?';
  if (form.is_video || form.is_image || form.is_quote) return 'No posts match. Untick the media or quote filters?';
  if (form.verified || form.blue_verified) return 'No posts match. Include accounts that are not verified?';
  if (language) return `No posts match. Remove the ${language} language filter?`;
  if (form.start_date || form.end_date) return 'No posts match. Widen the date range?';
  if (form.user) return `No posts match. Search everyone, not only @${bareHandle(form.user)}?`;
  return 'No posts match. Try fewer or different words, or sort by Latest.';
}
