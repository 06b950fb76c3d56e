/**
 * The Links form, shared by its two modes: web links (`LinksWebRequest`, sources without X) and
 * X posts (`LinksTwitterRequest`). Rules as in crates/api: a prompt, at least one source for the
 * web, and a count from 10 to 200.
 */
import type { LinksTwitterRequest } from '../../lib/bindings/LinksTwitterRequest';
import type { LinksWebRequest } from '../../lib/bindings/LinksWebRequest';

export type LinksMode = 'web' | 'x';

export interface LinksForm {
  prompt: string;
  /** Web mode only. */
  tools: string[];
  count: string;
}

export function emptyForm(): LinksForm {
  return { prompt: '', tools: ['web'], count: '10' };
}

export function validate(form: LinksForm, mode: LinksMode): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.prompt.trim()) errors.prompt = 'Type what you want to search for.';
  if (mode === 'web' && form.tools.length === 0) errors.tools = 'Pick at least one source to search.';
  const count = form.count.trim();
  if (!/^\d+$/.test(count) || Number(count) < 10 || Number(count) > 200) {
    errors.count = `Choose a number from 10 to 200${count ? ` (you entered ${count})` : ''}.`;
  }
  return errors;
}

export function toWebRequest(form: LinksForm): LinksWebRequest {
  return { prompt: form.prompt.trim(), tools: [...form.tools], count: Number(form.count.trim()) };
}

export function toXRequest(form: LinksForm): LinksTwitterRequest {
  return { prompt: form.prompt.trim(), count: Number(form.count.trim()) };
}
