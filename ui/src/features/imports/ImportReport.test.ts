import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { emit } from '@tauri-apps/api/event';
import type { ImportProgress } from '$lib/bindings/ImportProgress';
import type { StoredImport } from '$lib/bindings/StoredImport';
import { holdable, mockBackend } from '../../test/backend';
import { makeStoredImport } from '../../test/fixtures';
import ImportReport from './ImportReport.svelte';

const running = makeStoredImport({ id: 5, file_name: 'levee.jsonl', file_size: 9_000, state: 'running', lines_done: 100, offset_done: 6_000, imported: 100, already_held: 0, not_a_post: 0, unreadable: 0, finished_at: null });
const done: StoredImport = { ...running, state: 'done', lines_done: 150, offset_done: 9_000, imported: 150, finished_at: '2026-11-28T04:31:00.000Z' };

function step(linesDone: number): ImportProgress {
  return { importId: 5, phase: 'reading', fileName: 'levee.jsonl', format: 'twarc2_flat', bytesDone: linesDone * 60, fileSize: 9_000, linesDone, imported: linesDone, alreadyHeld: 0, notAPost: 0, unreadable: 0 };
}

describe("an import's report", () => {
  it('stays Done when a read asked while the import ran answers after the read at its end', async () => {
    let stored = running;
    let runningNow: ImportProgress | null = step(100);
    const reads = holdable(() => stored);
    mockBackend({
      import_get: reads.handler,
      import_running: () => runningNow,
      import_lines: () => [],
      investigation_list: () => [],
      investigation_active: () => null,
    });
    render(ImportReport, { id: 5 });
    await vi.waitFor(() => expect(screen.getByTestId('import-state')).toHaveTextContent('Importing'));

    // A step of the run: the report reads the import again, and that read is slow to answer.
    reads.hold();
    await emit('import-progress', step(120));
    await vi.waitFor(() => expect(reads.held).toBe(1));

    // The import ends: its last step, then records changed; the report reads it as done.
    stored = done;
    runningNow = null;
    await emit('records-changed');
    await vi.waitFor(() => expect(screen.getByTestId('import-state')).toHaveTextContent('Done'));

    // The slow read from before the end answers only now, with the import still running.
    await reads.release();
    expect(screen.getByTestId('import-state')).toHaveTextContent('Done');
    expect(screen.queryByText(/Sightline closed while this import read the file/)).toBeNull();
  });
});
