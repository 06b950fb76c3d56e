import type { Component } from 'svelte';
import Ask from '../features/ask/Ask.svelte';
import Settings from '../features/settings/Settings.svelte';
import XSearch from '../features/x/XSearch.svelte';
import Links from '../features/links/Links.svelte';
import Web from '../features/web/Web.svelte';
import Lookups from '../features/lookups/Lookups.svelte';
import TrendsScreen from '../features/trends/Trends.svelte';
import Archive from '../features/archive/Archive.svelte';
import History from '../features/history/History.svelte';
import Spend from '../features/spend/Spend.svelte';
import PostView from '../features/post/PostView.svelte';
import UserView from '../features/user/UserView.svelte';
import type { IconName } from '../components/icons';

/** A screen in the sidebar. Only screens that work are listed: later features add theirs here. */
export interface Screen {
  id: string;
  name: string;
  icon: IconName;
  group: 'search' | 'records' | 'settings';
  component: Component;
  /**
   * A detail view (a post, an account), opened from results rather than from the sidebar: not
   * listed there, shown over the screen it was opened from, which keeps its place behind it.
   */
  hidden?: boolean;
}

export const screens: Screen[] = [
  { id: 'ask', name: 'Ask', icon: 'ask', group: 'search', component: Ask },
  { id: 'x', name: 'X', icon: 'search', group: 'search', component: XSearch },
  { id: 'links', name: 'Links', icon: 'link', group: 'search', component: Links },
  { id: 'web', name: 'Web', icon: 'globe', group: 'search', component: Web },
  { id: 'lookups', name: 'Lookups', icon: 'list', group: 'search', component: Lookups },
  { id: 'trends', name: 'Trends', icon: 'trend', group: 'search', component: TrendsScreen },
  { id: 'history', name: 'History', icon: 'history', group: 'records', component: History },
  { id: 'archive', name: 'Archive', icon: 'archive', group: 'records', component: Archive },
  { id: 'spend', name: 'Spend', icon: 'spend', group: 'records', component: Spend },
  { id: 'settings', name: 'Settings', icon: 'settings', group: 'settings', component: Settings },
  { id: 'post', name: 'Post', icon: 'list', group: 'search', component: PostView, hidden: true },
  { id: 'user', name: 'Account', icon: 'list', group: 'search', component: UserView, hidden: true },
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
