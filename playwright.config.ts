import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { FAILURES_KEEP_WORKER, KIT_WORKERS, loadConfig, prepareRunEnvironment, ConfigError, type KitWorkerOptions } from './config';
import { loadProfile, ProfileError } from './schemas/profile';
import { loadCatalogue } from './schemas/requirements';
import { loadWaivers, WaiverError } from './reporters/waivers';
import { loadBaseline, BaselineError } from './reporters/baseline';

// Decided once in the runner and inherited by every worker through the environment.
prepareRunEnvironment();

// The configuration (environment, .env, and `agc run` options, which bin/agc.mjs turns into the
// environment) is resolved here, once per process, by config/index.ts, and handed on as one typed
// object: to the workers and global setup as the `kitConfig` option, to the reporters in their
// FullConfig (config.projects[0].use). Playwright evaluates this file in every worker too; the run's
// random values are in the environment by then, so each worker resolves the same configuration, and
// the embedded server's URL, which only exists once its webServer is up (AG_REFERENCE_URL).

function configOrExit() {
  try {
    const config = loadConfig();
    // Profile and waivers are read here first, so that a mistake in either is one clear line
    // naming the variable, not a stack trace from every worker.
    const profile = loadProfile(config.profilePath);
    // A profile of the user's (AG_PROFILE) is checked here, before any worker starts. The reference profile's own
    // consistency is the kit's test (tests/schemas.test.ts): checking it again would compile every validator in
    // the runner, which validates nothing, for 0.15 s of CPU per run.
    if (config.profilePath) {
      // Required only now: loading the validators compiles the profile, which must be readable first.
      const { checkProfileConsistency } = require('./schemas') as typeof import('./schemas');
      const inconsistent = checkProfileConsistency(profile);
      if (inconsistent.length)
        throw new ConfigError(
          `AG_PROFILE ${config.profilePath}: its settings and its $defs disagree:\n  - ${inconsistent.join('\n  - ')}\n` +
            '  Fix the schema, or leave it out of the file: the kit writes each $defs entry a file leaves out from its settings.',
        );
    }
    loadWaivers(config.waiversPath, new Set(loadCatalogue().requirements.map((r) => r.id)));
    // And the baseline: a wrong one is one line naming AG_BASELINE before the webServer starts.
    loadBaseline(config.baselinePath);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ProfileError || error instanceof WaiverError || error instanceof BaselineError) {
      // A configuration mistake is the user's to fix: say which variable, no stack trace.
      console.error(`conformance kit: configuration error: ${error.message}`);
      process.exit(3);
    }
    throw error;
  }
}

// merge-reports only needs the reporters: the run it merges was configured and checked already.
const merging = process.argv.includes('merge-reports');
// The runner checks the configuration before it starts any worker, and marks its environment with its pid; a worker it
// forked (a new one after every failed test) inherits the mark and only resolves the same configuration again, since
// checking the profile, waivers and baseline once more costs each worker process 0.15 to 0.2 s of CPU.
const CHECKED_BY = 'AG_CONFIG_CHECKED_BY';
const checkedByRunner = process.env[CHECKED_BY] === String(process.ppid);
const kit = merging ? { ...loadConfig({ ...process.env, AG_BASE_URL: '', AG_PROFILE: '' }), embedded: false } : checkedByRunner ? loadConfig() : configOrExit();
if (!merging && !checkedByRunner) process.env[CHECKED_BY] = String(process.pid);
// Only the kit's own matrices mark failed tests so that they keep their worker (config/index.ts): in a run of the kit, a
// value inherited from elsewhere would make Playwright's outcomes untrue, and its own list print failures as passes.
if (!merging && !checkedByRunner) delete process.env[FAILURES_KEEP_WORKER];

export default defineConfig<{}, KitWorkerOptions>({
  testDir: 'suites',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: KIT_WORKERS,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // A test waits at most for visibility plus a few requests; this bounds a hung target too.
  timeout: kit.visibilityTimeoutMs + 6 * kit.requestTimeoutMs,
  // The kit's console (a line per test, by its status), then the report, whose last lines say the verdict.
  // `agc merge` runs merge-reports with this file, so a merged report gets every one of them too.
  reporter: [
    // Not a display: it tells the runner which tests this run selected, whose requests it then sends ahead (suites/families/).
    ['./suites/selection.ts'],
    ['./reporters/console.ts'],
    // The report: the verdict computed once, and every file of it rendering that one.
    ['./reporters/conformance.ts'],
  ],
  globalSetup: './suites/global-setup.ts',
  // Beside the run's reports, so two runs with their own report folders never share one.
  outputDir: path.join(kit.reportDir, 'test-output'),
  // Traces and screenshots would capture request headers; the kit records its own redacted evidence.
  use: { trace: 'off', screenshot: 'off', video: 'off', kitConfig: kit },
  // One setting chooses the target: without AG_BASE_URL the embedded reference server is started.
  webServer: kit.embedded
    ? {
        // tsx's loader in this one process, not its CLI, which would start a second Node to run the server in (0.18 s).
        command: 'node --import tsx reference/main.ts --port 0 --no-print-tokens --create-rate 5',
        wait: { stdout: /AG_REFERENCE_URL=(?<ag_reference_url>http:\/\/[^\s]+)/ },
        // SIGINT lets the server close its sockets; SIGTERM would leave it running and its port taken.
        gracefulShutdown: { signal: 'SIGINT', timeout: 2_000 },
        stdout: 'ignore',
        stderr: 'pipe',
        timeout: 30_000,
      }
    : undefined,
});
