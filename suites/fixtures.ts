import { test as base } from '@playwright/test';
import { type KitConfig, type KitWorkerOptions, ConfigError, FAILURES_KEEP_WORKER, matrixTargetNames, withReferenceURL } from '../config';
import { Api, rateLimitedOut, RATE_LIMITED_REASON, seenBy, seenByAny } from './api';
import type { Exchange } from '../client/exchange';
import type { Judge, Verify } from '../facts/judgement';
import { isThrottled } from '../client/retry';
import { type CheckContext } from './checks';
import { loadDataset, phaseFinished, type Dataset } from './dataset';
import { phaseSuccesses } from './dataset-needs';
import { runNameParts } from './dataset-queries';
import { workerTokens } from '../config/tokens';
import { watchAnswers } from './oracle-watch';
import { plansOf, type Plans } from './plan-answers';
import { errorKinds, profileAt } from '../schemas';
import { ownRequirement, recordCheck, recordRequests, recordRetries, recordRun, recordTargetIdentity } from '../facts/record';
import { type Profile } from '../schemas/profile';

export { RawBody, VERSION, Api, listBody } from './api';
export { itemsOf } from './checks';
export { groupsOf } from './dataset-needs';
export { LISTED } from './checks';

export { requirement, mismatchesLast } from '../facts/record';
export { filterAssessable, pagingAssessable } from './judging';
import { afterBound, allAfterBound, judgeSteps, judgeTogether, settle } from './judging';
import type { RequirementId } from '../facts/requirement-ids';

/** What the kit knows for a whole worker: configuration, the active profile, compiled validators. */
export interface Kit {
  config: KitConfig & { baseURL: string };
  context: CheckContext;
}

export type { Judge, Verify };

/** What this worker has already attached for the reports, per run (one worker of the kit's own matrices judges several). */
const attached = new Set<string>();

/**
 * The suites open no browser, yet Playwright's `test` sets up its browser fixtures for every test:
 * trace recording and context configuration (auto fixtures), which read the browser-context options
 * (`_combinedContextOptions`, built from some thirty option fixtures, each set up and torn down with
 * a stack trace captured): a third of a worker's CPU on a whole run. Every run replaces these private fixtures by
 * fixtures that do nothing. Nothing is lost: playwright.config.ts turns traces, screenshots and videos off (they would
 * capture the tokens), and this keeps them off even where a user asks Playwright for a trace. The kit pins Playwright's
 * version; tests/playwright-fixtures.test.ts fails if an upgrade renames them.
 */
export const BROWSER_FIXTURES = ['_combinedContextOptions', '_setupArtifacts', '_setupContextOptions'] as const;
/** How Playwright registers those auto fixtures; an override must repeat its `auto`, which Playwright's types do not list. */
const autoInternal = { auto: 'all-hooks-included', box: 'self' } as unknown as { auto: true; box: 'self' };
const root = base.extend<{ _combinedContextOptions: Record<string, never>; _setupArtifacts: void; _setupContextOptions: void }>({
  _combinedContextOptions: [async ({}, use) => use({}), { box: 'self' }],
  _setupArtifacts: [async ({}, use) => use(), autoInternal],
  _setupContextOptions: [async ({}, use) => use(), autoInternal],
});

/** What a worker resolves once per target: the configuration, once the target's create-and-wait phase is over. */
async function kitOf(kitConfig: KitConfig): Promise<Kit> {
  const config = withReferenceURL(kitConfig);
  if (!config.baseURL) {
    throw new ConfigError('no target: AG_BASE_URL is unset and the embedded reference server did not report its URL (AG_REFERENCE_URL)');
  }
  // Nothing is sent before the create-and-wait phase is over: the requests reach the target in the same order as if
  // the phase had run before the workers started, it only overlapped their start.
  await phaseFinished(config.runId, 2 * config.visibilityTimeoutMs + 30 * config.requestTimeoutMs);
  // Fetched tokens (config/tokens.ts), as the runner holds them now.
  const withTokens = await workerTokens(config);
  // The phase's successes, read once a check of an error's envelope needs them (envelopeLikeSuccess).
  let answered: Exchange[] | undefined;
  const { profile, validate } = profileAt(config.profilePath);
  const context: CheckContext = {
    profile,
    validate,
    errorKinds,
    get successes() {
      return (answered ??= phaseSuccesses(config.runId));
    },
  };
  return { config: { ...withTokens, baseURL: config.baseURL }, context };
}

