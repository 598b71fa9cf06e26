/**
 * The suites against several reference servers (mutants or variants) in one Playwright run, one
 * project per server (tests/suite-run.ts, runSuitesBatch). Each project carries its own resolved
 * configuration (`use.kitConfig`: its URL, run id and report folder), as the kit's config carries the
 * one of a single run; global setup runs the kit's own for each project (tests/matrix-setup.ts), and
 * each project gets the kit's own conformance.json (tests/matrix-reporter.ts). What this saves is
 * the runner: Playwright's start, loading every test file, and the reporters, once per batch instead
 * of once per server. Every project still has its own workers, restarted after each test that fails
 * unexpected: the tests a mutant is expected to fail are marked so (MatrixTarget.expectedFailures).
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import kit from '../playwright.config';
import { loadConfig, type KitWorkerOptions } from '../suites/config';
import { MATRIX_VARIABLE, type MatrixTarget } from './matrix-targets';

const targets = JSON.parse(process.env[MATRIX_VARIABLE] ?? '[]') as MatrixTarget[];

export default defineConfig<{}, KitWorkerOptions>({
  ...kit,
  testDir: path.join(__dirname, '..', 'suites'),
  globalSetup: path.join(__dirname, 'matrix-setup.ts'),
  reporter: [['json'], [path.join(__dirname, 'matrix-reporter.ts')]],
  webServer: undefined,
  projects: targets.map((t) => ({
    name: t.name,
    outputDir: path.join(t.reportDir, 'test-output'),
    use: {
      ...kit.use,
      kitConfig: loadConfig({ ...process.env, AG_BASE_URL: t.baseURL, AG_RUN_ID: t.runId, AG_REPORT_DIR: t.reportDir }),
      expectedFailures: t.expectedFailures,
    },
  })),
});
