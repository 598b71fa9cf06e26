/**
 * ARCHITECTURE.md is the newcomer's map: every path it names must exist, so the map cannot drift
 * from the house. A `<family>` in a path stands for every family of the catalogue.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loadCatalogue } from '../schemas/requirements';
import { ROOT } from './harness';

const MAP = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');
const families = Object.keys(loadCatalogue().families).map((family) => family.toLowerCase());

/** Every code-quoted path of the map: a word with a slash, or a file name with an extension. */
function namedPaths(): string[] {
  const quoted = [...MAP.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  return [...new Set(quoted.filter((q) => /^[\w.-]+(\/[\w.<>-]*)+$|^[\w-]+\.(ts|mjs|md|yaml|json)$/.test(q)))];
}

test('every path ARCHITECTURE.md names exists', () => {
  const paths = namedPaths();
  expect(paths.length, 'the map names paths').toBeGreaterThan(30);
  const missing = paths
    .flatMap((p) => (p.includes('<family>') ? families.map((f) => p.replace('<family>', f)) : [p]))
    .filter((p) => !existsSync(path.join(ROOT, p)));
  expect(missing, 'paths named by ARCHITECTURE.md that do not exist').toEqual([]);
});

test("ARCHITECTURE.md lists the families in the catalogue's order", () => {
  const line = MAP.split('\n').find((l) => l.startsWith('Families, in this order'));
  expect(line?.match(/[A-Z]{2,}/g)).toEqual(Object.keys(loadCatalogue().families));
});
