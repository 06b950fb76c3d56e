import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import App from './App.svelte';
import { screens } from './lib/screens';
import { makePost } from './test/fixtures';
import { mockBackend, outcome } from './test/backend';

function backend(searchOutcome = outcome([makePost({ id: '11', text: 'first result' }), makePost({ id: '12', text: 'second result' })])) {
  return mockBackend({
    app_status: () => ({ mode: 'demo', demoForced: false, keys: [], activeKey: null, serviceConfigured: false }),
    spend_totals: () => ({ today: '0', this_month: '0', all_time: '0' }),
    settings_get: () => ({ mediaSafeView: true, theme: 'system' }),
    twitter_search: () => searchOutcome,
    twitter_post: () => outcome(makePost({ id: '12', text: 'second result' })),
  });
}

/** Changes the hash as a link or history.back() does, and waits for the app to follow. */
async function go(hash: string) {
  window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  await Promise.resolve();
}

describe('App', () => {
  it('opens a detail view over the screen it came from, which keeps its results and focus', async () => {
    const calls = backend();
    // Screens load on first opening; have their code ready so the test times the app, not Vite.
    await Promise.all(screens.filter((s) => ['x', 'post'].includes(s.id)).map((s) => s.load()));
    window.location.hash = '#/x';
    const { container } = render(App);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    const card = (await screen.findByText('second result')).closest('article') as HTMLElement;
    card.focus();

    await go('#/post?id=12');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post' })).toHaveFocus();
    expect(screen.getByRole('main')).toHaveAccessibleName('Post');
    // The X screen is still there, out of reach behind the post, and still the sidebar's current one.
    const behind = container.querySelector<HTMLElement>('.layer.behind');
    expect(behind).toContainElement(card);
    expect(behind?.inert).toBe(true);
    expect(screen.getByRole('link', { name: 'X' })).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: 'Post' })).toBeNull();
    expect(document.title).toBe('Post · Sightline');

    await go('#/x');
    await vi.waitFor(() => expect(card).toHaveFocus());
    expect(screen.queryByRole('heading', { level: 1, name: 'Post' })).toBeNull();
    expect(container.querySelector('.layer.behind')).toBeNull();
    expect(card.closest<HTMLElement>('.layer')?.inert).toBe(false);
    expect(screen.getByText('first result')).toBeInTheDocument();
    expect(calls.twitter_search).toHaveLength(1);
  });

  it('goes Back to a detail view over the screen it was opened from, and marks that one', async () => {
    backend();
    await Promise.all(screens.filter((s) => ['x', 'post', 'settings'].includes(s.id)).map((s) => s.load()));
    window.location.hash = '#/x';
    render(App);
    await go('#/post?id=12');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post' })).toBeInTheDocument();
    await go('#/settings');
    await vi.waitFor(() => expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page'));

    // Back: the post again, over X as before, not over Settings.
    await go('#/post?id=12');
    expect(await screen.findByRole('heading', { level: 1, name: 'Post' })).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole('link', { name: 'X' })).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('link', { name: 'Settings' })).not.toHaveAttribute('aria-current');
  });

  it('marks no sidebar screen as the page while the welcome of a first run is shown', async () => {
    backend();
    window.localStorage.clear();
    window.location.hash = '';
    render(App);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Sightline' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Screens' }).querySelector('[aria-current]')).toBeNull();
    expect(document.title).toBe('Welcome · Sightline');
  });

  it('says above every screen when an answer was shown but the disk was too full to save it', async () => {
    const notSaved = 'Shown here but not saved: the disk is full. Its cost is recorded; free some space so that results are kept for History and the Archive.';
    backend(outcome([makePost({ id: '11', text: 'first result' })], 1, { notSaved }));
    await screens.find((s) => s.id === 'x')?.load();
    window.location.hash = '#/x';
    render(App);
    const user = userEvent.setup();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(await screen.findByRole('textbox', { name: 'Search X' }), 'flood{Enter}');
    // The answer is shown, and the notice stays when the user moves to another screen.
    expect(await screen.findByText('first result')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(notSaved);
    await go('#/history');
    expect(screen.getByRole('alert')).toHaveTextContent('the disk is full');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
