import { describe, expect, it } from 'vitest';
import { defaultScreenId, screenFromHash, screens } from './screens';

describe('screenFromHash', () => {
  it('finds each registered screen by its hash', () => {
    for (const screen of screens) {
      expect(screenFromHash(`#/${screen.id}`).id).toBe(screen.id);
    }
  });

  it('falls back to the default screen for an empty or unknown hash', () => {
    expect(screenFromHash('').id).toBe(defaultScreenId);
    expect(screenFromHash('#/no-such-screen').id).toBe(defaultScreenId);
  });

  it('ignores parameters after the screen id', () => {
    expect(screenFromHash('#/x?q=%23flood').id).toBe('x');
  });

  it('registers the post, account, import and analysis views as hidden detail views', () => {
    expect(screenFromHash('#/post?id=42')).toMatchObject({ id: 'post', hidden: true });
    expect(screenFromHash('#/user?handle=ana').id).toBe('user');
    expect(screenFromHash('#/analysis?post=42&view=conversation')).toMatchObject({ id: 'analysis', hidden: true });
    expect(screenFromHash('#/imports?id=4')).toMatchObject({ id: 'imports', hidden: true });
    expect(screens.filter((screen) => screen.hidden).map((screen) => screen.id)).toEqual(['post', 'user', 'imports', 'analysis']);
  });
});

describe('screens', () => {
  it('lists the search screens with Ask first, and keeps X the default', () => {
    expect(screens.filter((screen) => screen.group === 'search' && !screen.hidden).map((screen) => screen.name)).toEqual(['Ask', 'X', 'Links', 'Web', 'Lookups', 'Trends', 'Monitors', 'Forecast']);
    expect(defaultScreenId).toBe('x');
  });

  it('gives Monitors a badge of unseen posts, and no other screen one', () => {
    expect(screens.filter((screen) => screen.badge).map((screen) => screen.id)).toEqual(['monitors']);
  });

  it('lists the records screens with Investigations after History', () => {
    expect(screens.filter((screen) => screen.group === 'records' && !screen.hidden).map((screen) => screen.name)).toEqual(['History', 'Investigations', 'Archive', 'Spend']);
  });
});
