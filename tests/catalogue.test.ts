import { test, expect } from '@playwright/test';
import { loadProfile } from '../schemas/profile';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalogue, familyOf, LEVELS, REQUIREMENT_IDS_PATH, renderRequirementIds } from '../schemas/requirements';
import { cleanEnv, ROOT, testsOfReport, type JsonReport, type ReportedTest } from './helpers/harness';

const FAMILIES = ['ENV', 'VER', 'AUTH', 'ERR', 'CREATE', 'LIST', 'PAGE', 'SCOPE', 'CHAN', 'VIS', 'SCHEMA', 'INPUT'];
const catalogue = loadCatalogue();
const SPEC_COPY = path.join(ROOT, 'spec', 'asset-group-interface.md');
const UPSTREAM_SPEC = path.resolve(ROOT, '..', 'shared', 'spec-source', 'asset-group-interface.md');

/**
 * The conformance suites as Playwright itself sees them: titles and annotations, nothing run. Listed once for the three
 * tests that read it (a group of its own, one worker): each listing is a Playwright runner's start, about 1.8 CPU-s.
 */
let listed: ReportedTest[] | undefined;
function listSuites(): ReportedTest[] {
  if (listed) return listed;
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--list', '--reporter=json'], {
    cwd: ROOT,
    // A base URL stops the config from starting the reference server just to list tests. The developer's own AG_ and
    // PLAYWRIGHT_ settings are left out: PLAYWRIGHT_JSON_OUTPUT_NAME, say, would send the listing to a file.
    env: { ...cleanEnv(), AG_BASE_URL: 'http://127.0.0.1:9', AG_TOKEN: 'listing-only' },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  listed = testsOfReport(JSON.parse(run.stdout) as JsonReport);
  return listed;
}

test('the catalogue declares exactly the twelve families', () => {
  expect(Object.keys(catalogue.families).sort()).toEqual([...FAMILIES].sort());
});

/** The spec the catalogue was written from. A new spec is a new catalogue review: change this with it. */
const SPEC_SHA256 = '5f0f6f9c9588e35472000aacce4e68d2c018582787809d535cd2ac6fc15cdefc';

test("the kit's copy of the spec is the one the catalogue was written from, and the upstream spec where that sits beside the checkout", () => {
  const copy = readFileSync(SPEC_COPY);
  expect(
    createHash('sha256').update(copy).digest('hex'),
    'spec/asset-group-interface.md changed: review the catalogue against it, then update SPEC_SHA256',
  ).toBe(SPEC_SHA256);
  if (existsSync(UPSTREAM_SPEC))
    expect(copy.toString('utf8'), `the upstream spec at ${UPSTREAM_SPEC} differs from the kit's copy`).toBe(readFileSync(UPSTREAM_SPEC, 'utf8'));
});

test('every spec field quotes the spec verbatim', () => {
  const spec = readFileSync(SPEC_COPY, 'utf8');
  const notQuoted = catalogue.requirements.filter((r) => !spec.includes(r.spec)).map((r) => `${r.id}: ${JSON.stringify(r.spec)}`);
  expect(notQuoted, 'spec fields that are not a substring of spec/asset-group-interface.md').toEqual([]);
});

test('every MUST and SHOULD says what its test assumes', () => {
  const silent = catalogue.requirements
    .filter(
      (r) =>
        (r.level === 'MUST' || r.level === 'SHOULD') &&
        !(Array.isArray(r.assumes) && r.assumes.length && r.assumes.every((a) => typeof a === 'string' && a.trim())),
    )
    .map((r) => r.id);
  expect(silent, 'MUST and SHOULD requirements without an assumes list').toEqual([]);
});

test('facts/requirement-ids.ts, the type every test cites its ID through, is up to date', () => {
  const current = existsSync(REQUIREMENT_IDS_PATH) ? readFileSync(REQUIREMENT_IDS_PATH, 'utf8') : '';
  expect(current === renderRequirementIds(catalogue), 'facts/requirement-ids.ts differs from spec/requirements.yaml: run npm run requirement-ids').toBe(true);
});

test('requirement IDs are unique', () => {
  const ids = catalogue.requirements.map((r) => r.id);
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    'Duplicate requirement ID',
  ).toEqual([]);
});

test('every requirement has a well-formed ID of a known family, a level and its spec sentence', () => {
  const problems: string[] = [];
  for (const r of catalogue.requirements) {
    if (!/^[A-Z]+-\d{2}$/.test(r.id)) problems.push(`${r.id}: not FAMILY-NN`);
    if (!FAMILIES.includes(familyOf(r.id))) problems.push(`${r.id}: unknown family ${familyOf(r.id)}`);
    if (!LEVELS.includes(r.level)) problems.push(`${r.id}: unknown level ${r.level}`);
    if (!r.title?.trim()) problems.push(`${r.id}: no title`);
    if (!r.spec?.trim()) problems.push(`${r.id}: no spec sentence`);
    if (r.level === 'NOT-ASSESSED') {
      if (!r.reason?.trim()) problems.push(`${r.id}: NOT-ASSESSED without a reason`);
      if (!/not shown/i.test(r.spec) && !r.reason) problems.push(`${r.id}: NOT-ASSESSED should quote a "not shown" point`);
    } else {
      if (!['spec', 'profile', 'http'].includes(r.basis ?? '')) problems.push(`${r.id}: basis must be spec, profile or http`);
      if (!r.sends?.trim() || !r.expects?.trim()) problems.push(`${r.id}: says neither what is sent nor what must come back`);
    }
  }
  expect(problems).toEqual([]);
});

