import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { referenceTokenEnv } from '../../reference/config';

export const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
const AGC = path.join(ROOT, 'bin', 'agc.mjs');

export interface KitRun {
  status: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  outputDir: string;
  durationMs: number;
}

/** The kit's variables stripped from the parent's environment, so a self-test is never steered by the developer's .env or shell. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // A CI job's step summary is the job's own: the kit runs its tests start must not append to it.
    const notForChildren = ['TEST_WORKER_INDEX', 'TEST_PARALLEL_INDEX', 'GITHUB_STEP_SUMMARY'];
    // Nor a developer's or CI's proxy: the self-test's targets are on 127.0.0.1, which curl's rules would send through it.
    const proxy = /^(https?|all|no)_proxy$/i.test(key);
    if (!key.startsWith('AG_') && !key.startsWith('PLAYWRIGHT_') && !notForChildren.includes(key) && !proxy) env[key] = value;
  }
  return env;
}

/**
 * Runs Playwright at the kit's root in a child process, with its own report and output folders so
 * that parallel runs never clobber each other, and a test run with one worker unless the test asks
 * for more (see runAgc). Bounded: killed with SIGINT (then SIGKILL) after `timeoutMs`, since SIGTERM
 * would orphan a webServer.
 */
export function runPlaywright(args: string[], env: Record<string, string>, options: { timeoutMs?: number; dir?: string } = {}): Promise<KitRun> {
  // merge-reports takes no --output; only test runs write test-results.
  const test = args[0] === 'test';
  const oneWorker = test && !args.some((arg) => arg.startsWith('--workers'));
  return runNode(CLI, oneWorker ? [...args, '--workers=1'] : args, env, { ...options, output: test });
}

/**
 * Runs the kit's CLI, `agc`, as a user would, except that a run or a certification gets one worker unless the
 * test asks for more: the self-test runs two kit runs side by side on two cores, and each extra worker costs a
 * process start (~0.6 s of CPU) plus one more after every failed test, for nothing a test here judges.
 */
export function runAgc(args: string[], env: Record<string, string>, options: { timeoutMs?: number; dir?: string } = {}): Promise<KitRun> {
  const oneWorker = ['run', 'certify'].includes(args[0]) && !args.includes('--workers') && !args.includes('--help');
  return runNode(AGC, oneWorker ? [...args, '--workers', '1'] : args, env, options);
}

async function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  { timeoutMs = 120_000, dir, output = false }: { timeoutMs?: number; dir?: string; output?: boolean },
): Promise<KitRun> {
  const work = dir ?? mkdtempSync(path.join(os.tmpdir(), 'agc-selftest-'));
  const flag = args.indexOf('--report-dir');
  const reportDir = flag >= 0 ? path.resolve(args[flag + 1]) : (env.AG_REPORT_DIR ?? path.join(work, 'report'));
  const outputDir = path.join(work, 'output');
  const started = Date.now();
  const done = await exec(process.execPath, [script, ...args, ...(output ? [`--output=${outputDir}`] : [])], {
    cwd: ROOT,
    env: { ...cleanEnv(), AG_REPORT_DIR: reportDir, ...env },
    timeoutMs,
  });
  return { ...done, reportDir, outputDir, durationMs: Date.now() - started };
}

export interface Done {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion, bounded: SIGINT after `timeoutMs` (SIGTERM would orphan a
 * Playwright webServer), then SIGKILL. The environment is the caller's to give: cleanEnv() keeps
 * the developer's kit variables out.
 */
export function exec(
  command: string,
  args: string[],
  { cwd = ROOT, env = cleanEnv(), timeoutMs = 120_000 }: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Done> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export function readJson<T = any>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every file below a folder, for searches over everything a run wrote. */
export function filesBelow(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    out = statSync(full).isDirectory() ? out.concat(filesBelow(full)) : out.concat(full);
  }
  return out;
}

/** A kit run against `url` whose private folder is kept for the test to read (AG_KEEP_TEMP): seed 7, five runs per property. */
export function keptRunEnv(url: string, runId: string): Record<string, string> {
  return {
    ...referenceTokenEnv(),
    AG_BASE_URL: url,
    AG_RUN_ID: runId,
    AG_KEEP_TEMP: '1',
    AG_SEED: '7',
    AG_NUM_RUNS: '5',
    AG_VISIBILITY_TIMEOUT_MS: '10000',
  };
}

// Read by the bench too, which imports nothing from tests/: they live in the rooms below.
export { referenceTokenEnv } from '../../reference/config';
export { attachmentsOf, recordedOf, testsOfReport, type JsonReport, type JsonResult, type ReportedTest } from '../../facts/json-report';
