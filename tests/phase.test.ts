/**
 * The create-and-wait phase runs in the runner while the workers start (suites/global-setup.ts); the
 * kit fixture holds every test until the phase's marker (suites/dataset.ts, phaseFinished). What must
 * hold: the target sees the preflight and the phase's requests before any test's, as if the phase had
 * run before the workers started, but for the requests the runner sends ahead that need none of the run's
 * groups, which go out once the phase's creates are answered, while it polls; a failed phase is every test's clear error; a phase that died
 * unmarked does not hold the workers forever.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clearPhaseDone, markPhaseDone, phaseFinished, polled, POLL_CAP_MS, type Dataset } from '../suites/dataset';
import { removeRunDir, runDirOf } from '../client/run-dir';
import { ApiError, defaultHooks } from '../reference/behaviour';
import { visibleInTime, type CheckContext } from '../suites/checks';
import { test, expect } from './helpers/fixtures';
import { Api } from '../suites/api';
import { KIT_WORKERS, loadConfig } from '../config';
import { buildDataset } from '../suites/dataset-setup';
import { PROFILE_VARIANTS } from '../reference/profile-variants';
import { listWithExtraLag } from '../reference/lag-variants';
import { loadProfile, profileFromOverride } from '../schemas/profile';
import { keptRunEnv, readJson, referenceTokenEnv, runPlaywright } from './helpers/harness';

const newRunId = () => `ph${randomBytes(4).toString('hex')}`;

/** The reference server's route hook, noting when each request arrived. */
const noteArrival =
  (arrivals: number[]) =>
  (method: string, routePath: string): ReturnType<typeof defaultHooks.route> => {
    arrivals.push(Date.now());
    return defaultHooks.route(method, routePath);
  };

