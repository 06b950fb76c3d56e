/**
 * The UI's layering, held: shared code is named `$lib/…` and `$components/…` from outside it
 * (never by a chain of `../`), and a feature uses another only through those, so each feature
 * folder can change without breaking its neighbours. `lib/screens.ts` is the screen registry:
 * the one place that names every feature (each loaded when first opened).
 */
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob(['./**/*.ts', './**/*.svelte', '!./**/bindings/**'], { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** Every module specifier a file names, with the line it is on. */
function specifiers(text: string): Array<{ spec: string; line: number }> {
  const found: Array<{ spec: string; line: number }> = [];
  const pattern = /(?:\bfrom|\bimport|vi\.mock\(|import\()\s*['"]([^'"]+)['"]/g;
  for (const match of text.matchAll(pattern)) {
    found.push({ spec: match[1] ?? '', line: text.slice(0, match.index).split('\n').length });
  }
  return found;
}

/** The folder a `./…` path lies in, as `features/x`, `lib`, `components` or `` (src itself). */
function area(path: string): string {
  const parts = path.replace(/^\.\//, '').split('/');
  if (parts[0] === 'features') return parts.slice(0, 2).join('/');
  return parts.length > 1 ? (parts[0] ?? '') : '';
}

function resolve(from: string, spec: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const step of spec.split('/')) {
    if (step === '..') parts.pop();
    else if (step !== '.') parts.push(step);
  }
  return parts.join('/');
}

describe('imports', () => {
  it('finds the sources it checks', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
  });

  it('name shared code by its alias, and reach another feature only through lib or components', () => {
    const problems: string[] = [];
    for (const [path, text] of Object.entries(sources)) {
      if (path === './lib/screens.ts') continue;
      const here = area(path);
      for (const { spec, line } of specifiers(text)) {
        if (!spec.startsWith('../')) continue;
        const target = area(resolve(path, spec));
        if (target === here) continue;
        if (target === 'lib' || target === 'components') problems.push(`${path}:${line} imports ${spec}: write $${target}/…`);
        else if (target.startsWith('features/')) problems.push(`${path}:${line} imports ${spec} from another feature: move what both use to lib/ or components/`);
      }
    }
    expect(problems).toEqual([]);
  });
});
