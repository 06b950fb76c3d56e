import { describe, expect, it, vi } from 'vitest';
import { escapeClosesOnlyTheDialog } from './dialog';

describe('escapeClosesOnlyTheDialog', () => {
  it('keeps Esc from the window, lets what is inside the dialog see it, and leaves other keys alone', () => {
    const dialog = document.createElement('dialog');
    const field = document.createElement('button');
    dialog.append(field);
    document.body.append(dialog);
    const inside = vi.fn();
    const behind = vi.fn();
    field.addEventListener('keydown', inside);
    window.addEventListener('keydown', behind);
    const detach = escapeClosesOnlyTheDialog(dialog);

    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(inside).toHaveBeenCalledOnce();
    expect(behind).not.toHaveBeenCalled();
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(behind).toHaveBeenCalledOnce();

    // Detached (the dialog unmounted): Esc reaches the window again.
    detach();
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(behind).toHaveBeenCalledTimes(2);
    window.removeEventListener('keydown', behind);
    dialog.remove();
  });
});
