/** The X search form: its values as typed, the rules the service applies, and the request built from it. */
import type { Sort } from '../../lib/bindings/Sort';
import type { TwitterSearchRequest } from '../../lib/bindings/TwitterSearchRequest';

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

/** Languages by name; the value is the ISO 639-1 code the service filters on. */
export const LANGUAGES: { code: string; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Spanish' },
  { code: 'fr', name: 'French' },
  { code: 'de', name: 'German' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'ja', name: 'Japanese' },
  { code: 'ar', name: 'Arabic' },
  { code: 'zh', name: 'Chinese' },
  { code: 'nl', name: 'Dutch' },
  { code: 'hi', name: 'Hindi' },
  { code: 'id', name: 'Indonesian' },
  { code: 'it', name: 'Italian' },
  { code: 'ko', name: 'Korean' },
  { code: 'pl', name: 'Polish' },
  { code: 'ru', name: 'Russian' },
  { code: 'sv', name: 'Swedish' },
  { code: 'tr', name: 'Turkish' },
  { code: 'uk', name: 'Ukrainian' },
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WHOLE = /^\d+$/;

function validDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The same rules the service applies, so a bad input never costs a request. Keys are request fields. */
export function validate(form: XForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.query.trim()) errors.query = 'Type what to search for.';
  const count = form.count.trim();
  if (!WHOLE.test(count) || Number(count) < 1 || Number(count) > 100) errors.count = 'Choose a number of posts from 1 to 100.';
  if (form.start_date && !validDate(form.start_date)) errors.start_date = 'Use a date like 2026-03-16.';
  if (form.end_date && !validDate(form.end_date)) errors.end_date = 'Use a date like 2026-03-16.';
  if (!errors.start_date && !errors.end_date && form.start_date && form.end_date && form.end_date < form.start_date) {
    errors.end_date = 'The end date is before the start date.';
  }
  for (const field of ['min_retweets', 'min_replies', 'min_likes'] as const) {
    const value = form[field].trim();
    if (value && !WHOLE.test(value)) errors[field] = 'Use a whole number, 0 or more.';
  }
  return errors;
}

/** The request as sent: empty filters are left out (null), unticked boxes are not sent as false. */
export function toRequest(form: XForm): TwitterSearchRequest {
  const text = (value: string) => (value.trim() ? value.trim() : null);
  const flag = (value: boolean) => (value ? true : null);
  return {
    query: form.query.trim(),
    sort: form.sort,
    count: Number(form.count),
    user: text(form.user.replace(/^@/, '')),
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
  if (form.user) return `No posts match. Search everyone, not only @${form.user.replace(/^@/, '')}?`;
  return 'No posts match. Try fewer or different words, or sort by Latest.';
}
