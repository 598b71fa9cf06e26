import { test as base } from '@playwright/test';
import { loadConfig, type KitConfig, ConfigError } from './config';
import { Api, rateLimitedOut, RATE_LIMITED_REASON } from './api';
import type { Exchange } from './exchange';
import { type Check, type CheckContext, formatFailure } from './checks';
import { loadDataset, type Dataset } from './dataset';
import { validate, errorKinds, profile } from '../schemas';

export { RawBody, VERSION, Api, listBody } from './api';
export { groupsOf, itemsOf } from './dataset';

/** The annotation that ties a test to its requirement; the title starts with the same ID. */
export const requirement = (id: string) => ({ annotation: { type: 'requirement', description: id } });

/** What the kit knows for a whole worker: configuration, the active profile, compiled validators. */
export interface Kit {
  config: KitConfig & { baseURL: string };
  context: CheckContext;
}

/**
 * Applies checks to an exchange. The first failing check fails the test with the received,
 * documented and fix lines, and its exchange is attached as evidence for the reports.
 */
export type Verify = (exchange: Exchange, checks: Check[]) => Promise<void>;

/** What this worker has already attached for the reports. */
const workerFacts = { run: false, identity: false };

export const test = base.extend<{ api: Api; verify: Verify; dataset: Dataset }, { kit: Kit }>({
  kit: [
    async ({}, use) => {
      const config = loadConfig();
      if (!config.baseURL) {
        throw new ConfigError('no target: AG_BASE_URL is unset and the embedded reference server did not report its URL (AG_REFERENCE_URL)');
      }
      await use({ config: { ...config, baseURL: config.baseURL }, context: { profile, validate, errorKinds } });
    },
    { scope: 'worker' },
  ],
  api: async ({ kit }, use, testInfo) => {
    // A requirement that needs an unconfigured token is not passed silently: it is skipped with
    // the variable named, and the verdict cannot be "conformant" while it is.
    const api = new Api(kit.config, (_role, variable) => {
      testInfo.skip(true, `${variable} is not configured`);
      throw new Error('unreachable');
    });
    await use(api);
    // Facts for the reports travel as attachments, so that merged shards carry them too.
    if (!workerFacts.run) {
      workerFacts.run = true;
      const { baseURL, embedded, profilePath, seed, numRuns, runId, visibilityTimeoutMs, requestTimeoutMs } = kit.config;
      const facts = { baseURL, embedded, profile: { name: kit.context.profile.name, path: profilePath ?? null }, seed, numRuns, runId, visibilityTimeoutMs, requestTimeoutMs };
      await testInfo.attach('run', { body: JSON.stringify(facts), contentType: 'application/json' });
    }
    if (!workerFacts.identity) {
      const meta = api.exchanges.map((ex) => (ex.response?.json as { ResponseMetadata?: { Service?: unknown; Region?: unknown } } | undefined)?.ResponseMetadata).find((m) => typeof m?.Service === 'string');
      if (meta) {
        workerFacts.identity = true;
        await testInfo.attach('target-identity', { body: JSON.stringify({ Service: meta.Service, Region: meta.Region }), contentType: 'application/json' });
      }
    }
    if (api.retries[429] || api.retries[503]) await testInfo.attach('retries', { body: JSON.stringify(api.retries), contentType: 'application/json' });
    // For the benchmarks (bench/run.ts): how many requests this test sent and how deep their chain was.
    await testInfo.attach('requests', { body: JSON.stringify(api.requestStats()), contentType: 'application/json' });
  },
  dataset: async ({}, use, testInfo) => {
    const dataset = loadDataset();
    // The run's groups could not all be created because the target rate-limited the kit: what
    // needs them is not assessable, which is not the same as failing.
    const throttled = dataset.groups.filter((g) => g.id === null && [429, 503].includes(g.create.response?.status ?? 0));
    if (throttled.length) testInfo.skip(true, `${throttled.map((g) => g.key).join(', ')} of the run's groups: ${RATE_LIMITED_REASON}`);
    await use(dataset);
  },
  verify: async ({ kit }, use, testInfo) => {
    const seen = new Set<string>();
    await use(async (exchange, checks) => {
      if (rateLimitedOut.has(exchange)) testInfo.skip(true, RATE_LIMITED_REASON);
      for (const check of checks) {
        if (!seen.has(check.name)) {
          seen.add(check.name);
          testInfo.annotations.push({ type: 'check', description: check.name });
        }
        const failure = check(exchange, kit.context);
        if (failure) {
          await testInfo.attach('evidence', { body: JSON.stringify({ failure, exchange }, null, 2), contentType: 'application/json' });
          throw new Error(formatFailure(failure, exchange));
        }
      }
    });
  },
});

export { expect } from '@playwright/test';
