import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { holdable, mockBackend, type Args } from '../../test/backend';
import type { ImportLineRow } from '$lib/bindings/ImportLineRow';
import { makeStoredImport } from '../../test/fixtures';
import ImportOutcomes from './ImportOutcomes.svelte';

const entry = makeStoredImport({ id: 5, file_name: 'levee.jsonl', file_size: 9_000, lines_done: 150, offset_done: 9_000, imported: 148, already_held: 0, not_a_post: 1, unreadable: 1 });

/** Line 10 unreadable, line 20 not a post, every other line a post. */
const all: ImportLineRow[] = Array.from({ length: 150 }, (_, index) => {
  const line = index + 1;
  if (line === 10) return { line, item: 0, outcome: 'unreadable', post_id: null, reason: 'not JSON' };
  if (line === 20) return { line, item: 0, outcome: 'not_a_post', post_id: null, reason: 'an account' };
  return { line, item: 0, outcome: 'imported', post_id: String(1600 + line), reason: '' };
});

function lines(args: Args): ImportLineRow[] {
  const afterLine = args.afterLine as number | null;
  const afterItem = args.afterItem as number | null;
  return all
    .filter((row) => args.outcome === null || row.outcome === args.outcome)
    .filter((row) => afterLine === null || row.line > afterLine || (row.line === afterLine && row.item > (afterItem ?? 0)))
    .slice(0, args.limit as number);
}

function backend(importLines: (args: Args) => unknown = lines) {
  return mockBackend({
    import_lines: importLines,
    import_export_outcomes: () => '/exports/sightline-import-5-levee-outcomes.csv',
  });
}

const bodyRows = () => within(screen.getByTestId('import-outcomes')).getAllByRole('row').slice(1);

describe('an import outcome table', () => {
  it('shows each line in file order a page at a time, its next page after the last line shown', async () => {
    const calls = backend();
    render(ImportOutcomes, { entry });
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(100));
    expect(bodyRows()[9]).toHaveTextContent(/^10\s*Unreadable\s*not JSON$/);
    expect(screen.getByRole('status')).toHaveTextContent('Outcomes 1–100 of 150');
    await userEvent.click(screen.getByRole('button', { name: 'Next 100' }));
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(50));
    expect(calls.import_lines?.at(-1)).toMatchObject({ id: 5, afterLine: 100, afterItem: 0, outcome: null, limit: 101 });
    expect(screen.getByRole('button', { name: 'Next 100' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous 100' }));
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(100));
  });

  it('filters by outcome from the first line, and exports every outcome', async () => {
    const calls = backend();
    render(ImportOutcomes, { entry });
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(100));
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Not a post (1)');
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]).toHaveTextContent(/^20\s*Not a post\s*an account$/);
    expect(calls.import_lines?.at(-1)).toMatchObject({ afterLine: null, outcome: 'not_a_post' });

    await userEvent.click(screen.getByRole('button', { name: 'Export outcomes' }));
    expect(await screen.findByTestId('import-export-note')).toHaveTextContent('Saved the outcomes to /exports/sightline-import-5-levee-outcomes.csv');
    expect(calls.import_export_outcomes).toEqual([{ id: 5 }]);
  });

  it('shows the filter chosen last when a read asked before it answers last', async () => {
    const reads = holdable(lines);
    backend(reads.handler);
    const { rerender } = render(ImportOutcomes, { entry });
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(100));

    // The import moves on: the page is read again, and that read is slow to answer.
    reads.hold();
    await rerender({ entry, version: 1 });
    await vi.waitFor(() => expect(reads.held).toBe(1));

    // A filter is chosen meanwhile: its read answers at once.
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Not a post (1)');
    await vi.waitFor(() => expect(bodyRows()).toHaveLength(1));

    // The slow read, of every outcome, answers only now.
    await reads.release();
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0]).toHaveTextContent(/^20\s*Not a post\s*an account$/);
  });
});
