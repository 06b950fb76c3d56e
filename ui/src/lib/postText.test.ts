import { describe, expect, it } from 'vitest';
import { safeHttpUrl, splitPostText } from './postText';

describe('splitPostText', () => {
  it('finds links, mentions and hashtags in order', () => {
    const pieces = splitPostText('Hi @ana_b, see https://example.com/a. #Climate2026 rocks');
    expect(pieces).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', text: '@ana_b', handle: 'ana_b' },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'https://example.com/a', href: 'https://example.com/a' },
      { kind: 'text', text: '. ' },
      { kind: 'hashtag', text: '#Climate2026', tag: 'Climate2026' },
      { kind: 'text', text: ' rocks' },
    ]);
  });

  it('uses the expanded link from entities when it is http(s)', () => {
    const pieces = splitPostText('read https://t.co/abc', {
      hashtags: null,
      symbols: null,
      user_mentions: null,
      media: null,
      urls: [{ url: 'https://t.co/abc', expanded_url: 'https://news.example/story', display_url: 'news.example/story', indices: [5, 21] }],
    });
    expect(pieces[1]).toEqual({ kind: 'link', text: 'news.example/story', href: 'https://news.example/story' });
  });

  it('never turns javascript: or other schemes into links', () => {
    const pieces = splitPostText('click javascript:alert(1) or data:text/html,<b>x</b>');
    expect(pieces.every((piece) => piece.kind === 'text')).toBe(true);
    const viaEntity = splitPostText('https://t.co/x', {
      hashtags: null,
      symbols: null,
      user_mentions: null,
      media: null,
      urls: [{ url: 'https://t.co/x', expanded_url: 'javascript:alert(1)', display_url: 'evil', indices: [0, 14] }],
    });
    // The hostile expansion is dropped; the t.co link itself is still a plain https link.
    expect(viaEntity[0]).toEqual({ kind: 'link', text: 'https://t.co/x', href: 'https://t.co/x' });
  });

  it('does not read e-mail addresses or HTML entities as mentions or tags', () => {
    const pieces = splitPostText('mail a@b.com &#39; ok');
    expect(pieces.some((piece) => piece.kind !== 'text')).toBe(false);
  });
});

describe('safeHttpUrl', () => {
  it('accepts only http and https', () => {
    expect(safeHttpUrl('https://x.com/a')).toBe('https://x.com/a');
    expect(safeHttpUrl('JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHttpUrl(' javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});
