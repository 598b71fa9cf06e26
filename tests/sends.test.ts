/**
 * The catalogue says what a requirement's test sends (spec/requirements.yaml, `sends`); the plan is what it sends. Where
 * the entry names kinds of values, every kind is in the requests its plan makes, with any seed: a catalogue that says
 * more than the kit sends would certify what was never tried.
 */
import { expect, test } from '@playwright/test';
import { loadConfig } from '../config';
import { loadCatalogue, type SentMatcher } from '../schemas/requirements';
import { loadProfile, readPointer, filterPointer } from '../schemas/profile';
import { type PlannedRequest } from '../suites/plans';
import { INPUT_03_CREATE, INPUT_03_LIST } from '../suites/families/input';
import type { Dataset } from '../suites/dataset';
import { referenceTokenEnv } from './helpers/harness';
import { plannedByRequirement, type SentView } from './helpers/sent-views';

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

/** The JSON type of a value as a matcher names it. */
const typeOf = (value: unknown, invalid?: string): string =>
  invalid !== undefined ? 'invalid' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** A number given as such, or read from the profile at a dotted path (create.maxLength.Name). */
const bound = (given: number | string): number =>
  typeof given === 'number' ? given : (given.split('.').reduce<any>((at, key) => at?.[key], loadProfile()) as number);

/** Every string of a JSON value, keys included. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, v]) => [key, ...stringsOf(v)])
        : [];

function matches(m: SentMatcher, v: SentView): boolean {
  if (m.op !== undefined && v.action !== m.op) return false;
  if (m.version !== undefined && v.version !== m.version) return false;
  if (m.auth !== undefined && v.auth !== m.auth) return false;
  if (m.body !== undefined && JSON.stringify(v.body) !== JSON.stringify(m.body)) return false;
  if (m.absent?.some((pointer) => readPointer(v.body, pointer) !== undefined)) return false;
  if (m.anywhere !== undefined && !stringsOf(v.body).some((text) => text.includes(m.anywhere!))) return false;
  if (m.pattern !== undefined && !stringsOf(v.body).some((text) => new RegExp(m.pattern!, 'u').test(text))) return false;
  if (m.at === undefined) return m.type === undefined || typeOf(v.body, v.invalid) === m.type;
  const at = v.invalid === undefined ? readPointer(v.body, m.at) : undefined;
  if (at === undefined) return false;
  if (m.type !== undefined && typeOf(at) !== m.type) return false;
  if (m.value !== undefined && JSON.stringify(at) !== JSON.stringify(m.value)) return false;
  if (m.includes !== undefined && !(typeof at === 'string' && at.includes(m.includes))) return false;
  if (m.above !== undefined && !(typeof at === 'number' && at > bound(m.above))) return false;
  if (m.longerThan !== undefined && !(typeof at === 'string' && [...at].length > bound(m.longerThan))) return false;
  if (m.length !== undefined && !(typeof at === 'string' && [...at].length === bound(m.length))) return false;
  return true;
}

test("every kind of request an entry's `sent` names is among the requests its declared plans make", () => {
  const planned = plannedByRequirement();
  const unsent = loadCatalogue().requirements.flatMap((r) =>
    (r.sent ?? []).filter((m) => !(planned.get(r.id) ?? []).some((v) => matches(m, v))).map((m) => `${r.id}: ${JSON.stringify(m)}`),
  );
  expect(unsent, 'named in the catalogue, never sent').toEqual([]);
  expect(loadCatalogue().requirements.filter((r) => r.sent?.length).length, 'entries with `sent`').toBeGreaterThanOrEqual(10);
});

test('a matcher the plans do not satisfy is reported: the check can fail', () => {
  const planned = plannedByRequirement();
  const never: SentMatcher = { op: 'ListAssetGroups', at: '/PageNumber', value: -7 };
  expect((planned.get('PAGE-07') ?? []).some((v) => matches(never, v))).toBe(false);
  expect((planned.get('PAGE-07') ?? []).some((v) => matches({ op: 'ListAssetGroups', at: '/PageNumber', value: -1 }, v))).toBe(true);
});
