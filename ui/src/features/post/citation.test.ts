import { describe, expect, it } from 'vitest';
import { citationMarkdown, escapeMarkdown } from './citation';
import { makePost } from '../../test/fixtures';

describe('citationMarkdown', () => {
  it('cites each post with author, time, quoted text, link and fetch time', () => {
    const text = citationMarkdown(
      [makePost(), makePost({ id: '2', text: 'Line one\nLine *two*', url: null, created_at: 'Mon Mar 16 07:01:23 +0000 2026' })],
      new Date('2026-03-17T09:30:00Z'),
      'UTC',
    );
    expect(text).toBe(
      [
        '1. **Ana Lima** (@ana\\_reports), 2026-02-16 18:33 UTC',
        '   > Flood defences held overnight \\#StormEowyn thanks to @metoffice https://example.org/report',
        '   <https://x.com/ana_reports/status/1890000000000000001> (fetched 2026-03-17 09:30 UTC)',
        '',
        '2. **Ana Lima** (@ana\\_reports), 2026-03-16 07:01 UTC',
        '   > Line one',
        '   > Line \\*two\\*',
        '   <https://x.com/ana_reports/status/2> (fetched 2026-03-17 09:30 UTC)',
        '',
      ].join('\n'),
    );
  });

  it('states the display zone beside UTC, as the Rust export does', () => {
    const text = citationMarkdown([makePost()], new Date('2026-03-17T09:30:00Z'), 'Asia/Kolkata');
    expect(text).toContain('(@ana\\_reports), 2026-02-16 18:33 UTC = 2026-02-17 00:03 GMT+5:30 (Asia/Kolkata)');
    expect(text).toContain('(fetched 2026-03-17 09:30 UTC = 2026-03-17 15:00 GMT+5:30 (Asia/Kolkata))');
  });

  it('neutralises markup and links hidden in the text', () => {
    expect(escapeMarkdown('[click](javascript:x) <b>')).toBe('\\[click\\](javascript:x) \\<b\\>');
  });
});
