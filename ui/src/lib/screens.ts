import type { Component } from 'svelte';
import type { IconName } from '$components/icons';
import { startUnseen, unseen } from './unseen.svelte';

/** A screen in the sidebar. Only screens that work are listed: later features add theirs here. */
export interface Screen {
  id: string;
  name: string;
  icon: IconName;
  group: 'search' | 'records' | 'settings';
  /** Loads the screen's code when it is first opened: only the shell and one screen load at start. */
  load: () => Promise<{ default: Component }>;
  /**
   * A detail view (a post, an account), opened from results rather than from the sidebar: not
   * listed there, shown over the screen it was opened from, which keeps its place behind it.
   */
  hidden?: boolean;
  /** A count shown beside the sidebar entry (unseen posts), and how to start following it. */
  badge?: { count: () => number; start: () => void };
}

export const screens: Screen[] = [
  { id: 'ask', name: 'Ask', icon: 'ask', group: 'search', load: () => import('../features/ask/Ask.svelte') },
  { id: 'x', name: 'X', icon: 'search', group: 'search', load: () => import('../features/x/XSearch.svelte') },
  { id: 'links', name: 'Links', icon: 'link', group: 'search', load: () => import('../features/links/Links.svelte') },
  { id: 'web', name: 'Web', icon: 'globe', group: 'search', load: () => import('../features/web/Web.svelte') },
  { id: 'lookups', name: 'Lookups', icon: 'list', group: 'search', load: () => import('../features/lookups/Lookups.svelte') },
  { id: 'trends', name: 'Trends', icon: 'trend', group: 'search', load: () => import('../features/trends/Trends.svelte') },
  {
    id: 'monitors',
    name: 'Monitors',
    icon: 'monitor',
    group: 'search',
    load: () => import('../features/monitors/Monitors.svelte'),
    badge: { count: () => unseen.total, start: startUnseen },
  },
  { id: 'forecast', name: 'Forecast', icon: 'forecast', group: 'search', load: () => import('../features/forecast/Forecast.svelte') },
  { id: 'history', name: 'History', icon: 'history', group: 'records', load: () => import('../features/history/History.svelte') },
  { id: 'investigations', name: 'Investigations', icon: 'folder', group: 'records', load: () => import('../features/investigations/Investigations.svelte') },
  { id: 'archive', name: 'Archive', icon: 'archive', group: 'records', load: () => import('../features/archive/Archive.svelte') },
  { id: 'spend', name: 'Spend', icon: 'spend', group: 'records', load: () => import('../features/spend/Spend.svelte') },
  { id: 'settings', name: 'Settings', icon: 'settings', group: 'settings', load: () => import('../features/settings/Settings.svelte') },
  { id: 'post', name: 'Post', icon: 'list', group: 'search', load: () => import('../features/post/PostView.svelte'), hidden: true },
  { id: 'user', name: 'Account', icon: 'list', group: 'search', load: () => import('../features/user/UserView.svelte'), hidden: true },
  // Opened from the Archive or an investigation ("Import posts…"), and shown over it.
  { id: 'imports', name: 'Import posts', icon: 'archive', group: 'records', load: () => import('../features/imports/Imports.svelte'), hidden: true },
  // Opened by "Analyse" on the results it analyses, and shown over them like a post or account.
  { id: 'analysis', name: 'Analysis', icon: 'trend', group: 'search', load: () => import('../features/analysis/Analysis.svelte'), hidden: true },
];

export const groupNames: Record<Screen['group'], string> = {
  search: 'Search',
  records: 'Records',
  settings: '',
};

export const defaultScreenId = 'x';

/** The screen a location hash like `#/settings` (or `#/x?q=…`, see navigate.ts) names, or the default one. */
export function screenFromHash(hash: string): Screen {
  const id = hash.replace(/^#\/?/, '').replace(/\?.*$/, '');
  const found = screens.find((screen) => screen.id === id) ?? screens.find((screen) => screen.id === defaultScreenId);
  if (!found) throw new Error('Sightline: no default screen is registered');
  return found;
}