test('no test sends before the phase has ended: the target sees the preflight and the phase first', async ({ startReference }) => {
  const arrivals: number[] = [];
  // 800 ms on every answer: the phase (creates, then polls, then the detection's reads: three rounds at least) outlasts the workers' start,
  // so they are up and waiting while it still runs. Two tests that send requests of their own are enough to see the order.
  const server = await startReference({
    latencyMs: 800,
    hooks: {
      route: noteArrival(arrivals),
    },
  });
  const runId = newRunId();
  try {
    // The kit's own number of workers: what is at stake is that none of them sends early.
    const run = await runPlaywright(['test', '--reporter=dot', '--grep', 'AUTH-02|LIST-01', `--workers=${KIT_WORKERS}`], keptRunEnv(server.url, runId));
    expect(run.status, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(0);
    const dataset = readJson<Dataset>(path.join(runDirOf(runId), 'dataset.json'));
    const phaseEnd = Date.parse(dataset.finishedAt);
    const phaseRequests = dataset.requests!.all.count;
    expect(phaseEnd - Date.parse(dataset.startedAt), 'the phase took three rounds at least').toBeGreaterThanOrEqual(2400);
    expect(arrivals.length, 'the tests sent requests of their own').toBeGreaterThan(1 + phaseRequests);
    expect(
      arrivals.filter((at) => at <= phaseEnd).length,
      'requests that reached the target before the phase ended: the preflight and the phase, nothing of a test',
    ).toBe(1 + phaseRequests);
  } finally {
    removeRunDir(runId);
  }
});

test("what needs none of the run's groups goes out beside the phase, once its creates are answered; what reads them waits for its end", async ({
  startReference,
}) => {
  // AUTH-02's requests (a Bearer header without a token) need no group; SCOPE-02's reads of the run's groups by their Ids
  // with another user's token do (the phase sends no such read).
  const arrivals: number[] = [];
  const creates: number[] = [];
  const auth02: number[] = [];
  const otherUser: number[] = [];
  const server = await startReference({
    latencyMs: 800,
    hooks: {
      route: noteArrival(arrivals),
      authenticate: (authorization, ctx, headers, connection) => {
        if (authorization?.trim() === 'Bearer') auth02.push(Date.now());
        return defaultHooks.authenticate(authorization, ctx, headers, connection);
      },
      createGroup: (principal, input, ctx) => {
        creates.push(Date.now());
        return defaultHooks.createGroup(principal, input, ctx);
      },
      authorizeList: (principal, query, ctx) => {
        if (principal.token === referenceTokenEnv().AG_TOKEN_OTHER_USER && query.filter.groupIds) otherUser.push(Date.now());
        return defaultHooks.authorizeList(principal, query, ctx);
      },
    },
  });
  const runId = newRunId();
  try {
    // With the selection reporter, as every run of the kit: the runner knows the selected tests' plans.
    const run = await runPlaywright(
      ['test', '--reporter=./suites/selection.ts,dot', '--grep', 'AUTH-02|SCOPE-02', `--workers=${KIT_WORKERS}`],
      keptRunEnv(server.url, runId),
    );
    expect(run.status, run.stdout.slice(-2000) + run.stderr.slice(-2000)).toBe(0);
    const dataset = readJson<Dataset>(path.join(runDirOf(runId), 'dataset.json'));
    const phaseEnd = Date.parse(dataset.finishedAt);
    expect(auth02.length, "AUTH-02's requests").toBeGreaterThan(0);
    expect(Math.max(...auth02), "AUTH-02's requests went out beside the phase").toBeLessThan(phaseEnd);
    // Answered 800 ms after the server made the group: sent after that answer, they arrive later still.
    expect(Math.min(...auth02), 'after every create of the phase was answered').toBeGreaterThanOrEqual(Math.max(...creates) + 800);
    expect(otherUser.length, "SCOPE-02's reads").toBeGreaterThan(0);
    expect(Math.min(...otherUser), "SCOPE-02's reads waited for the phase's end").toBeGreaterThan(phaseEnd);
    expect(arrivals.length).toBeGreaterThan(1 + dataset.requests!.all.count);
  } finally {
    removeRunDir(runId);
  }
});

test.describe('phaseFinished', () => {
  let runId = '';
  test.beforeEach(() => {
    runId = newRunId();
    clearPhaseDone(runId);
  });
  test.afterEach(() => removeRunDir(runId));

  test('waits for the marker, then resolves', async () => {
    const waiting = phaseFinished(runId, 5_000);
    let done = false;
    void waiting.then(() => (done = true));
    await sleep(100);
    expect(done, 'resolved before the marker').toBe(false);
    markPhaseDone(runId);
    await waiting;
  });

  test("a failed phase is the waiting test's error, with the phase's message", async () => {
    markPhaseDone(runId, 'budget of 80 creates exceeded');
    await expect(phaseFinished(runId, 5_000)).rejects.toThrow('the create-and-wait phase failed: budget of 80 creates exceeded');
  });

  test('a phase that never marks its end is given up after the patience, with a message', async () => {
    const started = Date.now();
    await expect(phaseFinished(runId, 1_000)).rejects.toThrow('the create-and-wait phase did not finish within 1 s');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

/** The create-and-wait phase alone, in this process, against `url`: its preflight, then buildDataset; the run's folder removed after. */
async function phaseAgainst(url: string, visibilityTimeoutMs: number): Promise<Dataset> {
  const runId = newRunId();
  try {
    const config = {
      ...loadConfig({ ...referenceTokenEnv(), AG_BASE_URL: url, AG_RUN_ID: runId, AG_VISIBILITY_TIMEOUT_MS: String(visibilityTimeoutMs) }),
      baseURL: url,
    };
    const preflight = await new Api(config, () => {
      throw new Error('no token');
    }).call('ListAssetGroups', {});
    return await buildDataset(config, loadProfile(), preflight);
  } finally {
    removeRunDir(runId);
  }
}

test("a target that refuses the profile's Id filter itself is polled once per token, not until the visibility timeout", async ({ startReference }) => {
  // Jackson's FAIL_ON_UNKNOWN_PROPERTIES: GroupIds is a field this server does not know, with Ids or without. Waiting changes nothing.
  test.setTimeout(30_000);
  const variant = PROFILE_VARIANTS.find((v) => v.name === 'jacksonStrictIds')!;
  const server = await startReference({ profile: profileFromOverride(variant.profile, variant.name), hooks: variant.hooks });
  const dataset = await phaseAgainst(server.url, 60_000);
  expect(dataset.pollsRefused, 'the same filter holding no Id was refused too').toBe(true);
  // Each token's list asked once, so that each one's refusal is on record (not the second user's: its group is never polled).
  expect(dataset.polls).toBe(new Set(dataset.groups.filter((g) => g.id !== null && polled(g)).map((g) => g.via)).size);
  expect(dataset.groups.filter((g) => g.id !== null && g.visibleAfterMs === null).length).toBeGreaterThan(0);
});

/** visibleInTime reads only the polls it is given. */
const NO_CONTEXT = {} as CheckContext;

test('groups whose timeout passed while a create waited out a 429 are polled once more, and are not late for it', async ({ startReference }) => {
  // The first create of the channel-B token is answered 429 with Retry-After: 2; the phase polls once every create has
  // answered, 2 s on, past the 1.5 s timeout of the groups created at once. Only a poll sent past a timeout that misses a
  // group shows it late; before, those groups were never polled, and VIS-01 failed on the kit's own wait.
  test.setTimeout(30_000);
  let refused = false;
  const server = await startReference({
    lagMs: 0,
    hooks: {
      limitCreate: (principal, ctx) => {
        if (refused || principal.channel !== 'channel-b') return defaultHooks.limitCreate(principal, ctx);
        refused = true;
        return new ApiError(429, 'UpstreamRateLimit', 'create rate exceeded; retry after 2 s', { 'Retry-After': '2' });
      },
    },
  });
  const dataset = await phaseAgainst(server.url, 1_500);
  expect(refused, 'the 429 was sent').toBe(true);
  const created = dataset.groups.filter((g): g is typeof g & { id: string } => g.id !== null && polled(g));
  expect(created.filter((g) => g.visibleAfterMs === null).map((g) => g.key)).toEqual([]);
  // The groups created at once were first listed past their timeout, by the kit's late poll: not late.
  expect(created.filter((g) => g.visibleAfterMs! > 1_500).length).toBeGreaterThan(0);
  expect(visibleInTime(created, 1_500)(Object.values(dataset.lastPolls), NO_CONTEXT)).toBeUndefined();
  // Missed by a poll sent past the timeout, a group is late.
  expect(visibleInTime([{ ...created[0], visibleAfterMs: 1_900, missedAtMs: 1_600 }], 1_500)([], NO_CONTEXT)?.check).toBe('visibleInTime');
});

for (const lagMs of [2300, 4000]) {
  test(`a group visible ${lagMs} ms after its create is seen within POLL_CAP_MS and a round trip of that, and its lag is stated so`, async ({
    startReference,
  }) => {
    // Each group shows up exactly lagMs after the server made it (no snapshot period to add its own wait).
    test.setTimeout(30_000);
    const server = await startReference({ lagMs: 0, hooks: { listGroups: listWithExtraLag(() => lagMs) } });
    const dataset = await phaseAgainst(server.url, 20_000);
    const lags = dataset.groups.filter((g) => g.id !== null && polled(g)).map((g) => g.visibleAfterMs);
    expect(lags.length).toBeGreaterThan(0);
    // The kit's createdAt is the create's answer, after the server made the group: a lag a little under lagMs is possible.
    // 200 ms for a round trip and timers firing late on a busy machine.
    for (const lag of lags) expect(lag, `stated lags ${lags.join(', ')} ms`).toBeGreaterThanOrEqual(lagMs - 200);
    for (const lag of lags) expect(lag, `stated lags ${lags.join(', ')} ms`).toBeLessThanOrEqual(lagMs + POLL_CAP_MS + 200);
  });
}
