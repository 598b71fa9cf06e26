import { test as base } from '@playwright/test';
import { loadConfig, type KitConfig, ConfigError } from './config';
import { Api } from './api';
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
  },
  dataset: async ({}, use) => {
    await use(loadDataset());
  },
  verify: async ({ kit }, use, testInfo) => {
    const seen = new Set<string>();
    await use(async (exchange, checks) => {
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
