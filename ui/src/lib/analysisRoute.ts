/**
 * What the analysis screen's address names (lib/navigate.ts builds it): the scope's source,
 * the view to open on, and for a conversation the post. An address that does not parse names
 * nothing, and the screen says so rather than guessing.
 */
import type { ScopeSource } from '$lib/bindings/ScopeSource';
import { hashParams, type AnalysisView } from '$lib/navigate';

export const VIEWS: AnalysisView[] = ['activity', 'hours', 'top', 'network', 'coordination', 'pictures', 'conversation'];

export interface AnalysisRoute {
  source: ScopeSource | null;
  postId: string | null;
  view: AnalysisView;
}

function isSource(value: unknown): value is ScopeSource {
  if (!value || typeof value !== 'object') return false;
  const source = value as Record<string, unknown>;
  switch (source.kind) {
    case 'request':
      return Number.isInteger(source.history_id);
    case 'investigation':
      return Number.isInteger(source.id);
    case 'archive':
      return !!source.query && typeof source.query === 'object';
    default:
      return false;
  }
}

export function readRoute(hash: string): AnalysisRoute {
  const params = hashParams(hash);
  let source: ScopeSource | null = null;
  try {
    const parsed: unknown = JSON.parse(params.get('source') ?? 'null');
    source = isSource(parsed) ? parsed : null;
  } catch {
    source = null;
  }
  const postId = params.get('post')?.trim() || null;
  const asked = params.get('view') as AnalysisView | null;
  const usable = asked && VIEWS.includes(asked) && (asked !== 'conversation' || postId) ? asked : null;
  return { source, postId, view: usable ?? (source ? 'activity' : 'conversation') };
}
