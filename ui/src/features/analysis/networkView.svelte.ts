/**
 * The network view's state, apart from its markup (Network.svelte renders it): the filters, the
 * network Rust counted for them, the account chosen, the tables' extent and the exports. The
 * picture (sigma.js and the layout worker) stays with the component, which owns the element it
 * draws in.
 */
import { analysisExportNetwork, analysisNetwork, asCommandError } from '$lib/ipc';
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { CommandError } from '$lib/bindings/CommandError';
import type { EdgeKind } from '$lib/bindings/EdgeKind';
import type { Network } from '$lib/bindings/Network';
import type { NetworkFormat } from '$lib/bindings/NetworkFormat';
import type { NetworkQuery } from '$lib/bindings/NetworkQuery';
import { notSaved, savedTo, type SaveNote } from './chartSave';
import { EDGE_KINDS, kindWord, networkSummary, nodeStats, type NodeStats } from './network';

/** Rows shown in each table before "Show all" (the CSV always holds every row). */
export const TABLE_ROWS = 100;

/** How long the filters must rest before Rust is asked again (the slider moves in steps). */
const SETTLE_MS = 200;

export class NetworkView {
  kinds = $state<Record<EdgeKind, boolean>>({ repost: true, reply: true, quote: true, mention: true });
  minWeight = $state(1);
  /** The heaviest edge seen at weight 1 with these kinds: the slider's end. */
  heaviest = $state(1);
  network = $state.raw<Network | null>(null);
  error = $state<CommandError | null>(null);
  loading = $state(false);
  /** Bumped by Retry: asks again for the same scope and filters. */
  attempt = $state(0);
  selected = $state<string | null>(null);
  /** The account whose posts the dialog lists. */
  listing = $state<{ id: string; label: string } | null>(null);
  showTables = $state(false);
  allNodes = $state(false);
  allEdges = $state(false);
  exportNote = $state<SaveNote | null>(null);
  exporting = $state(false);

  readonly query = $derived<NetworkQuery>({ kinds: EDGE_KINDS.filter((kind) => this.kinds[kind]), min_weight: this.minWeight, max_edges: 0 });
  readonly stats = $derived<NodeStats[]>(this.network ? nodeStats(this.network) : []);
  readonly summary = $derived(this.network ? networkSummary(this.network, this.stats) : '');
  readonly chosen = $derived<NodeStats | null>(this.stats.find((node) => node.id === this.selected) ?? null);
  readonly chosenEdges = $derived(
    this.network && this.selected ? this.network.edges.filter((edge) => edge.source === this.selected || edge.target === this.selected) : [],
  );
  /** What the view says when no edge is left to draw. */
  readonly emptyWords = $derived(
    this.query.kinds.length === 0
      ? 'Choose at least one kind of edge to see the network.'
      : `No ${this.query.kinds.map((kind) => kindWord(kind)).join(', ')} between accounts${this.minWeight > 1 ? ` weigh ${this.minWeight} or more` : ''} in this scope. Fetching who reposted a post (on the post's page) adds its reposts here.`,
  );

  constructor(private readonly scope: () => AnalysisScope) {}

  /**
   * Asks Rust for the network of the scope and filters once they have rested; an answer to an
   * earlier question is dropped. Call it in an effect: it reads what it depends on and returns
   * the cancel.
   */
  follow(): () => void {
    const asked = { scope: this.scope(), query: this.query, attempt: this.attempt };
    const timer = setTimeout(() => {
      this.loading = true;
      this.error = null;
      analysisNetwork(asked.scope, asked.query)
        .then((answer) => {
          if (asked.scope !== this.scope() || JSON.stringify(asked.query) !== JSON.stringify(this.query)) return;
          if (asked.query.min_weight === 1) this.heaviest = Math.max(1, answer.edges[0]?.weight ?? 1);
          this.network = answer;
          if (this.selected && !answer.nodes.some((node) => node.id === this.selected)) this.selected = null;
        })
        .catch((failure) => (this.error = asCommandError(failure)))
        .finally(() => (this.loading = false));
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }

  /** An account chosen in the picture or the table: its posts listed when it wrote any here. */
  choose(id: string): void {
    this.selected = id;
    const node = this.network?.nodes.find((candidate) => candidate.id === id);
    if (node && node.posts > 0) this.listing = { id: node.id, label: node.label };
  }

  labelOf(id: string): string {
    return this.network?.nodes.find((node) => node.id === id)?.label ?? `@${id}`;
  }

  async exportAs(format: NetworkFormat): Promise<void> {
    this.exporting = true;
    this.exportNote = null;
    try {
      const path = await analysisExportNetwork(this.scope(), this.query, format);
      this.exportNote = path ? savedTo(path) : null;
    } catch (failure) {
      this.exportNote = notSaved(asCommandError(failure).message);
    } finally {
      this.exporting = false;
    }
  }
}
