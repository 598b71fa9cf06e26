import { test as base, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server';
import { ROOT, runPlaywright, type KitRun } from './harness';

/**
 * The kit's own tests share one way to get a reference server: fast visibility (50 ms), no create
 * rate limit unless asked. `referenceServer` is a plain, conforming one per worker (cheap to share:
 * every run has its own prefix); `startReference` starts one with its own faults or tokens for one
 * test and closes it when the test ends.
 */
export const REFERENCE_DEFAULTS: ReferenceOptions = { lagMs: 50, createRate: null };

export interface ReferenceFixtures {
  startReference: (options?: ReferenceOptions) => Promise<ReferenceServer>;
}

export interface ReferenceWorkerFixtures {
  referenceServer: ReferenceServer;
}

export const test = base.extend<ReferenceFixtures, ReferenceWorkerFixtures>({
  referenceServer: [
    async ({}, use) => {
      const server = await startReferenceServer(REFERENCE_DEFAULTS);
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  startReference: async ({}, use) => {
    const started: ReferenceServer[] = [];
    await use(async (options = {}) => {
      const server = await startReferenceServer({ ...REFERENCE_DEFAULTS, ...options });
      started.push(server);
      return server;
    });
    await Promise.all(started.map((server) => server.close()));
  },
});

export { expect };

/**
 * Runs a tiny inline suite through the kit's own reporters, with no target: for what the reporters
 * do with annotations, skips and error messages the suites may produce. It lives under
 * test-results/ so that it resolves @playwright/test from the kit's node_modules.
 */
export function runInlineSuite(spec: string, env: Record<string, string> = {}): Promise<KitRun> {
  mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, 'test-results', 'inline-'));
  const reporters = [[path.join(ROOT, 'reporters', 'conformance.ts')]];
  writeFileSync(
    path.join(dir, 'inline.config.ts'),
    `import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: '.', testMatch: '*.spec.ts', workers: 1, reporter: ${JSON.stringify([...reporters, ['json', { outputFile: path.join(dir, 'raw.json') }]])} });
`,
  );
  writeFileSync(path.join(dir, 'inline.spec.ts'), spec);
  return runPlaywright(['test', '--config', path.join(dir, 'inline.config.ts')], env, { dir, timeoutMs: 60_000 });
}
