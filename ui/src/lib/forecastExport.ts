/** Words and choices for exporting forecasts (the writing itself is in Rust: crates/store/src/export/forecasts.rs). */
import type { ExportFormat } from '$lib/bindings/ExportFormat';
import { countOf } from '$lib/format';

/** The formats a forecast exports to, the citation first: it is what a text quotes. */
export const forecastExportFormats: { value: ExportFormat; name: string }[] = [
  { value: 'markdown', name: 'Citation (Markdown)' },
  { value: 'csv', name: 'CSV' },
  { value: 'jsonl', name: 'JSON Lines' },
];

/** Where the export went: `count` forecasts, or all of them when `null`. */
export function forecastExportNote(path: string, count: number | null): string {
  const what = count === null ? 'all forecasts' : count === 1 ? 'this forecast' : countOf(count, 'forecast', 'forecasts');
  return `Saved ${what} to ${path}`;
}
