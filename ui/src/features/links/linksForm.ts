/**
 * The Links form, shared by its two modes: web links (`LinksWebRequest`, sources without X) and
 * X posts (`LinksTwitterRequest`). The rules are the requests' own (lib/validate.ts), and the
 * count field must hold a number.
 */
import type { LinksTwitterRequest } from '$lib/bindings/LinksTwitterRequest';
import type { LinksWebRequest } from '$lib/bindings/LinksWebRequest';
import type { Tool } from '$lib/bindings/Tool';
import { LIMITS, countField, countValue, type FieldMessages } from '$lib/rules';
import { formProblems } from '$lib/validate';

export type LinksMode = 'web' | 'x';

export interface LinksForm {
  prompt: string;
  /** Web mode only. */
  tools: Tool[];
  count: string;
}

export function emptyForm(): LinksForm {
  return { prompt: '', tools: ['web'], count: '10' };
}

export function validate(form: LinksForm, mode: LinksMode): FieldMessages {
  const count = countField(form.count, LIMITS.aiCount);
  return mode === 'web' ? formProblems('links_web', toWebRequest(form), count) : formProblems('links_twitter', toXRequest(form), count);
}

export function toWebRequest(form: LinksForm): LinksWebRequest {
  return { prompt: form.prompt.trim(), tools: [...form.tools], count: countValue(form.count) };
}

export function toXRequest(form: LinksForm): LinksTwitterRequest {
  return { prompt: form.prompt.trim(), count: countValue(form.count) };
}
