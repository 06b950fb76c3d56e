import { afterEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { listKeys, targetIndex } from './listKeys';

/** A list of `count` focusable cards, each with a button inside, as the result lists render them. */
function makeList(count: number) {
  const root = document.createElement('div');
  for (let index = 0; index < count; index += 1) root.append(card(index));
  document.body.append(root);
  return root;
}

function card(index: number) {
  const item = document.createElement('article');
  item.tabIndex = 0;
  item.dataset.navIndex = String(index);
  item.textContent = `card ${index}`;
  const button = document.createElement('button');
  button.textContent = `action ${index}`;
  item.append(button);
  return item;
}

const item = (root: HTMLElement, index: number) => root.querySelector(`[data-nav-index="${index}"]`);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('targetIndex', () => {
  it('moves one step, jumps to the ends and stays inside the list', () => {
    expect(targetIndex('ArrowDown', 0, 3)).toBe(1);
    expect(targetIndex('j', 2, 3)).toBe(2);
    expect(targetIndex('ArrowUp', 0, 3)).toBe(0);
    expect(targetIndex('k', 2, 3)).toBe(1);
    expect(targetIndex('Home', 2, 3)).toBe(0);
    expect(targetIndex('End', 0, 3)).toBe(2);
    expect(targetIndex('x', 0, 3)).toBeNull();
    expect(targetIndex('ArrowDown', 0, 0)).toBeNull();
  });
});

describe('listKeys', () => {
  it('moves focus with arrows, j/k, Home and End', async () => {
    const user = userEvent.setup();
    const root = makeList(5);
    listKeys(root, { count: 5 });
    (item(root, 0) as HTMLElement).focus();
    await user.keyboard('{ArrowDown}');
    expect(item(root, 1)).toHaveFocus();
    await user.keyboard('j');
    expect(item(root, 2)).toHaveFocus();
    await user.keyboard('k');
    expect(item(root, 1)).toHaveFocus();
    await user.keyboard('{End}');
    expect(item(root, 4)).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(item(root, 4)).toHaveFocus();
    await user.keyboard('{Home}');
    expect(item(root, 0)).toHaveFocus();
  });

  it('moves on from a control inside a card, and into the list from the list itself', async () => {
    const user = userEvent.setup();
    const root = makeList(3);
    root.tabIndex = -1;
    listKeys(root, { count: 3 });
    root.querySelector<HTMLButtonElement>('[data-nav-index="1"] button')?.focus();
    await user.keyboard('{ArrowDown}');
    expect(item(root, 2)).toHaveFocus();
    root.focus();
    await user.keyboard('{ArrowDown}');
    expect(item(root, 0)).toHaveFocus();
  });

  it('opens the focused card with Enter, but leaves Enter on its links and buttons alone', async () => {
    const user = userEvent.setup();
    const root = makeList(3);
    const onopen = vi.fn();
    listKeys(root, { count: 3, onopen });
    (item(root, 2) as HTMLElement).focus();
    await user.keyboard('{Enter}');
    expect(onopen).toHaveBeenCalledWith(2);
    root.querySelector<HTMLButtonElement>('[data-nav-index="1"] button')?.focus();
    await user.keyboard('{Enter}');
    expect(onopen).toHaveBeenCalledTimes(1);
  });

  it('does not take j and k away from a text field', async () => {
    const user = userEvent.setup();
    const root = makeList(3);
    const input = document.createElement('input');
    root.append(input);
    listKeys(root, { count: 3 });
    input.focus();
    await user.keyboard('jk{ArrowDown}');
    expect(input).toHaveFocus();
    expect(input).toHaveValue('jk');
  });

  it('asks a virtual list to render an item that is not in the DOM, then focuses it', async () => {
    const user = userEvent.setup();
    // Only the first three of 100 items are rendered, as in a virtual list.
    const root = makeList(3);
    const reveal = vi.fn((index: number) => {
      setTimeout(() => root.append(card(index)), 5);
    });
    listKeys(root, { count: 100, reveal });
    (item(root, 0) as HTMLElement).focus();
    await user.keyboard('{End}');
    expect(reveal).toHaveBeenCalledWith(99);
    await vi.waitFor(() => expect(item(root, 99)).toHaveFocus());
  });
});
