/**
 * The history list's state, apart from its markup (HistoryList.svelte renders it): the filters
 * and the query they make, the rows fetched a page at a time as they scroll into view (an answer
 * to an earlier query dropped), the row selected and its stored result opened, and the export.
 */
import { untrack } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';
import { errorMessage, exportHistory, historyDelete, historyList, historyPin, historyResult } from '$lib/ipc';
import type { HistoryEntry } from '$lib/bindings/HistoryEntry';
import type { HistoryQuery } from '$lib/bindings/HistoryQuery';
import type { RequestStatus } from '$lib/bindings/RequestStatus';
import type { ExportFormat } from '$lib/bindings/ExportFormat';
import type { ForecastJob } from '$lib/bindings/ForecastJob';
import { VirtualRows } from '$lib/virtualRows.svelte';
import { noteOnly, savedTo, type SaveNote } from '$lib/saveNote';
import { loadHistoryCaptures } from '$lib/captures.svelte';
import { forecastJob } from '$lib/forecastForm';
import { countOf, zoneDayStart } from '$lib/format';
import { dayRangeProblems } from '$lib/rules';
import { postLines } from './describe';

/** Rows asked for at a time: 100,000 rows stay cheap. */
export const PAGE = 200;
/** A row's whole height: the request (two lines when narrow), its capture line, a gap. */
export const ROW_HEIGHT = 70;
/** How long typing in the text filter must pause before it queries. */
const TEXT_PAUSE_MS = 250;

/** A request's stored result, opened: its posts as lines, a forecast's answer, or the raw body. */
export interface OpenedResult {
  id: number;
  lines: { author: string; text: string }[] | null;
  forecast: ForecastJob | null;
  raw: string;
}

/** A calendar day of the display zone as the instant it starts, `plus` days later. */
function dayStart(day: string, plus = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  const next = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + plus)).toISOString().slice(0, 10);
  return (zoneDayStart(next) ?? new Date(`${next}T00:00:00Z`)).toISOString();
}

export class HistoryView {
  // Filters, as the user set them.
  operation = $state('');
  status = $state<RequestStatus | ''>('');
  fromDay = $state('');
  toDay = $state('');
  text = $state('');
  pinnedOnly = $state(false);
  /** What is wrong with the typed days; a day that does not read filters nothing until it does. */
  readonly dayProblems = $derived(dayRangeProblems(this.fromDay, this.toDay));
  readonly fromFilter = $derived(this.dayProblems.from ? '' : this.fromDay.trim());
  readonly toFilter = $derived(this.dayProblems.to ? '' : this.toDay.trim());
  readonly filtered = $derived(
    this.operation !== '' || this.status !== '' || this.fromDay !== '' || this.toDay !== '' || this.text.trim() !== '' || this.pinnedOnly,
  );

  total = $state(0);
  pages = $state<Record<number, HistoryEntry[]>>({});
  loaded = $state(false);
  failure = $state<string | null>(null);
  #generation = 0;
  /** The query (generation) each page held was fetched for: only a current page is paged after. */
  readonly #pageGeneration = new Map<number, number>();
  readonly #inFlight = new Set<number>();
  #textTimer: ReturnType<typeof setTimeout> | undefined;

  selected = $state<HistoryEntry | null>(null);
  opened = $state<OpenedResult | null>(null);
  detailProblem = $state<string | null>(null);
  confirmingDelete = $state(false);
  exportFormat = $state<ExportFormat>('csv');
  exportNote = $state<SaveNote | null>(null);
  /** Rows ticked for export: a hand-picked selection beats the filters. */
  readonly picked = new SvelteSet<number>();

  /** The virtual list: one fixed-height row per request, whether its page has arrived or not. */
  readonly rows = new VirtualRows({ estimateSize: () => ROW_HEIGHT, overscan: 10 });

  /** `investigationId`: inside an investigation's page, only the requests filed in it. */
  constructor(private readonly investigationId: () => number | null) {}

  /** Calendar days of the display zone become instants: `to` is exclusive, so the day after the last one. */
  query(): Partial<HistoryQuery> {
    return {
      operation: this.operation || null,
      status: this.status || null,
      from: this.fromFilter ? dayStart(this.fromFilter) : null,
      to: this.toFilter ? dayStart(this.toFilter, 1) : null,
      text: this.text.trim() || null,
      pinned_only: this.pinnedOnly,
      investigation_id: this.investigationId(),
    };
  }

