/**
 * The catalogue says what a requirement's test sends (spec/requirements.yaml, `sends`); the plan is what it sends. Where
 * the entry names kinds of values, every kind is in the requests its plan makes, with any seed: a catalogue that says
 * more than the kit sends would certify what was never tried. An entry whose test sends from its `run` alone has no plan
 * to read: tests/no-repeats.test.ts finds its kinds among a whole run's requests, as the server received them.
 */
import { expect, test } from '@playwright/test';
import { loadConfig } from '../config';
import { loadCatalogue, type SentMatcher } from '../schemas/requirements';
import { loadProfile, readPointer, filterPointer } from '../schemas/profile';
import { type PlannedRequest } from '../suites/plans';
import { INPUT_03_CREATE, INPUT_03_LIST } from '../suites/families/input';
import type { Dataset } from '../suites/dataset';
import { referenceTokenEnv } from './helpers/harness';
import { matches, plannedByRequirement, viewOfWire } from './helpers/sent-views';

/** The entries checked against a whole run's requests (tests/no-repeats.test.ts), since no plan of theirs shows what they send. */
const RUN_ONLY_WITH_SENT = ['CHAN-01', 'CREATE-04', 'CREATE-06', 'ERR-02', 'LIST-04', 'LIST-06', 'PAGE-05', 'VER-03', 'VER-04', 'VIS-01'];

const KINDS = ['numbers', 'objects', 'arrays', 'booleans'] as const;
const kindOf = (value: unknown): (typeof KINDS)[number] | 'strings' | 'null' =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'arrays'
      : typeof value === 'object'
        ? 'objects'
        : typeof value === 'number'
          ? 'numbers'
          : typeof value === 'boolean'
            ? 'booleans'
            : 'strings';

const bodyOf = (planned: PlannedRequest) => (typeof planned.body === 'string' ? JSON.parse(planned.body) : planned.body) as Record<string, unknown>;

for (const given of ['1', '2', '77', 'random']) {
  test(`INPUT-03 sends every kind its entry names, in the create fields and in the list filters (seed ${given})`, () => {
    const seed = given === 'random' ? String(Math.floor(Math.random() * 1_000_000)) : given;
    const entry = loadCatalogue().requirements.find((r) => r.id === 'INPUT-03')!;
    const named = KINDS.filter((kind) => entry.sends?.includes(kind));
    expect(named, 'the kinds INPUT-03 names').toEqual([...KINDS]);
    const profile = loadProfile();
    const ctx = { config: loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: 'http://127.0.0.1:9', AG_SEED: seed }), profile, dataset: {} as Dataset };
    const fields = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'];
    const created = new Set(INPUT_03_CREATE.requests(ctx).flatMap((planned) => fields.map((field) => kindOf(bodyOf(planned)[field]))));
    const { list } = profile;
    const filters = Object.values(list.filters).map((field) => filterPointer(list, field));
    const listed = new Set(INPUT_03_LIST.requests(ctx).flatMap((planned) => filters.map((at) => kindOf(readPointer(bodyOf(planned), at)))));
    for (const kind of named) {
      expect(created.has(kind), `a create field holding ${kind} (seed ${seed})`).toBe(true);
      expect(listed.has(kind), `a list filter holding ${kind} (seed ${seed})`).toBe(true);
    }
  });
}

// ---------------------------------------------------------------- every entry's `sent`, against its plans

test("every kind of request an entry's `sent` names is among the requests its declared plans make", () => {
  const planned = plannedByRequirement();
  // An entry whose tests send from their `run` only has no plan to read: a whole run's requests are its (tests/no-repeats.test.ts).
  const unsent = loadCatalogue()
    .requirements.filter((r) => planned.has(r.id))
    .flatMap((r) => (r.sent ?? []).filter((m) => !planned.get(r.id)!.some((v) => matches(m, v))).map((m) => `${r.id}: ${JSON.stringify(m)}`));
  expect(unsent, 'named in the catalogue, never sent').toEqual([]);
  expect(loadCatalogue().requirements.filter((r) => r.sent?.length).length, 'entries with `sent`').toBeGreaterThanOrEqual(10);
});

test('the entries whose tests send from their `run` alone name what they send too, for a whole run to show it', () => {
  const planned = plannedByRequirement();
  const runOnly = loadCatalogue().requirements.filter((r) => !planned.has(r.id) && r.sent?.length);
  expect(runOnly.map((r) => r.id).sort()).toEqual(RUN_ONLY_WITH_SENT);
  // A wire request shows each configured token as its variable, as evidence does.
  const view = viewOfWire(
    { url: '/v1/media_assets/?Action=ListAssetGroups&Version=1999-01-01', authorization: 'Bearer tok', userAgent: null, body: '{}' },
    { AG_TOKEN: 'tok' },
  );
  expect(matches({ op: 'ListAssetGroups', version: '1999-01-01', auth: 'Bearer <AG_TOKEN>' }, view)).toBe(true);
  expect(matches({ op: 'ListAssetGroups', version: '2024-01-01' }, view)).toBe(false);
});

test('a matcher the plans do not satisfy is reported: the check can fail', () => {
  const planned = plannedByRequirement();
  const never: SentMatcher = { op: 'ListAssetGroups', at: '/PageNumber', value: -7 };
  expect((planned.get('PAGE-07') ?? []).some((v) => matches(never, v))).toBe(false);
  expect((planned.get('PAGE-07') ?? []).some((v) => matches({ op: 'ListAssetGroups', at: '/PageNumber', value: -1 }, v))).toBe(true);
});
