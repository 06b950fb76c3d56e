import type { Component } from 'svelte';
import Settings from '../features/settings/Settings.svelte';
import History from '../features/history/History.svelte';
import Spend from '../features/spend/Spend.svelte';
import type { IconName } from '../components/icons';

/** A screen in the sidebar. Only screens that work are listed: later features add theirs here. */
export interface Screen {
  id: string;
  name: string;
  icon: IconName;
  group: 'search' | 'records' | 'settings';
  component: Component;
}

export const screens: Screen[] = [
  { id: 'history', name: 'History', icon: 'history', group: 'records', component: History },
  { id: 'spend', name: 'Spend', icon: 'spend', group: 'records', component: Spend },
  { id: 'settings', name: 'Settings', icon: 'settings', group: 'settings', component: Settings },
];

export const groupNames: Record<Screen['group'], string> = {
  search: 'Search',
  records: 'Records',
  settings: '',
};

export const defaultScreenId = 'settings';

/** The screen a location hash like `#/settings` names, or the default one. */
export function screenFromHash(hash: string): Screen {
  const id = hash.replace(/^#\/?/, '');
  const found = screens.find((screen) => screen.id === id) ?? screens.find((screen) => screen.id === defaultScreenId);
  if (!found) throw new Error('Sightline: no default screen is registered');
  return found;
}
