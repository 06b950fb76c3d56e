/**
 * A key's fingerprint as people read and compare it: the 64 hex digits in groups of four
 * ("3f9a 0c1e …"). The copy button copies the plain digits, as `sha256sum` prints them.
 */
export function fingerprintGroups(hex: string): string {
  return hex.match(/.{1,4}/g)?.join(' ') ?? '';
}
