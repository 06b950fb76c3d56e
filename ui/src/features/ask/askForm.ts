/**
 * The Ask form: its values as typed, the rules of `AiSearchRequest::validate` (crates/api, via
 * lib/validate.ts), and the request built from it. Dates are picked as whole days in UTC and sent
 * as instants, so the days are checked here, as days.
 */
import type { AiSearchRequest } from '$lib/bindings/AiSearchRequest';
import type { DateFilter } from '$lib/bindings/DateFilter';
import type { Model } from '$lib/bindings/Model';
import type { ResultType } from '$lib/bindings/ResultType';
import type { Tool } from '$lib/bindings/Tool';
import { LIMITS, MESSAGES, countField, countValue, dayMessage, isDay, type FieldMessages } from '$lib/rules';
import { formProblems } from '$lib/validate';

export interface AskForm {
  prompt: string;
  tools: Tool[];
  count: string;
  /** A named range, or `custom` for the two dates below. */
  range: DateFilter | 'custom';
  /** `YYYY-MM-DD`, UTC; only with `custom`. */
  start: string;
  end: string;
  result_type: ResultType;
  system_message: string;
  /** Empty: the service's default model. */
  model: Model | '';
  streaming: boolean;
}

export function emptyForm(): AskForm {
  return {
    prompt: '',
    tools: ['web', 'twitter'],
    count: '10',
    range: 'PAST_24_HOURS',
    start: '',
    end: '',
    result_type: 'LINKS_WITH_FINAL_SUMMARY',
    system_message: '',
    model: '',
    streaming: true,
  };
}

export const RANGES: { value: DateFilter; name: string }[] = [
  { value: 'PAST_24_HOURS', name: 'Past 24 hours' },
  { value: 'PAST_2_DAYS', name: 'Past 2 days' },
  { value: 'PAST_WEEK', name: 'Past week' },
  { value: 'PAST_2_WEEKS', name: 'Past 2 weeks' },
  { value: 'PAST_MONTH', name: 'Past month' },
  { value: 'PAST_2_MONTHS', name: 'Past 2 months' },
  { value: 'PAST_YEAR', name: 'Past year' },
  { value: 'PAST_2_YEARS', name: 'Past 2 years' },
];

export const MODELS: { value: Model; name: string }[] = [
  { value: 'NOVA', name: 'Nova (shortest answer)' },
  { value: 'ORBIT', name: 'Orbit' },
  { value: 'HORIZON', name: 'Horizon (longest answer)' },
];

/** Every problem at once, keyed by request field: the request's, then what only the form can tell. */
export function validate(form: AskForm): FieldMessages {
  const formOnly = countField(form.count, LIMITS.aiCount);
  if (form.range === 'custom') {
    const start = form.start.trim();
    const end = form.end.trim();
    if (start && !isDay(start)) formOnly.start_date = dayMessage(start);
    if (end && !isDay(end)) formOnly.end_date = dayMessage(end);
    if (!start && !end) formOnly.start_date = MESSAGES.noDates;
  }
  return formProblems('ai_search', toRequest(form), formOnly);
}

/** The request as sent. A custom range covers its days whole: from 00:00:00 to 23:59:59 UTC. */
export function toRequest(form: AskForm): AiSearchRequest {
  const range = form.range;
  const custom = range === 'custom';
  const text = (value: string) => (value.trim() ? value.trim() : null);
  return {
    prompt: form.prompt.trim(),
    tools: [...form.tools],
    count: countValue(form.count),
    date_filter: range === 'custom' ? null : range,
    start_date: custom && form.start.trim() ? `${form.start.trim()}T00:00:00Z` : null,
    end_date: custom && form.end.trim() ? `${form.end.trim()}T23:59:59Z` : null,
    result_type: form.result_type,
    system_message: text(form.system_message),
    scoring_system_message: null,
    streaming: form.streaming,
    model: form.model || null,
    response_order: null,
  };
}

/** Fields that live in the "Advanced" disclosure: an error there must open it. */
export const ADVANCED_FIELDS = ['system_message', 'scoring_system_message', 'model', 'response_order', 'streaming'];
