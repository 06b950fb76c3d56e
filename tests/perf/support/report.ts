/** Figures for the perf specs: summary statistics and plain-text tables, printed and kept on disk. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { browser } from '@wdio/globals';
import path from 'node:path';
import { repoRoot } from '../../support/app.ts';

export const resultsDir = path.join(repoRoot, 'target', 'perf-results');

export function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** The value below which `p` percent of the values fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  const ordered = sorted(values);
  if (ordered.length === 0) return Number.NaN;
  const rank = Math.min(ordered.length - 1, Math.max(0, Math.ceil((p / 100) * ordered.length) - 1));
  return ordered[rank] as number;
}

export function median(values: number[]): number {
  const ordered = sorted(values);
  if (ordered.length === 0) return Number.NaN;
  const middle = Math.floor(ordered.length / 2);
  return ordered.length % 2 === 1
    ? (ordered[middle] as number)
    : ((ordered[middle - 1] as number) + (ordered[middle] as number)) / 2;
}

export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : 'n/a';
}

/** A left-aligned first column and right-aligned figures, with a rule under the header. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Prints a block of figures and keeps it in target/perf-results/<name>.txt (and .json). */
export function report(name: string, text: string, data: unknown): void {
  console.log(`\n${text}\n`);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, `${name}.txt`), `${text}\n`);
  writeFileSync(path.join(resultsDir, `${name}.json`), `${JSON.stringify(data, null, 2)}\n`);
}

/** Keeps a picture of what was measured (target/perf-results/<name>.png), once a frame is painted. */
export async function snapshot(name: string): Promise<void> {
  mkdirSync(resultsDir, { recursive: true });
  await browser.executeAsync((done: () => void) => {
    requestAnimationFrame(() => requestAnimationFrame(() => done()));
  });
  await browser.saveScreenshot(path.join(resultsDir, `${name}.png`));
}
