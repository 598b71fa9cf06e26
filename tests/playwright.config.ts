import os from 'node:os';
import { defineConfig } from '@playwright/test';

// The kit's own tests: catalogue, validators, OpenAPI lint, reference server. No browser, no target.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  // Two at least: Playwright's default, half the cores, is one worker on a two-core machine, where the tests mostly wait on
  // the child processes they start (at stop 36, a fresh clone's `npm test` took 13.9 min on one worker, `CI=1 npm test` 8.6 min on two).
  workers: process.env.CI ? 3 : Math.max(3, Math.floor(os.availableParallelism() / 2)),
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  outputDir: '../test-results/selftest',
  globalSetup: './helpers/temp-root.ts',
});