test('every requirement judged by the profile names the settings it reads, and each is a setting of the profile', () => {
  const profile = loadProfile() as unknown as Record<string, unknown>;
  // Optional settings the reference profile leaves unset (its file names them in a comment).
  const optional = new Set(['create.lengthUnit']);
  const exists = (setting: string) =>
    optional.has(setting) ||
    setting
      .split('.')
      .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), profile) !== undefined;
  const problems: string[] = [];
  for (const r of catalogue.requirements) {
    if (r.basis === 'profile' && !r.settings?.length) problems.push(`${r.id}: basis profile but names no settings`);
    for (const setting of r.settings ?? []) if (!exists(setting)) problems.push(`${r.id}: ${setting} is not a setting of spec/profile.yaml`);
  }
  expect(problems).toEqual([]);
});

test('every "not shown" point of the spec is listed as NOT-ASSESSED', () => {
  const spec = readFileSync(SPEC_COPY, 'utf8');
  // "X: not shown" marks a point the spec leaves open; X is the last sentence before it.
  const points = spec
    .split('\n')
    .filter((line) => /:\s*not shown/i.test(line))
    .map((line) =>
      line
        .split(/:\s*not shown/i)[0]
        .replace(/^[-\s]*/, '')
        .split('. ')
        .pop()!
        .trim(),
    );
  expect(points.length).toBeGreaterThan(10);
  const quoted = catalogue.requirements.filter((r) => r.level === 'NOT-ASSESSED' || r.basis === 'profile').map((r) => r.spec);
  const missing = points.filter((point) => !quoted.some((q) => q.includes(point)));
  expect(missing, 'spec lines saying "not shown" that no NOT-ASSESSED or profile entry quotes').toEqual([]);
});

test.describe('the conformance suites as Playwright lists them', () => {
  test.describe.configure({ mode: 'default' });

  test('every conformance test starts its title with a known requirement ID and carries it as an annotation', () => {
    const known = new Set(catalogue.requirements.map((r) => r.id));
    const problems: string[] = [];
    for (const t of listSuites()) {
      const id = /^([A-Z]+-\d{2}) /.exec(t.title)?.[1];
      const annotated = t.annotations.filter((a) => a.type === 'requirement').map((a) => a.description);
      if (!id) problems.push(`${t.file}: "${t.title}" does not start with a requirement ID`);
      else if (!known.has(id)) problems.push(`${t.file}: "${t.title}" cites unknown ID ${id}`);
      else if (annotated.length !== 1 || annotated[0] !== id)
        problems.push(`${t.file}: "${t.title}" has requirement annotations ${JSON.stringify(annotated)}, expected ["${id}"]`);
      const entry = catalogue.requirements.find((r) => r.id === id);
      if (entry?.level === 'NOT-ASSESSED') problems.push(`${t.file}: "${t.title}" tests a NOT-ASSESSED point`);
    }
    expect(problems).toEqual([]);
  });

  test('every conformance test title is its requirement\'s ID and catalogue title, optionally followed by " (…)"', () => {
    const titles = new Map(catalogue.requirements.map((r) => [r.id, r.title]));
    const drifted: string[] = [];
    for (const t of listSuites()) {
      const id = /^([A-Z]+-\d{2}) /.exec(t.title)?.[1];
      const expected = id && titles.get(id);
      // An unknown or missing ID is the test above's finding.
      if (!expected) continue;
      const rest = t.title.slice(id.length + 1);
      if (rest !== expected && !(rest.startsWith(`${expected} (`) && rest.endsWith(')')))
        drifted.push(`${t.file}: "${t.title}" is not "${id} ${expected}" (optionally followed by " (…)")`);
    }
    expect(drifted, "test titles that drifted from their catalogue entry: change the title, or the catalogue's title if the test is right").toEqual([]);
  });

  test('every MUST, SHOULD and MAY requirement is checked by at least one conformance test', () => {
    const cited = new Set(listSuites().flatMap((t) => t.annotations.filter((a) => a.type === 'requirement').map((a) => a.description)));
    const unchecked = catalogue.requirements.filter((r) => r.level !== 'NOT-ASSESSED' && !cited.has(r.id)).map((r) => `${r.id} (${r.level})`);
    expect(unchecked, 'requirements with no conformance test').toEqual([]);
  });
});
