/** Pasted post links: one per line or separated by spaces; only post links (lib/rules.ts) pass. */
import { isPostUrl } from '$lib/rules';

export interface ParsedUrls {
  urls: string[];
  /** Each rejected piece with the line it was on (1-based). */
  bad: { line: number; text: string }[];
}

export function parseUrls(text: string): ParsedUrls {
  const urls: string[] = [];
  const bad: ParsedUrls['bad'] = [];
  text.split(/\r?\n/).forEach((lineText, index) => {
    for (const piece of lineText.split(/\s+/).filter(Boolean)) {
      if (isPostUrl(piece)) {
        if (!urls.includes(piece)) urls.push(piece);
      } else bad.push({ line: index + 1, text: piece });
    }
  });
  return { urls, bad };
}
