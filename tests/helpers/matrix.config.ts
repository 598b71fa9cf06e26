/**
 * The suites against several reference servers (mutants or variants) in one Playwright run and one
 * project (tests/helpers/suite-run.ts, runSuitesBatch). The project carries each server's resolved
 * configuration (`use.kitTargets`: its URL, run id and report folder), as the kit's config carries the
 * one of a single run; suites/fixtures.ts declares every suite once per server, each test told its
 * server by `kitTarget`. Global setup runs the kit's own for each server (tests/helpers/matrix-setup.ts), and
 * each server gets the kit's own conformance.json (tests/helpers/matrix-reporter.ts). What this saves is the
 * runner (Playwright's start, loading every test file, the reporters) and the worker (its process
 * start, Playwright's and the kit's modules, the compiled validators): once per batch instead of once
 * per server. A failed test keeps the worker (suites/fixtures.ts, keepWorker; tests/helpers/matrix-reporter.ts says so):
 * Playwright would replace it after every unexpected failure.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import kit from '../../playwright.config';
import { declareMatrixTargets, loadConfig, type KitConfig, type KitWorkerOptions } from '../../config';
import { MATRIX_VARIABLE, type MatrixTarget } from './matrix-targets';

const targets = JSON.parse(process.env[MATRIX_VARIABLE] ?? '[]') as MatrixTarget[];
// Before the suites load, here and in every worker: they declare each describe once per target (suites/fixtures.ts).
declareMatrixTargets(targets.map((t) => t.name));

/** Each server's configuration, as the kit resolves a run's from its environment. */
const configOf = (t: MatrixTarget): KitConfig =>
  loadConfig({ ...process.env, AG_BASE_URL: t.baseURL, AG_RUN_ID: t.runId, AG_REPORT_DIR: t.reportDir, AG_PROFILE: t.profilePath ?? process.env.AG_PROFILE });

export default defineConfig<{}, KitWorkerOptions>({
  ...kit,
  testDir: path.join(__dirname, '..', '..', 'suites'),
  globalSetup: path.join(__dirname, 'matrix-setup.ts'),
  // Without the selection reporter (suites/selection.ts): nothing is sent ahead, each target's tests send their own. With
  // it every mutant and variant gets the same verdict (the three matrix files: 230 passed), but the batches cost more,
  // each target's answers going through the run's folder instead of the worker's memory: 144.8 s and 277 CPU-s against
  // 119.7 s and 229. Sending ahead is checked on single runs: tests/sent-ahead.test.ts, and every runSuites run.
  reporter: [['json'], [path.join(__dirname, 'matrix-reporter.ts')]],
  webServer: undefined,
  // One worker runs every test in order either way. Fully parallel, each test is a group of its own, and the worker binds
  // the whole file (every target's copy of its tests) to the project again for each: quadratic in the batch's size.
  // A batch of 24 mutants, three runs each way (medians): 17.5 s and 22.0 CPU-s fully parallel, 15.2 s and 20.0 CPU-s not.
  fullyParallel: false,
  outputDir: path.join(path.dirname(targets[0]?.reportDir ?? '.'), '..', 'test-output'),
  projects: [
    {
      name: 'matrix',
      use: {
        ...kit.use,
        kitConfig: undefined,
        kitTargets: Object.fromEntries(targets.map((t) => [t.name, configOf(t)])),
      },
    },
  ],
});
