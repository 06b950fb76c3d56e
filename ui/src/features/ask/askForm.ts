/**
 * The Ask form: its values as typed, the rules of `AiSearchRequest::validate` (crates/api), and
 * the request built from it. Dates are picked as whole days in UTC and sent as instants.
 */
import type { AiSearchRequest } from '../../lib/bindings/AiSearchRequest';
import type { DateFilter } from '../../lib/bindings/DateFilter';
import type { Model } from '../../lib/bindings/Model';
import type { ResultType } from '../../lib/bindings/ResultType';

export interface AskForm {
  prompt: string;
  tools: string[];
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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const WHOLE = /^\d+$/;

function validDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Every problem at once, keyed by request field, in the service's own terms. */
export function validate(form: AskForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.prompt.trim()) errors.prompt = 'Type what you want to search for.';
  if (form.tools.length === 0) errors.tools = 'Pick at least one source to search.';
  const count = form.count.trim();
  if (!WHOLE.test(count) || Number(count) < 10 || Number(count) > 200) {
    errors.count = `Choose a number from 10 to 200${count ? ` (you entered ${count})` : ''}.`;
  }
  if (form.range === 'custom') {
    const start = form.start.trim();
    const end = form.end.trim();
    if (start && !validDay(start)) errors.start_date = 'Use a date like 2026-03-01.';
    if (end && !validDay(end)) errors.end_date = 'Use a date like 2026-03-01.';
    if (!start && !end) errors.start_date = 'Pick a start or end date, or a named range.';
    if (!errors.start_date && !errors.end_date && start && end && end < start) {
      errors.end_date = 'The end date is before the start date.';
    }
  }
  return errors;
}

/** The request as sent. A custom range covers its days whole: from 00:00:00 to 23:59:59 UTC. */
export function toRequest(form: AskForm): AiSearchRequest {
  const range = form.range;
  const custom = range === 'custom';
  const text = (value: string) => (value.trim() ? value.trim() : null);
  return {
    prompt: form.prompt.trim(),
    tools: [...form.tools],
    count: Number(form.count.trim()),
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
