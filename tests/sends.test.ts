/**
 * The catalogue says what a requirement's test sends (spec/requirements.yaml, `sends`); the plan is what it sends. Where
 * the entry names kinds of values, every kind is in the requests its plan makes, with any seed: a catalogue that says
 * more than the kit sends would certify what was never tried.
 */
import { expect, test } from '@playwright/test';
import { loadConfig } from '../config';
import { loadCatalogue } from '../schemas/requirements';
import { loadProfile, readPointer, filterPointer } from '../schemas/profile';
import { type PlannedRequest } from '../suites/plans';
import { INPUT_03_CREATE, INPUT_03_LIST } from '../suites/families/input';
import type { Dataset } from '../suites/dataset';
import { referenceTokenEnv } from './helpers/harness';

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
