/**
 * Splits untrusted post text into plain pieces and safe links. Nothing here produces HTML: the
 * card renders each piece as a text node or an element Svelte builds, so markup in a post stays text.
 */
import type { Entities } from './bindings/Entities';

export type TextPiece =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; handle: string }
  | { kind: 'hashtag'; text: string; tag: string };

// Links, @mentions (X handles are 1–15 word characters) and #hashtags (letters, digits, _).
const TOKEN = /(https?:\/\/[^\s<>"']+)|(^|[^\w@])(@\w{1,15})|(^|[^\w&#])(#[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu;

/** Only http(s) URLs become links; anything else (javascript:, data:, file:) stays text. */
export function safeHttpUrl(candidate: string | null | undefined): string | null {
  if (!candidate) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function splitPostText(text: string, entities?: Entities | null): TextPiece[] {
  const expanded = new Map<string, { href: string; display: string }>();
  for (const link of entities?.urls ?? []) {
    const href = safeHttpUrl(link.expanded_url ?? link.url);
    if (href) expanded.set(link.url, { href, display: link.display_url || href });
  }

  const pieces: TextPiece[] = [];
  const pushText = (value: string) => {
    if (!value) return;
    const last = pieces[pieces.length - 1];
    if (last?.kind === 'text') last.text += value;
    else pieces.push({ kind: 'text', text: value });
  };

  let cursor = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [whole, url, mentionLead, mention, tagLead, tag] = match;
    const start = match.index ?? 0;
    pushText(text.slice(cursor, start));
    if (url) {
      // A sentence's closing punctuation is not part of the link.
      const clean = url.replace(/[).,;:!?]+$/, '');
      const known = expanded.get(clean);
      const href = known?.href ?? safeHttpUrl(clean);
      if (href) pieces.push({ kind: 'link', text: known?.display ?? clean, href });
      else pushText(clean);
      pushText(url.slice(clean.length));
    } else if (mention) {
      pushText(mentionLead ?? '');
      pieces.push({ kind: 'mention', text: mention, handle: mention.slice(1) });
    } else if (tag) {
      pushText(tagLead ?? '');
      pieces.push({ kind: 'hashtag', text: tag, tag: tag.slice(1) });
    }
    cursor = start + whole.length;
  }
  pushText(text.slice(cursor));
  return pieces;
}
