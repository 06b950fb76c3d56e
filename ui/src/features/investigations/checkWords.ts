/** A still-there check in words: each outcome, and each changed field as "likes 15,300 → 15,420". */
import type { CheckOutcome } from '$lib/bindings/CheckOutcome';
import type { FieldChange } from '$lib/bindings/FieldChange';

export const outcomeNames: Record<CheckOutcome, string> = {
  unchanged: 'Unchanged',
  changed: 'Changed',
  gone: 'No longer available',
};

const fieldNames: Record<string, string> = {
  text: 'Text',
  like_count: 'Likes',
  retweet_count: 'Reposts',
  reply_count: 'Replies',
  quote_count: 'Quotes',
  view_count: 'Views',
  bookmark_count: 'Bookmarks',
};

/** A stored field's name for people (`like_count` → "Likes"); an unknown one as it is. */
export function fieldName(field: string): string {
  return fieldNames[field] ?? field.replace(/_/g, ' ');
}

/** A count with its thousands marked; text (and anything else) as it is. */
function shown(field: string, value: string): string {
  if (field !== 'text' && /^-?\d+$/.test(value)) return Number(value).toLocaleString('en-US');
  return value === '' ? '(empty)' : value;
}

/** "Likes: 15,300 → 15,420"; a count's difference is added ("+120"). */
export function changeWords(change: FieldChange): string {
  const before = shown(change.field, change.before);
  const after = shown(change.field, change.after);
  let delta = '';
  if (change.field !== 'text' && /^-?\d+$/.test(change.before) && /^-?\d+$/.test(change.after)) {
    const difference = Number(change.after) - Number(change.before);
    delta = ` (${difference > 0 ? '+' : '−'}${Math.abs(difference).toLocaleString('en-US')})`;
  }
  return `${fieldName(change.field)}: ${before} → ${after}${delta}`;
}
