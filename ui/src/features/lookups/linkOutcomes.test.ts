import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import LinkOutcomes from './LinkOutcomes.svelte';
import { linkOutcomes, outcomeWords, postIdOf } from './linkOutcomes';
import { makePost } from '../../test/fixtures';

describe('postIdOf', () => {
  it('reads the id of both post link forms', () => {
    expect(postIdOf('https://x.com/ana/status/123?s=20')).toBe('123');
    expect(postIdOf('https://twitter.com/i/web/status/456')).toBe('456');
    expect(postIdOf('https://x.com/ana')).toBeNull();
  });
});

describe('linkOutcomes', () => {
  const found = makePost({ id: '1', user: { ...makePost().user!, name: 'Ana Lima' } });

  it('names each link: found, not returned, a duplicate of an earlier line, not a post link', () => {
    const outcomes = linkOutcomes('https://x.com/ana/status/1 https://x.com/bo/status/2\nhttps://twitter.com/i/web/status/1\nhttps://x.com/ana', [found]);
    expect(outcomes.map((outcome) => [outcome.kind, outcome.line])).toEqual([
      ['found', 1],
      ['not-returned', 1],
      ['duplicate', 2],
      ['not-a-post-link', 3],
    ]);
    expect(outcomes.map(outcomeWords)).toEqual([
      'Found: the post by Ana Lima',
      'Not returned by the service: post 2 may have been deleted or made private, or never existed',
      'Not looked up again: the same post as the link on line 1',
      'Not sent: this is not a link to a post on X',
    ]);
  });
});

describe('LinkOutcomes', () => {
  it('lists every link with its outcome in words, and says how many came back', () => {
    render(LinkOutcomes, { outcomes: linkOutcomes('https://x.com/ana/status/1890000000000000001\nhttps://x.com/bo/status/2', [makePost()]) });
    const list = screen.getByRole('region', { name: 'Each link' });
    expect(within(list).getByRole('status')).toHaveTextContent('1 of 2 links came back.');
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Line 1 https://x.com/ana/status/1890000000000000001 Found: the post by Ana Lima · View post');
    expect(within(items[0]!).getByRole('link', { name: 'View post' })).toHaveAttribute('href', '#/post?id=1890000000000000001');
    expect(items[1]).toHaveTextContent('post 2 may have been deleted or made private, or never existed');
  });
});
