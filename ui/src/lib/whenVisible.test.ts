import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenVisible } from './whenVisible';

/**
 * IntersectionObserver as browsers behave: observing reports the current state at once (after
 * a task), and a change of visibility reports again. jsdom has none.
 */
class FakeObserver {
  static all: FakeObserver[] = [];
  visible = false;
  targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
    setTimeout(() => this.report(), 0);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** The sentinel scrolls into or out of view. */
  scroll(visible: boolean) {
    this.visible = visible;
    this.report();
  }
  private report() {
    const entries = [...this.targets].map((target) => ({ target, isIntersecting: this.visible }) as IntersectionObserverEntry);
    if (entries.length > 0) this.callback(entries, this as unknown as IntersectionObserver);
  }
}

beforeEach(() => {
  FakeObserver.all = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('whenVisible', () => {
  it('loads when the sentinel scrolls into view, only while enabled', () => {
    const onvisible = vi.fn();
    const action = whenVisible(document.createElement('div'), { enabled: true, onvisible });
    const observer = FakeObserver.all[0]!;
    observer.scroll(true);
    expect(onvisible).toHaveBeenCalledTimes(1);
    action.update({ enabled: false, onvisible });
    observer.scroll(false);
    observer.scroll(true);
    expect(onvisible).toHaveBeenCalledTimes(1);
    action.destroy();
  });

  it('loads again when re-enabled while the sentinel is still in view', async () => {
    const onvisible = vi.fn();
    const action = whenVisible(document.createElement('div'), { enabled: true, onvisible });
    const observer = FakeObserver.all[0]!;
    // The first report: not in view yet.
    await new Promise((resolve) => setTimeout(resolve, 0));
    observer.scroll(true);
    expect(onvisible).toHaveBeenCalledTimes(1);
    action.update({ enabled: false, onvisible });
    // The page arrived and did not fill the screen: the sentinel is still visible.
    action.update({ enabled: true, onvisible });
    await vi.waitFor(() => expect(onvisible).toHaveBeenCalledTimes(2));
    action.destroy();
  });

  it('does nothing without IntersectionObserver (the Load more button remains)', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const onvisible = vi.fn();
    const action = whenVisible(document.createElement('div'), { enabled: true, onvisible });
    action.update({ enabled: true, onvisible });
    action.destroy();
    expect(onvisible).not.toHaveBeenCalled();
  });
});