/** Configuration and the active profile: resolved once per worker, and per target where the worker judges several (KitWorkerOptions.kitTargets). */
const configured = root.extend<
  { profile: Profile; kit: Kit; kitTarget: string | undefined; keepWorker: void },
  KitWorkerOptions & { kits: Map<string | undefined, Kit> }
>({
  // Resolved once by playwright.config.ts and given as an option (`use: { kitConfig }`).
  kitConfig: [undefined, { option: true, scope: 'worker' }],
  kitTargets: [undefined, { option: true, scope: 'worker' }],
  // Boxed too: test.use gives it per target (declareSuite), and Playwright makes that value a fixture of every test.
  kitTarget: [undefined, { option: true, box: 'self' }],
  kits: [
    async ({ kitConfig, kitTargets }, use) => {
      const kits = new Map<string | undefined, Kit>();
      if (kitTargets) {
        const names = Object.keys(kitTargets);
        (await Promise.all(names.map((name) => kitOf(kitTargets[name])))).forEach((kit, i) => kits.set(names[i], kit));
      } else {
        if (!kitConfig) throw new ConfigError("no kit configuration: run the suites with the kit's playwright.config.ts, which resolves it (use.kitConfig)");
        kits.set(undefined, await kitOf(kitConfig));
      }
      await use(kits);
    },
    // The wait is bounded by the phase's own timeouts and phaseFinished's patience, not by the first test's timeout.
    { scope: 'worker', timeout: 0, box: 'self' },
  ],
  kit: [
    async ({ kits, kitTarget }, use) => {
      const kit = kits.get(kitTarget);
      if (!kit) throw new ConfigError(`no configuration for the target ${JSON.stringify(kitTarget)} of this run`);
      await use(kit);
    },
    { box: 'self' },
  ],
  profile: [
    async ({ kit }, use) => {
      await use(kit.context.profile);
    },
    { box: 'self' },
  ],
  /**
   * In the kit's own matrices only (FAILURES_KEEP_WORKER, config/index.ts): a test that failed is marked failing by
   * expectation (testInfo.fail()) once it has ended, before Playwright decides whether to keep the worker, which it
   * replaces after every unexpected failure. After the fact, so that every way a test fails keeps the worker, and no
   * passing test is touched; the matrices read statuses, never Playwright's outcome. A run of the kit never marks.
   */
  keepWorker: [
    async ({}, use, testInfo) => {
      await use();
      if (process.env[FAILURES_KEEP_WORKER] && testInfo.status === 'failed') testInfo.fail();
    },
    { auto: true, box: 'self' },
  ],
});

/** The client, per test: its exchanges are the test's evidence. */
const withClient = configured.extend<{ api: Api }>({
  api: [
    async ({ kit }, use, testInfo) => {
      // A requirement that needs an unconfigured token is not passed silently: it is skipped with
      // the variable named, and the verdict cannot be "conformant" while it is.
      const api = new Api(
        kit.config,
        (_role, variable) => {
          testInfo.skip(true, `${variable} is not configured`);
          throw new Error('unreachable');
        },
        testInfo.config.workers === 1,
      );
      // The AUTH tests' 401s are their point: a fetched token is never renewed on one of theirs.
      api.refreshOn401 = !ownRequirement(testInfo)?.startsWith('AUTH-');
      const recordOracle = watchAnswers(api, kit.config.runId, kit.context);
      await use(api);
      recordOracle(testInfo);
      // Facts for the reports travel as attachments, so that merged shards carry them too.
      if (!attached.has(`${kit.config.runId} run`)) {
        attached.add(`${kit.config.runId} run`);
        const { baseURL, embedded, profilePath, seed, numRuns, runId, visibilityTimeoutMs, requestTimeoutMs } = kit.config;
        const facts = {
          baseURL,
          embedded,
          profile: { name: kit.context.profile.name, path: profilePath ?? null },
          seed,
          numRuns,
          runId,
          visibilityTimeoutMs,
          requestTimeoutMs,
        };
        await recordRun(testInfo, facts);
      }
      if (!attached.has(`${kit.config.runId} identity`)) {
        if (api.identity) {
          attached.add(`${kit.config.runId} identity`);
          await recordTargetIdentity(testInfo, api.identity);
        }
      }
      if (api.retries[429] || api.retries[503]) await recordRetries(testInfo, api.retries);
      // For the benchmarks (bench/run.ts): how many requests this test sent and how deep their chain was. Most tests
      // judge answers the phase or the runner had (none sent here): nothing to record, and no message to the runner.
      const stats = api.requestStats();
      if (stats.count) await recordRequests(testInfo, stats);
    },
    { box: 'self' },
  ],
});