  async loadPage(page: number, current = this.#generation): Promise<void> {
    if (this.#inFlight.has(page)) return;
    this.#inFlight.add(page);
    try {
      // The page after the last row of the one before, when that one is of this query (keyset
      // paging: an offset makes the database read every row it skips); else by offset.
      const before = this.#pageGeneration.get(page - 1) === current ? this.pages[page - 1]?.at(-1) : undefined;
      const result = await historyList({ ...this.query(), limit: PAGE, offset: page * PAGE, after: before?.id ?? null });
      if (current !== this.#generation || !result) return;
      this.pages[page] = result.entries;
      this.#pageGeneration.set(page, current);
      this.total = result.total;
      this.failure = null;
      // The page's capture lines in one call.
      void loadHistoryCaptures(result.entries.map((entry) => entry.id));
    } catch (error) {
      if (current === this.#generation) this.failure = errorMessage(error);
    } finally {
      this.#inFlight.delete(page);
    }
  }

  /** Starts over from the newest row: after a filter change or a new request anywhere. */
  async reload(): Promise<void> {
    this.#generation += 1;
    this.#inFlight.clear();
    const current = this.#generation;
    const wanted = new Set([0, ...this.rows.items.map((item) => Math.floor(item.index / PAGE))]);
    const before = this.pages;
    await Promise.all([...wanted].map((page) => this.loadPage(page, current)));
    if (current !== this.#generation) return;
    // Drop pages from the previous filter that were not fetched again.
    for (const key of Object.keys(before)) if (!wanted.has(Number(key))) delete this.pages[Number(key)];
    this.loaded = true;
    if (this.selected) this.selected = this.rowAt(this.indexOf(this.selected.id)) ?? this.selected;
  }

  /** The text filter was typed in: query once typing pauses. */
  textChanged(): void {
    clearTimeout(this.#textTimer);
    this.#textTimer = setTimeout(() => void this.reload(), TEXT_PAUSE_MS);
  }

  /** Fetches the pages the visible rows fall in (call it in an effect). */
  loadVisible(): void {
    for (const item of this.rows.items) {
      const page = Math.floor(item.index / PAGE);
      if (!untrack(() => this.pages[page])) void this.loadPage(page);
    }
  }

  rowAt(index: number): HistoryEntry | undefined {
    return index < 0 ? undefined : this.pages[Math.floor(index / PAGE)]?.[index % PAGE];
  }

  indexOf(id: number): number {
    for (const [page, entries] of Object.entries(this.pages)) {
      const at = entries.findIndex((entry) => entry.id === id);
      if (at >= 0) return Number(page) * PAGE + at;
    }
    return -1;
  }

  togglePicked(id: number, on: boolean): void {
    if (on) this.picked.add(id);
    else this.picked.delete(id);
  }

  select(entry: HistoryEntry): void {
    this.selected = entry;
    this.opened = null;
    this.detailProblem = null;
    this.confirmingDelete = false;
  }

  /** The row `step` places from the selected one (Up and Down, as in a mail list), selected. */
  step(step: number): { entry: HistoryEntry; index: number } | null {
    if (!this.selected) return null;
    const index = this.indexOf(this.selected.id) + step;
    const entry = this.rowAt(index);
    if (!entry) return null;
    this.select(entry);
    return { entry, index };
  }

  async open(entry: HistoryEntry): Promise<void> {
    this.detailProblem = null;
    try {
      const stored = await historyResult(entry.id);
      let lines: OpenedResult['lines'] = null;
      let forecast: ForecastJob | null = null;
      let raw = stored.body;
      try {
        const body: unknown = JSON.parse(stored.body);
        lines = postLines(body);
        forecast = entry.operation === 'forecast' ? forecastJob(body) : null;
        raw = JSON.stringify(body, null, 2);
      } catch {
        // Not JSON (a crawled page): shown as the text it is.
      }
      this.opened = { id: entry.id, lines, forecast, raw };
    } catch (error) {
      this.detailProblem = errorMessage(error);
    }
  }

  async togglePin(entry: HistoryEntry): Promise<void> {
    try {
      await historyPin(entry.id, !entry.pinned);
      const updated = { ...entry, pinned: !entry.pinned };
      const index = this.indexOf(entry.id);
      const page = this.pages[Math.floor(index / PAGE)];
      if (page) page[index % PAGE] = updated;
      this.selected = updated;
    } catch (error) {
      this.detailProblem = errorMessage(error);
    }
  }

  async remove(entry: HistoryEntry): Promise<void> {
    try {
      await historyDelete(entry.id);
      this.picked.delete(entry.id);
      this.selected = null;
      this.opened = null;
      this.confirmingDelete = false;
      await this.reload();
    } catch (error) {
      this.detailProblem = errorMessage(error);
    }
  }

  async exportRows(): Promise<void> {
    this.exportNote = null;
    try {
      const ids = this.picked.size > 0 ? [...this.picked] : undefined;
      const path = await exportHistory(this.query(), this.exportFormat, ids);
      const count = ids?.length ?? this.total;
      this.exportNote = path ? savedTo(path, `Saved ${countOf(count, 'request', 'requests')}`) : null;
    } catch (error) {
      this.exportNote = noteOnly(`The export failed: ${errorMessage(error)}`);
    }
  }

  /** The list is gone: a pending text query is not sent. */
  destroy(): void {
    clearTimeout(this.#textTimer);
  }
}
