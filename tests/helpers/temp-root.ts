/**
 * Global setup of the kit's own tests: one temporary folder for the whole self-test run, removed at
 * its end. Every folder a test, a child run of the suites or the kit's CLI makes with os.tmpdir()
 * lands inside it (TMPDIR is inherited by the workers and, through cleanEnv(), by every child), so a
 * run leaves nothing behind in the system's temp folder, even from a test that failed half-way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function globalSetup(): () => void {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agc-selftest-run-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
