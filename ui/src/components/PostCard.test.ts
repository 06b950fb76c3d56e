import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import PostCard from './PostCard.svelte';
import { makePost } from '../test/fixtures';

describe('PostCard', () => {
  it('shows author, badges, compact counts, exact UTC time and a link to x.com', () => {
    render(PostCard, { post: makePost() });
    const card = screen.getByRole('article', { name: 'Post by Ana Lima @ana_reports' });
    expect(within(card).getByText('AL')).toBeInTheDocument();
    expect(within(card).getByText('Verified')).toBeInTheDocument();
    expect(within(card).getByText('Blue')).toBeInTheDocument();
    expect(card).toHaveTextContent('1.2K reposts');
    expect(card).toHaveTextContent('15K likes');
    expect(card).toHaveTextContent('2.5M views');
    expect(card.querySelector('time')).toHaveAttribute('title', '2026-02-16 18:33:57 UTC');
    const open = within(card).getByRole('link', { name: 'Open on x.com' });
    expect(open).toHaveAttribute('href', 'https://x.com/ana_reports/status/1890000000000000001');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    // No remote avatar while media loading is off.
    expect(card.querySelector('img')).toBeNull();
  });

  it('says a count of one in the singular: "1 reply", not "1 replies"', () => {
    render(PostCard, { post: makePost({ reply_count: 1, retweet_count: 0, like_count: 1, bookmark_count: 2 }) });
    const card = screen.getByRole('article');
    expect(card).toHaveTextContent('1 reply');
    expect(card).not.toHaveTextContent('1 replies');
    expect(card).toHaveTextContent('0 reposts');
    expect(card).toHaveTextContent('1 like');
    expect(card).toHaveTextContent('2 bookmarks');
    expect(within(card).getByTitle('1 reply')).toBeInTheDocument();
  });

  it("shows the author's initials, never their picture from its host", () => {
    const { container } = render(PostCard, { post: makePost() });
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.avatar.initials')).not.toBeNull();
  });

  it('turns a hashtag or mention click into a search', async () => {
    const onsearch = vi.fn();
    render(PostCard, { post: makePost(), onsearch });
    await userEvent.click(screen.getByRole('link', { name: '#StormEowyn' }));
    expect(onsearch).toHaveBeenLastCalledWith('#StormEowyn');
    await userEvent.click(screen.getByRole('link', { name: '@metoffice' }));
    expect(onsearch).toHaveBeenLastCalledWith('@metoffice');
    expect(screen.getByRole('link', { name: 'https://example.org/report' })).toHaveAttribute('target', '_blank');
  });

  it('renders hostile text inert: no script, no handlers, no javascript: links', () => {
    const hostile =
      '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2"> <a href="javascript:alert(1)">click</a> javascript:alert(2)';
    const { container } = render(PostCard, {
      post: makePost({ text: hostile, url: 'javascript:alert(3)', quote: makePost({ id: '9', text: '<b onmouseover=alert(4)>q</b>' }) }),
    });
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.querySelector('[onmouseover]')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    for (const link of container.querySelectorAll('a')) {
      // Web links, or the app's own views of the author and the post.
      expect(link.getAttribute('href') ?? '').toMatch(/^(https?:\/\/|#\/(user\?handle|post\?id)=)/);
    }
    // The text is still there for the reader, as text.
    expect(container).toHaveTextContent('<script>window.__pwned = 1</script>');
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('never loads a media link in the page: media not kept here name themselves and open on their site, outside', async () => {
    const post = makePost({ media: [{ media_url: 'https://pbs.example/photo.jpg', type: 'photo' }, { media_url: 'javascript:alert(1)', type: 'photo' }] });
    const { container } = render(PostCard, { post });
    expect(container.querySelector('img')).toBeNull();
    const media = await screen.findByRole('list', { name: 'Media' });
    expect(media).toHaveTextContent('Image 1 of 2');
    const links = within(media).getAllByRole('link', { name: 'Open on its site' });
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://pbs.example/photo.jpg');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(screen.queryByRole('button', { name: /Load image/ })).toBeNull();
  });

  it('nests a quoted post as its own card', () => {
    render(PostCard, { post: makePost({ quote: makePost({ id: '7', text: 'the original claim', user: null }) }) });
    const quoted = screen.getByRole('article', { name: 'Post by Unknown author' });
    expect(quoted).toHaveTextContent('the original claim');
  });

  it('links the author to their view and the post to its view', () => {
    render(PostCard, { post: makePost() });
    expect(screen.getByRole('link', { name: 'Ana Lima @ana_reports' })).toHaveAttribute('href', '#/user?handle=ana_reports');
    expect(screen.getByRole('link', { name: 'View post' })).toHaveAttribute('href', '#/post?id=1890000000000000001');
  });

  it('shows a timeline repost as the original post, saying who reposted it', () => {
    const original = makePost({ id: '77', text: 'the original report' });
    const repost = makePost({
      id: '900',
      text: 'RT @ana_reports: the original report',
      retweet: original,
      user: { ...makePost().user!, id: '5', username: 'bo_reads', name: 'Bo Reads' },
    });
    render(PostCard, { post: repost });
    const card = screen.getByRole('article', { name: 'Post by Ana Lima @ana_reports, reposted by Bo Reads' });
    expect(card).toHaveTextContent('Bo Reads reposted');
    expect(card).toHaveTextContent('the original report');
    expect(card).not.toHaveTextContent('RT @ana_reports');
    expect(within(card).getByRole('link', { name: 'Bo Reads' })).toHaveAttribute('href', '#/user?handle=bo_reads');
    expect(within(card).getByRole('link', { name: 'View post' })).toHaveAttribute('href', '#/post?id=77');
  });

  it('is a focusable stop with its place in the list when it is a result', () => {
    render(PostCard, { post: makePost(), navIndex: 2, setSize: 10 });
    const card = screen.getByRole('article');
    expect(card).toHaveAttribute('tabindex', '0');
    expect(card).toHaveAttribute('data-nav-index', '2');
    expect(card).toHaveAttribute('aria-posinset', '3');
    expect(card).toHaveAttribute('aria-setsize', '10');
  });
});