/** The run's own groups, from the create-and-wait phase. */
const withDataset = withClient.extend<{ dataset: Dataset }>({
  dataset: [
    async ({ kit, api, profile }, use, testInfo) => {
      const dataset = loadDataset(kit.config.runId);
      // The run's groups could not all be created because the target rate-limited the kit: what
      // needs them is not assessable, which is not the same as failing.
      const limited = dataset.groups.filter((g) => g.id === null && isThrottled(g.create));
      if (limited.length) testInfo.skip(true, `${limited.map((g) => g.key).join(', ')} of the run's groups: ${RATE_LIMITED_REASON}`);
      for (const g of dataset.groups) if (g.id !== null && g.visibleAfterMs !== null) seenBy(kit.config.runId, g.via).add(g.id);
      // A list by Ids that were all listed before, to any token, has one right answer from then on, whoever asks: sent once per run.
      api.shareSettledReads(profile, (id) => seenByAny(kit.config.runId, id), runNameParts(dataset));
      await use(dataset);
    },
    { box: 'self' },
  ],
});

/** A test's declared plans, whose requests the runner may have sent ahead (suites/plan-answers.ts). */
const withPlans = withDataset.extend<{ plan: Plans }>({
  plan: [async ({ kit, api, profile }, use, testInfo) => use(plansOf(testInfo, api, kit.config, profile)), { box: 'self' }],
});

/** Judging exchanges: a test's own checks, and the preconditions other requirements own. */
const judging = withPlans.extend<{ verify: Verify; judge: Judge }>({
  verify: [
    async ({ kit, api, profile }, use, testInfo) => {
      const own = ownRequirement(testInfo) as RequirementId | undefined;
      const deps = { api, profile, context: kit.context, runId: kit.config.runId };
      await use(async (answer, steps) => {
        if (rateLimitedOut.has(answer)) testInfo.skip(true, RATE_LIMITED_REASON);
        let exchange = answer;
        let judgement = judgeSteps(exchange, steps, own, kit.context);
        // Groups missing from a read within their visibility bound are judged on the read sent again after it.
        const missing = judgement.kind === 'fail' || judgement.kind === 'blocked' ? judgement.failure.missing : undefined;
        const later = missing?.length ? await afterBound(api, kit.config.runId, exchange, missing) : undefined;
        if (later) [exchange, judgement] = [later, judgeSteps(later, steps, own, kit.context)];
        for (const name of judgement.checked) recordCheck(testInfo, name);
        await settle(testInfo, judgement, exchange, deps);
        return exchange;
      });
    },
    { box: 'self' },
  ],
  judge: [
    async ({ kit, api, profile }, use, testInfo) => {
      const deps = { api, profile, context: kit.context, runId: kit.config.runId };
      await use(async (answers, check) => {
        let [exchanges, judgement] = [answers, judgeTogether(answers, check, kit.context)];
        // A walk that missed groups within their visibility bound is judged on its reads sent again after it.
        const missing = judgement.kind === 'fail' ? judgement.failure.missing : undefined;
        const later = missing?.length ? await allAfterBound(api, kit.config.runId, exchanges, missing) : undefined;
        if (later) [exchanges, judgement] = [later, judgeTogether(later, check, kit.context)];
        for (const name of judgement.checked) recordCheck(testInfo, name);
        await settle(testInfo, judgement, exchanges, deps);
      });
    },
    { box: 'self' },
  ],
});

/**
 * The kit's own matrices judge several targets in one Playwright project (KitWorkerOptions.kitTargets): each suite's
 * top-level describe is then declared once per target, inside a describe named after the target that sets
 * `kitTarget`, so one worker judges every target in turn, each in the suites' own order. The tests themselves are
 * declared by the suite files, as in every run (their locations are theirs). A test outside any describe would run
 * once, for no target, and fail there for want of a configuration: the suites declare none.
 */
function perTarget(base: typeof judging, names: string[]): typeof judging {
  let inside = 0;
  const describe = new Proxy(base.describe, {
    apply(declare, self, args) {
      if (inside) return Reflect.apply(declare, self, args);
      for (const name of names)
        base.describe(name, () => {
          base.use({ kitTarget: name });
          inside++;
          try {
            Reflect.apply(declare, self, args);
          } finally {
            inside--;
          }
        });
    },
  });
  // Only describe is wrapped: a test declared through a wrapper would be located in it, not in its suite file.
  return new Proxy(base, { get: (target, property, receiver) => (property === 'describe' ? describe : Reflect.get(target, property, receiver)) });
}

const targets = matrixTargetNames();
export const test = targets.length ? perTarget(judging, targets) : judging;

export { expect } from '@playwright/test';
