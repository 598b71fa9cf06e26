/**
 * Global setup of the kit's own tests: one temporary folder for the whole self-test run, removed at
 * its end. Every folder a test, a child run of the suites or the kit's CLI makes with os.tmpdir()
 * lands inside it (TMPDIR is inherited by the workers and, through cleanEnv(), by every child), so a
 * run leaves nothing behind in the system's temp folder, even from a test that failed half-way.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, ROOT } from './harness';

/** Where Playwright keeps its transform cache (playwright/lib/common/index.js), as this runner has it. */
function transformCache(): string {
  const own = process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR || process.env.PWTEST_CACHE_DIR;
  if (own) return own;
  return path.join(os.tmpdir(), process.geteuid ? `playwright-transform-cache-${process.geteuid()}` : 'playwright-transform-cache');
}

/**
 * The children's Playwright shares this runner's transform cache, filled once with every file a run of the suites
 * loads (a listing runs its config, suites and reporters, sends nothing). Under the temporary TMPDIR each child would
 * otherwise find it empty: the runs that start together at the beginning each compiled the whole kit, 3 s of CPU each
 * (measured: 4.2 to 4.7 s of CPU for such a runner, 1.1 s for a later one). Only the compiled sources are cached there.
 */
function warmTransformCache(root: string): void {
  const cache = transformCache();
  process.env.PWTEST_CACHE_DIR = cache;
  spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--list', '--config', path.join(ROOT, 'playwright.config.ts')],
    {
      cwd: ROOT,
      env: { ...cleanEnv(), TMPDIR: root, PWTEST_CACHE_DIR: cache, AG_REPORT_DIR: path.join(root, 'transform-warm-up') },
      stdio: 'ignore',
      timeout: 60_000,
    },
  );
}

export default function globalSetup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agc-selftest-run-'));
  warmTransformCache(root);
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
