/** Pasted post links: one per line or separated by spaces; only x.com / twitter.com status links pass. */

const STATUS = /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[A-Za-z0-9_]{1,15}|i(?:\/web)?)\/status\/(\d{1,25})(?:[/?#].*)?$/;

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
      if (STATUS.test(piece)) {
        if (!urls.includes(piece)) urls.push(piece);
      } else bad.push({ line: index + 1, text: piece });
    }
  });
  return { urls, bad };
}

/** A post id is digits only (X ids are up to 19 digits today). */
export function validPostId(id: string): boolean {
  return /^\d{1,25}$/.test(id.trim());
}
