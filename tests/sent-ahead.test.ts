/**
 * The runner sends the selected tests' requests ahead (suites/plans/, suites/selection.ts): what must
 * hold is that the target gets each of them once, the tests take those answers and send none of them
 * again, only the selected tests' requests are sent, and without the selection reporter every test sends
 * its own, as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultHooks } from '../reference/behaviour';
import { removeRunDir, runDirOf } from '../client/run-dir';
import { test, expect } from './helpers/fixtures';
import { loadConfig } from '../config';
import { plansOf } from '../suites/plan-answers';
import { VISIBILITY_ROUNDS, visibilityRound, type PlannedRequest } from '../suites/plans';
import { AUTH_04 } from '../suites/families/auth';
import { CREATE_02 } from '../suites/families/create';
import { TEST_GROUPS, declaredPlans, sentAheadFor } from '../suites/families';
import { pollShared, type Dataset } from '../suites/dataset';
import { loadProfile } from '../schemas/profile';
import { attachmentsOf, keptRunEnv, readJson, referenceTokenEnv, runPlaywright, testsOfReport, type JsonReport, type ReportedTest } from './helpers/harness';

test('every plan is named by exactly one declared test, under a key of its own, and the runner sends those plans alone', () => {
  const named = TEST_GROUPS.flatMap((group) => group.tests.flatMap((t) => t.plans ?? []));
  expect(new Set(named).size, 'a plan named by two tests').toBe(named.length);
  expect(new Set(named.map((plan) => plan.key)).size, 'plan keys are unique').toBe(named.length);
  expect(new Set(declaredPlans())).toEqual(new Set(named));
});

/** A run of the suites against a reference server that counts requests: the server's count, the phase's own, and each test's. */
async function countedRun(
  startReference: (options?: object) => Promise<{ url: string }>,
  args: string[],
): Promise<{
  status: number | null;
  output: string;
  server: number;
  phase: number;
  tests: Map<string, number>;
  plans: Map<string, string[]>;
  dataset: Dataset;
  runId: string;
}> {
  let server = 0;
  const target = await startReference({
    hooks: {
      route: (method: string, routePath: string) => {
        server++;
        return defaultHooks.route(method, routePath);
      },
    },
  });
  const runId = `pr${randomBytes(4).toString('hex')}`;
  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-probes-'));
  const reportFile = path.join(work, 'report.json');
  try {
    const run = await runPlaywright(['test', ...args], { ...keptRunEnv(target.url, runId), PLAYWRIGHT_JSON_OUTPUT_NAME: reportFile });
    const dataset = readJson<Dataset>(path.join(runDirOf(runId), 'dataset.json'));
    // A test that ran and sent nothing attaches no request figures (suites/fixtures.ts); one that did not run counts -1.
    const sent = (t: ReportedTest) => (t.result?.status === 'passed' ? (attachmentsOf<{ count: number }>(t, 'requests')[0]?.count ?? 0) : -1);
    const reported = testsOfReport(readJson<JsonReport>(reportFile));
    const tests = new Map(reported.map((t) => [t.title, sent(t)]));
    const plansOf = new Map(reported.map((t) => [t.title, t.annotations.filter((a) => a.type === 'plan').map((a) => a.description ?? '')]));
    return {
      status: run.status,
      output: run.stdout.slice(-2000) + run.stderr.slice(-2000),
      server,
      phase: dataset.requests!.all.count,
      tests,
      plans: plansOf,
      dataset,
      runId,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The distinct requests of these tests' plans, as the runner claims them (one per request, whatever test asks it). */
function plannedRequests(keys: string[], run: { dataset: Dataset; runId: string }, url: string): number {
  const config = loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: url, AG_RUN_ID: run.runId, AG_SEED: '7', AG_NUM_RUNS: '5' });
  const plannedRequests = sentAheadFor(keys, { config, profile: loadProfile(), dataset: run.dataset });
  return new Set(plannedRequests.map((p) => JSON.stringify([p.action, p.body, p.options]))).size;
}

test('only the selected tests have their requests sent ahead, each once, and they send none of their own', async ({ startReference }) => {
  let url = '';
  const run = await countedRun(
    async (options) => {
      const server = await startReference(options);
      url = server.url;
      return server;
    },
    ['--reporter=./suites/selection.ts,json', '--grep', 'AUTH-02|AUTH-04|PAGE-07', '--workers=1'],
  );
  try {
    expect(run.status, run.output).toBe(0);
    const keys = [...run.plans.values()].flat();
    expect(keys.sort()).toEqual(['AUTH-02', 'AUTH-04', 'PAGE-07', 'PAGE-07 property']);
    for (const [title, sent] of run.tests) expect(sent, `${title}: requests it sent itself`).toBe(0);
    // The preflight, the phase, and the selected tests' requests, each once: none of any other test's plan.
    expect(run.server - 1 - run.phase).toBe(plannedRequests(keys, run, url));
  } finally {
    removeRunDir(run.runId);
  }
});

test('without the selection reporter nothing is sent ahead: each test sends its own', async ({ startReference }) => {
  const run = await countedRun(startReference, ['--reporter=json', '--grep', 'AUTH-02', '--workers=1']);
  try {
    expect(run.status, run.output).toBe(0);
    const own = [...run.tests].find(([title]) => title.startsWith('AUTH-02 '))![1];
    expect(own, "AUTH-02's requests, its own").toBeGreaterThan(0);
    expect(run.server - 1 - run.phase).toBe(own);
  } finally {
    removeRunDir(run.runId);
  }
});

test('a whole run on two workers: every test whose requests were sent ahead sent none of them again', async ({ startReference }) => {
  test.setTimeout(120_000);
  // Two workers: each waits for the runner's claimed answers through the run's folder, as every run of more than one does.
  const run = await countedRun(startReference, ['--reporter=./suites/selection.ts,json', '--workers=2']);
  try {
    expect(run.status, run.output).toBe(0);
    const firstReadOnly = new Set(
      declaredPlans()
        .filter((plan) => plan.firstReadOnly)
        .map((plan) => plan.key),
    );
    const planned = [...run.plans].filter(([, keys]) => keys.length && !keys.some((key) => firstReadOnly.has(key)));
    expect(planned.length, 'tests whose requests were sent ahead').toBe(declaredPlans().length - firstReadOnly.size);
    const profile = loadProfile();
    // VIS-02 sends its last round itself, at the end of the run: one read per creating role, and nothing of its plan.
    const ownLastRound = visibilityRound(profile, run.dataset, VISIBILITY_ROUNDS).length;
    expect(ownLastRound).toBe(3);
    for (const [title] of planned) expect(run.tests.get(title), `${title}: requests it sent itself`).toBe(title.startsWith('VIS-02 ') ? ownLastRound : 0);
    // VIS-02's first round is the plain read of a role's groups (CREATE-02's), sent after the phase; where the phase's last poll
    // was that very read (a channel's one group), the round is VIS-02's own, so that every group is read again three times.
    const key = (p: PlannedRequest) => JSON.stringify([p.action, p.body, p.options.as ?? 'primary', p.options.round ?? 0]);
    const ctx = { config: loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: 'http://127.0.0.1:9', AG_RUN_ID: run.runId }), profile, dataset: run.dataset };
    const create02 = new Set(CREATE_02.requests(ctx).map(key));
    const first = visibilityRound(profile, run.dataset, 1);
    expect(first.map(({ role }) => role)).toEqual(['primary', 'channelA', 'channelB']);
    for (const { role, planned } of first) {
      const polled = run.dataset.sharedPolls.includes(pollShared(role, planned.body));
      expect(polled, `${role}: its plain read was a phase's poll`).toBe(role !== 'primary');
      expect(create02.has(key(planned)), `${role}: VIS-02's first round is CREATE-02's read`).toBe(!polled);
    }
  } finally {
    removeRunDir(run.runId);
  }
});

test('a test that takes a plan it did not name in its details is stopped: the runner, which reads the details, would not have sent it', () => {
  const taken = plansOf({ annotations: [{ type: 'plan', description: 'AUTH-02' }] } as never, {} as never, {} as never, {} as never);
  expect(() => taken.answers(AUTH_04)).toThrow(/takes plan AUTH-04 without naming it in requirement\(id, plan\)/);
  expect(() => taken.ahead(AUTH_04)).toThrow(/without naming it/);
});
