import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import TagInput from './TagInput.svelte';

const tags = ['dam', 'damage', 'evacuation'];
const suggest = (prefix: string) => Promise.resolve(tags.filter((tag) => tag.startsWith(prefix.toLowerCase())));

describe('TagInput', () => {
  it('suggests tags as typed, and Down then Enter takes one', async () => {
    const onpick = vi.fn();
    render(TagInput, { id: 'tag', label: 'Tag', suggest, onpick });
    const field = screen.getByRole('combobox', { name: 'Tag' });
    await userEvent.type(field, 'da');
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent?.trim())).toEqual(['dam', 'damage']);
    expect(field).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(field).toHaveAttribute('aria-activedescendant', 'tag-option-1');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    expect(onpick).toHaveBeenCalledWith('damage');
    expect(field).toHaveValue('damage');
    expect(field).toHaveAttribute('aria-expanded', 'false');
  });

  it('takes a new tag as typed with Enter, and Esc closes the suggestions', async () => {
    const onpick = vi.fn();
    render(TagInput, { id: 'tag', label: 'Add a tag', suggest, onpick });
    const field = screen.getByRole('combobox', { name: 'Add a tag' });
    await userEvent.type(field, 'e');
    await screen.findByRole('option', { name: 'evacuation' });
    await userEvent.keyboard('{Escape}');
    expect(field).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(field, 'yewitness{Enter}');
    expect(onpick).toHaveBeenCalledWith('eyewitness');
  });

  it('a click on a suggestion takes it', async () => {
    const onpick = vi.fn();
    render(TagInput, { id: 'tag', label: 'Tag', suggest, onpick });
    await userEvent.type(screen.getByRole('combobox', { name: 'Tag' }), 'ev');
    await userEvent.click(await screen.findByRole('option', { name: 'evacuation' }));
    expect(onpick).toHaveBeenCalledWith('evacuation');
  });
});
