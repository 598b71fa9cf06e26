/**
 * The runner sends the selected tests' requests ahead (suites/plans/, suites/selection.ts): what must
 * hold is that the target gets each of them once, the tests take those answers and send none of them
 * again, only the selected tests' requests are sent, and without the selection reporter every test sends
 * its own, as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultHooks } from '../reference/behaviour';
import { removeRunDir, runDirOf } from '../client/run-dir';
import { test, expect } from './fixtures';
import { loadConfig } from '../config';
import { FIRST_READ_ONLY, SENT_AHEAD, sentAheadFor, visibilityRound, type PlannedRequest } from '../suites/plans';
import { pollShared, type Dataset } from '../suites/dataset';
import { loadProfile } from '../schemas/profile';
import { attachmentsOf, keptRunEnv, readJson, referenceTokenEnv, runPlaywright, testsOfReport, type JsonReport, type ReportedTest } from './harness';

const SUITES = path.join(__dirname, '..', 'suites');

test('every test whose requests are sent ahead is a test of the suites, by its exact title', () => {
  const sources = readdirSync(SUITES)
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => readFileSync(path.join(SUITES, file), 'utf8'));
  for (const title of [...SENT_AHEAD.map(([t]) => t), ...FIRST_READ_ONLY])
    expect(
      sources.some((source) => source.includes(title)),
      title,
    ).toBe(true);
});

/** A run of the suites against a reference server that counts requests: the server's count, the phase's own, and each test's. */
async function countedRun(
  startReference: (options?: object) => Promise<{ url: string }>,
  args: string[],
): Promise<{ status: number | null; output: string; server: number; phase: number; tests: Map<string, number>; dataset: Dataset; runId: string }> {
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
    const tests = new Map(testsOfReport(readJson<JsonReport>(reportFile)).map((t) => [t.title, sent(t)]));
    return { status: run.status, output: run.stdout.slice(-2000) + run.stderr.slice(-2000), server, phase: dataset.requests!.all.count, tests, dataset, runId };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The distinct requests of these tests' plans, as the runner claims them (one per request, whatever test asks it). */
function plannedRequests(titles: string[], run: { dataset: Dataset; runId: string }, url: string): number {
  const config = loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: url, AG_RUN_ID: run.runId, AG_SEED: '7', AG_NUM_RUNS: '5' });
  const plannedRequests = sentAheadFor(titles, { config, profile: loadProfile(), dataset: run.dataset });
  return new Set(plannedRequests.map((p) => JSON.stringify([p.action, p.body, p.options]))).size;
}

test('only the selected tests have their requests sent ahead, each once, and they send none of their own', async ({ startReference }) => {
  const titles = SENT_AHEAD.map(([title]) => title).filter((title) => /^(AUTH-02|AUTH-04|PAGE-07) /.test(title));
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
    expect([...run.tests.keys()].sort()).toEqual([...titles].sort());
    for (const title of titles) expect(run.tests.get(title), `${title}: requests it sent itself`).toBe(0);
    // The preflight, the phase, and the selected tests' requests, each once: none of any other test's plan.
    expect(run.server - 1 - run.phase).toBe(plannedRequests(titles, run, url));
  } finally {
    removeRunDir(run.runId);
  }
});

test('without the selection reporter nothing is sent ahead: each test sends its own', async ({ startReference }) => {
  const run = await countedRun(startReference, ['--reporter=json', '--grep', 'AUTH-02', '--workers=1']);
  try {
    expect(run.status, run.output).toBe(0);
    const own = run.tests.get(SENT_AHEAD.find(([title]) => title.startsWith('AUTH-02 '))![0]);
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
    for (const [title] of SENT_AHEAD) if (!FIRST_READ_ONLY.has(title)) expect(run.tests.get(title), `${title}: requests it sent itself`).toBe(0);
    // VIS-02's first round is the plain read of a role's groups (CREATE-02's), sent after the phase; where the phase's last poll
    // was that very read (a channel's one group), the round is VIS-02's own, so that every group is read again three times.
    const profile = loadProfile();
    const key = (p: PlannedRequest) => JSON.stringify([p.action, p.body, p.options.as ?? 'primary', p.options.round ?? 0]);
    const plans = new Map(SENT_AHEAD);
    const ctx = { config: loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: 'http://127.0.0.1:9', AG_RUN_ID: run.runId }), profile, dataset: run.dataset };
    const create02 = new Set(plans.get('CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id')!(ctx).map(key));
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
