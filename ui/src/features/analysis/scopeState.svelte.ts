/**
 * The analysis screen's one piece of shared state: the scope's source, the time range dragged
 * on the activity chart, and the filters clicked in the top lists (or the network). Every view
 * reads `scope`, a new object whenever any of them changes, and fetches again from it.
 */
import type { AnalysisScope } from '$lib/bindings/AnalysisScope';
import type { ScopeFilters } from '$lib/bindings/ScopeFilters';
import type { ScopeSource } from '$lib/bindings/ScopeSource';

export type FilterKind = keyof ScopeFilters;

/** A filter as its chip shows it: "#floods", "@ana", "example.org", "language: en". */
export interface FilterChip {
  kind: FilterKind;
  key: string;
  label: string;
}

/** `[from, to)` in UTC, as ISO text. */
export interface TimeRange {
  from: string;
  to: string;
}

const KIND_WORDS: Record<FilterKind, string> = {
  account: 'Posts by',
  hashtag: 'Hashtag',
  mention: 'Mentioning',
  cashtag: 'Cashtag',
  domain: 'Linking to',
  language: 'Language',
};

/** What a chip says of its filter, for its text and its Remove button. */
export function chipWords(chip: FilterChip): string {
  return `${KIND_WORDS[chip.kind]} ${chip.label}`;
}

function noFilters(): ScopeFilters {
  return { account: null, hashtag: null, mention: null, cashtag: null, domain: null, language: null };
}

export class ScopeState {
  range = $state.raw<TimeRange | null>(null);
  chips = $state.raw<FilterChip[]>([]);

  constructor(readonly source: ScopeSource) {}

  /** The scope every view asks about. */
  readonly scope: AnalysisScope = $derived.by(() => {
    const filters = noFilters();
    for (const chip of this.chips) filters[chip.kind] = chip.key;
    return { source: this.source, from: this.range?.from ?? null, to: this.range?.to ?? null, filters };
  });

  /** Whether a range or a filter narrows the scope. */
  readonly narrowed: boolean = $derived(this.range !== null || this.chips.length > 0);

  /** The scope before any range or filter: what the header names. */
  get whole(): AnalysisScope {
    return { source: this.source, from: null, to: null, filters: noFilters() };
  }

  /** Narrows to one value of a kind; a second click of the same kind replaces the first. */
  filterBy = (kind: FilterKind, key: string, label: string): void => {
    this.chips = [...this.chips.filter((chip) => chip.kind !== kind), { kind, key, label }];
  };

  removeFilter = (kind: FilterKind): void => {
    this.chips = this.chips.filter((chip) => chip.kind !== kind);
  };

  setRange = (range: TimeRange | null): void => {
    this.range = range;
  };
}
