/**
 * A run's 250 requests (suites/run-budget.ts): what PAGE-05's model may spend is what the preflight, the phase, the selected
 * plans and the tests' own fixed requests leave, and the model's drawn commands give way past it, never a plan's request.
 * A whole run under it: tests/no-repeats.test.ts, with a seed that drew a run past 250 before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { loadConfig } from '../config';
import { referenceTokenEnv } from '../reference/config';
import { loadProfile } from '../schemas/profile';
import type { Dataset } from '../suites/dataset';
import { declaredPlans } from '../suites/families';
import { CreateGroup } from '../suites/page-model';
import { OTHER_OWN_REQUESTS, RUN_REQUESTS, spareRequests } from '../suites/run-budget';
import { RECORDED_RUN } from './checks/record-runs';

const { dataset } = JSON.parse(gunzipSync(readFileSync(path.join(__dirname, 'checks', 'runs', 'reference.json.gz'))).toString('utf8')) as { dataset: Dataset };
const ctx = { config: loadConfig({ ...referenceTokenEnv(), ...RECORDED_RUN, AG_BASE_URL: 'http://127.0.0.1:9' }), profile: loadProfile(), dataset };
const keys = declaredPlans().map((plan) => plan.key);

test("the model's share is what the preflight, the phase, the selected plans and the tests' own requests leave of 250", () => {
  expect(spareRequests(undefined, ctx), 'a run that planned nothing ahead caps nothing').toBeUndefined();
  const spare = spareRequests(keys, ctx)!;
  const phase = dataset.requests!.all.count;
  expect(phase).toBeGreaterThan(10);
  // Every plan's requests, each once, and VIS-02's last round (one read per creating role), which the test sends itself.
  const planned = RUN_REQUESTS - 1 - phase - 3 - OTHER_OWN_REQUESTS - spare;
  expect(planned).toBeGreaterThan(50);
  expect(planned).toBeLessThanOrEqual(declaredPlans().reduce((n, plan) => n + plan.requests(ctx).length, 0));
  // A phase that sent ten more (a slow target's polls) leaves the model ten fewer; fewer tests selected leave it more.
  const slower = { ...dataset, requests: { ...dataset.requests!, all: { ...dataset.requests!.all, count: phase + 10 } } };
  expect(spareRequests(keys, { ...ctx, dataset: slower })).toBe(spare - 10);
  const input03 = declaredPlans().filter((plan) => plan.key.startsWith('INPUT-03'));
  const theirs = input03.reduce((n, plan) => n + plan.requests(ctx).length, 0);
  expect(theirs).toBeGreaterThan(5);
  expect(
    spareRequests(
      keys.filter((key) => !key.startsWith('INPUT-03')),
      ctx,
    ),
  ).toBe(spare + theirs);
  // Counted in the runner, after the phase: a phase whose groups are not all there (a target whose every answer is
  // unreadable) must not fail the run there; each test says why it cannot judge.
  const failed = { ...dataset, error: 'no group could be created' };
  expect(spareRequests(keys, { ...ctx, dataset: failed })).toBeGreaterThan(spare);
});

test("past the run's share a drawn create is left out; a run's first create is held for it", async () => {
  let creates = 0;
  const api = {
    uniqueName: (label: string) => `agc-t-${label}`,
    create: async () => {
      creates++;
      return { exchange: { response: { status: 200, json: { Result: { Id: `g${creates}` } } } } };
    },
  };
  const real = { api, verify: async () => undefined, budget: { creates: 3, runsAfter: 0, requests: 0 } } as never;
  const model = { groups: [], listed: false, walked: false, closingSent: 0, created: 0 };
  await new CreateGroup('a').run(model, real);
  expect(creates, "the run's first create, held for it").toBe(1);
  await new CreateGroup('b').run(model, real);
  expect(creates, 'a second, past the share: left out, the model unchanged').toBe(1);
  expect(model.groups).toHaveLength(1);
  (real as { budget: { requests: number } }).budget.requests = 1;
  await new CreateGroup('c').run(model, real);
  expect(creates, 'within the share').toBe(2);
  expect((real as { budget: { requests: number } }).budget.requests).toBe(0);
});
