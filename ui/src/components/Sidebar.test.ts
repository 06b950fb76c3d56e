import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import Sidebar from './Sidebar.svelte';
import type { Screen } from '$lib/screens';
// The sidebar only links to screens, never opens one: any component stands in for each.
import Placeholder from './StatusFoot.svelte';

const fixtures: Screen[] = [
  { id: 'one', name: 'One', icon: 'logo', group: 'search', load: async () => ({ default: Placeholder }) },
  { id: 'two', name: 'Two', icon: 'logo', group: 'records', load: async () => ({ default: Placeholder }) },
  { id: 'settings', name: 'Settings', icon: 'settings', group: 'settings', load: async () => ({ default: Placeholder }) },
];

describe('Sidebar', () => {
  it('lists screens as links in their groups and marks the current one', () => {
    render(Sidebar, { screens: fixtures, current: 'two' });
    const nav = screen.getByRole('navigation', { name: 'Screens' });
    expect(nav).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Search' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Records' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Two' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'One' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '#/settings');
  });

  it('leaves detail views out of the sidebar', () => {
    render(Sidebar, { screens: [...fixtures, { id: 'post', name: 'Post', icon: 'list', group: 'search', load: async () => ({ default: Placeholder }), hidden: true }], current: 'one' });
    expect(screen.queryByRole('link', { name: 'Post' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('link')).toHaveLength(3);
  });

  it('hides groups that have no screens yet', () => {
    render(Sidebar, { screens: fixtures.slice(2), current: 'settings' });
    expect(screen.queryByRole('heading', { name: 'Search' })).not.toBeInTheDocument();
  });

  it('moves focus with the arrow keys, wrapping at the ends', async () => {
    const user = userEvent.setup();
    render(Sidebar, { screens: fixtures, current: 'one' });
    screen.getByRole('link', { name: 'One' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'Two' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('link', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('link', { name: 'One' })).toHaveFocus();
  });
});
