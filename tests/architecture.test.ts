/**
 * ARCHITECTURE.md is the newcomer's map, and it is enforced: every path it names must exist, every
 * import must be an arrow its room's DEPS.list allows, and the map's arrows are those rules. A
 * `<family>` in a path stands for every family of the catalogue.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { loadCatalogue } from '../schemas/requirements';
import { ROOT } from './helpers/harness';
import { codeFiles, cycles, readRules, violations } from './helpers/imports';

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

const sources = new Map(codeFiles(ROOT).map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')] as const));
const rules = readRules(ROOT, [...sources.keys()]);

test("every import of every code file is an arrow its room's DEPS.list allows", () => {
  expect(sources.size, 'code files read').toBeGreaterThan(150);
  expect(violations(sources, rules)).toEqual([]);
});

test('the import rules catch a planted wrong arrow, a folder without rules and a cycle', () => {
  // A low room reaching up (schemas/ into suites/), as the map once hid (schemas/yaml.ts into bin/).
  const planted = new Map(sources).set('schemas/planted.ts', "import { Api } from '../suites/api';\nexport const x = Api;\n");
  expect(violations(planted, rules)).toEqual(['schemas/planted.ts -> suites/api.ts: schemas/DEPS.list does not allow it']);
  // A check reaching into the fixtures: checks never send.
  const checkUp = new Map(sources).set('suites/checks/planted.ts', "import type { Api } from '../api';\n");
  expect(violations(checkUp, rules)).toEqual(['suites/checks/planted.ts -> suites/api.ts: suites/checks/DEPS.list does not allow it']);
  const unruled = new Map(sources).set('newroom/x.ts', 'export const y = 1;\n');
  expect(violations(unruled, rules)).toEqual(['newroom/x.ts: no DEPS.list in its room']);
  const loop = new Map(sources)
    .set('facts/a.ts', "import type { B } from './b';\nexport type A = B;\n")
    .set('facts/b.ts', "import type { A } from './a';\nexport type B = A;\n");
  expect(cycles(loop)).toEqual([['facts/a.ts', 'facts/b.ts']]);
});

test('no code file is over 300 lines: one that grows past it is split by concern, as the rooms are', () => {
  const long = [...sources].filter(([, text]) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0) > 300).map(([file]) => file);
  expect(long, 'code files over 300 lines').toEqual([]);
});

test('no two code files import each other, even for types', () => {
  expect(cycles(sources)).toEqual([]);
});

test('ARCHITECTURE.md\'s "may import" column is each room\'s DEPS.list', () => {
  const rows = MAP.split('\n').filter((line) => /^\| `[^`]+` \|/.test(line));
  const table = new Map(
    rows.map((line) => {
      const cells = line.split(' | ');
      const room = /`([^`]+)`/.exec(cells[0])![1];
      const imports = cells[cells.length - 1];
      return [room, imports.startsWith('every room') ? ['(every room)'] : [...imports.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()] as const;
    }),
  );
  const fromRules = new Map<string, string[]>();
  for (const [folder, rule] of rules) {
    if (folder === '') for (const [file, allowed] of Object.entries(rule.byFile)) if (allowed.length) fromRules.set(file, [...allowed].sort());
    if (folder === 'tests') fromRules.set('tests/', ['(every room)']);
    else if (folder !== '') fromRules.set(`${folder}/`, [...rule.allowed].sort());
  }
  expect(new Map([...table].sort()), 'rooms of the map and their arrows').toEqual(new Map([...fromRules].sort()));
  // tests/ may import every room: its DEPS.list must list each room that has rules.
  const roomsWithRules = [...rules.keys()].filter((f) => f && f !== 'tests' && !f.includes('/')).map((f) => `${f}/`);
  expect(
    rules
      .get('tests')!
      .allowed.filter((a) => a.endsWith('/'))
      .sort(),
  ).toEqual(roomsWithRules.sort());
});
