import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Lookups from './Lookups.svelte';
import { parseUrls } from './urls';
import { makeCheck, makePost } from '../../test/fixtures';

const outcome = (body: unknown) => ({ historyId: 1, body, billing: { cost: '0.0003', usage_count: 1, service: 'twitter', currency: 'USD' }, fromCache: false, replayed: false, hasMore: false });

describe('parseUrls', () => {
  it('accepts x.com and twitter.com status links, by line or space, and flags the rest', () => {
    const parsed = parseUrls('https://x.com/a/status/1 https://twitter.com/b_c/status/22?s=20\nhttps://evil.example/a/status/3\n\njavascript:alert(1)');
    expect(parsed.urls).toEqual(['https://x.com/a/status/1', 'https://twitter.com/b_c/status/22?s=20']);
    expect(parsed.bad).toEqual([
      { line: 2, text: 'https://evil.example/a/status/3' },
      { line: 4, text: 'javascript:alert(1)' },
    ]);
  });
});

describe('Lookups', () => {
  it('flags each bad line before sending', async () => {
    const sent: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'twitter_urls') sent.push(args);
      if (cmd === 'estimate_cost') return makeCheck('0.0006');
    });
    render(Lookups);
    await userEvent.type(screen.getByRole('textbox', { name: 'Post links' }), 'https://x.com/a/status/1{Shift>}{Enter}{/Shift}https://x.com/a/profile{Enter}');
    expect(screen.getByText('Line 2: "https://x.com/a/profile" is not a link to a post on X. It should look like https://x.com/name/status/1234567890.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  });

  it('looks up posts by links and shows them', async () => {
    const sent: { request: unknown }[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'twitter_urls') {
        sent.push(args as { request: unknown });
        return outcome([makePost({ text: 'found by link' })]);
      }
      if (cmd === 'estimate_cost') return makeCheck('0.0006');
    });
    render(Lookups);
    await userEvent.type(screen.getByRole('textbox', { name: 'Post links' }), 'https://x.com/a/status/1 https://twitter.com/b/status/2{Enter}');
    expect(await screen.findByText('found by link')).toBeInTheDocument();
    expect(sent[0]?.request).toEqual({ urls: ['https://x.com/a/status/1', 'https://twitter.com/b/status/2'] });
  });

  it('checks a post id and looks it up', async () => {
    const sent: { request: unknown }[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'twitter_post') {
        sent.push(args as { request: unknown });
        return outcome(makePost({ text: 'found by id' }));
      }
      if (cmd === 'estimate_cost') return makeCheck('0.0003');
    });
    render(Lookups);
    const id = screen.getByRole('textbox', { name: 'Post id' });
    await userEvent.type(id, 'abc{Enter}');
    expect(id).toHaveAccessibleDescription('A post id is digits only, like 1890000000000000001 (you entered "abc").');
    await userEvent.clear(id);
    await userEvent.type(id, '1890000000000000001{Enter}');
    expect(await screen.findByText('found by id')).toBeInTheDocument();
    expect(sent).toEqual([expect.objectContaining({ request: { id: '1890000000000000001' } })]);
    // From here the post's own view has its replies and reposters.
    expect(screen.getByRole('link', { name: 'View post' })).toHaveAttribute('href', '#/post?id=1890000000000000001');
  });

  it('says plainly that no post has the id when the service answers 404, with no Retry', async () => {
    mockIPC((cmd) => {
      if (cmd === 'twitter_post') {
        throw { kind: 'service', message: 'Not found', error: { kind: 'unexpected_status', message: 'Not found', fields: [], retry_after_secs: null, status: 404, received_events: null } };
      }
      if (cmd === 'estimate_cost') return makeCheck('0.0003');
    });
    render(Lookups);
    await userEvent.type(screen.getByRole('textbox', { name: 'Post id' }), '1890000000000000009{Enter}');
    expect(await screen.findByText(/The service has no post with the id 1890000000000000009\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
  });
});

describe('Lookups: each link after a lookup', () => {
  it('says which links came back and which did not, and why', async () => {
    mockIPC((cmd) => {
      if (cmd === 'twitter_urls') return outcome([makePost({ id: '1', text: 'found by link' })]);
      if (cmd === 'estimate_cost') return makeCheck('0.0006');
    });
    render(Lookups);
    await userEvent.type(screen.getByRole('textbox', { name: 'Post links' }), 'https://x.com/a/status/1 https://x.com/b/status/2 https://twitter.com/a/status/1{Enter}');
    const list = await screen.findByRole('region', { name: 'Each link' });
    expect(within(list).getByRole('status')).toHaveTextContent('1 of 3 links came back.');
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('Found: the post by Ana Lima'),
      expect.stringContaining('Not returned by the service: post 2 may have been deleted'),
      expect.stringContaining('the same post as the link on line 1'),
    ]);
  });
});
