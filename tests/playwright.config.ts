import { defineConfig } from '@playwright/test';

// The kit's own tests: catalogue, validators, OpenAPI lint, reference server. No browser, no target.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [['list']],
  outputDir: '../test-results/selftest',
  globalSetup: './temp-root.ts',
});
