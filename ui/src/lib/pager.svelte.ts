/**
 * A list the service pages by cursor (reposters, a user's timeline), as the UI sees it: the
 * first page from a request, each next page from the history id of the page before (the
 * command layer keeps the cursor; the UI never sees one). Pages already loaded stay when a
 * later one fails; Retry asks for that page again (a new request), a budget warning is accepted
 * by resending the same request id.
 */
import { asCommandError, newRequestId, type SendOptions } from './ipc';
import { addMoney } from './money';
import type { CommandError } from './bindings/CommandError';
import type { Outcome } from './bindings/Outcome';

export class Pager<Page, Item> {
  items = $state.raw<Item[]>([]);
  /** The latest page as received (a timeline page also carries the user). */
  last = $state.raw<Page | null>(null);
  pages = $state(0);
  busy = $state(false);
  error = $state<CommandError | null>(null);
  hasMore = $state(false);
  /** What the loaded pages cost together, exact, in `currency`. */
  spent = $state('0');
  currency = $state('USD');
  /** Pages answered from the local copy (304 or a replay): free. */
  freePages = $state(0);
  /** Pages billed at a cost that was not a number: in no sum (unknown), never counted as zero. */
  unreadable = $state(0);
  /** The history row of the first page: with the pages after it, the list an analysis reads. */
  firstHistoryId = $state<number | null>(null);
  private historyId: number | null = null;
  private requestId = '';
  private generation = 0;

  constructor(
    private readonly first: (options: SendOptions) => Promise<Outcome<Page>>,
    private readonly next: (historyId: number, options: SendOptions) => Promise<Outcome<Page>>,
    private readonly itemsOf: (page: Page) => Item[],
    /** Items repeated across pages are shown once. */
    private readonly keyOf: (item: Item) => string,
  ) {}

  /** Whether the first page has been asked for. */
  get started(): boolean {
    return this.pages > 0 || this.busy || this.error !== null;
  }

  /** The first page, dropping anything loaded before. */
  start(): Promise<void> {
    this.generation += 1;
    this.items = [];
    this.last = null;
    this.pages = 0;
    this.hasMore = false;
    this.spent = '0';
    this.freePages = 0;
    this.unreadable = 0;
    this.historyId = null;
    this.firstHistoryId = null;
    this.busy = false;
    return this.fetch(newRequestId(), false);
  }

  /** The next page; does nothing while one loads, after an error (until Retry) or at the end. */
  more(): Promise<void> {
    if (this.busy || this.error || !this.hasMore || this.historyId === null) return Promise.resolve();
    return this.fetch(newRequestId(), false);
  }

  /** Asks again for the page that failed, as a new request. */
  retry(): Promise<void> {
    if (this.busy) return Promise.resolve();
    return this.fetch(newRequestId(), false);
  }

  /** The user accepted the budget warning: the same request, confirmed. */
  confirm(): Promise<void> {
    if (this.busy) return Promise.resolve();
    return this.fetch(this.requestId, true);
  }

  dismiss(): void {
    this.error = null;
  }

  private async fetch(requestId: string, confirmBudget: boolean): Promise<void> {
    const generation = this.generation;
    const options = { requestId, confirmBudget };
    this.requestId = requestId;
    this.busy = true;
    this.error = null;
    try {
      const outcome = this.historyId === null ? await this.first(options) : await this.next(this.historyId, options);
      if (generation !== this.generation) return;
      this.add(outcome);
    } catch (error) {
      if (generation === this.generation) this.error = asCommandError(error);
    } finally {
      if (generation === this.generation) this.busy = false;
    }
  }

  private add(outcome: Outcome<Page>) {
    const seen = new Set(this.items.map(this.keyOf));
    const fresh = this.itemsOf(outcome.body).filter((item) => {
      const key = this.keyOf(item);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    this.items = [...this.items, ...fresh];
    this.last = outcome.body;
    this.pages += 1;
    this.hasMore = outcome.hasMore;
    this.historyId = outcome.historyId;
    if (this.pages === 1) this.firstHistoryId = outcome.historyId;
    if (outcome.billing) {
      if (outcome.billing.cost === null) this.unreadable += 1;
      else this.spent = addMoney(this.spent, outcome.billing.cost);
      this.currency = outcome.billing.currency;
    } else {
      this.freePages += 1;
    }
  }
}
