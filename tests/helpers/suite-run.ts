/**
 * Runs the conformance suites against a reference server started with given hooks (a mutant, a
 * variant, or none), alone or several in one Playwright run, and reads what failed
 * (tests/helpers/suite-run-read.ts). Shared by the matrices: tests/matrices/mutants.test.ts, tests/matrices/variants.test.ts and others;
 * what they assert of a run is tests/helpers/suite-run-expect.ts.
 *
 * Each run starts its server in this worker (port 0, short snapshot lag, no rate limit) and the
 * suites in a child process with a fixed seed, so outcomes are deterministic. The child runs on one
 * worker: the suites then run in file order, which keeps what one test creates before another reads
 * the same on every run; the self-test's own workers run servers side by side.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { datasetFile } from '../../suites/dataset';
import { referenceTokens, TOKEN_ROLES } from '../../reference/config';
import { startReferenceServer, type ReferenceHooks, type ReferenceOptions } from '../../reference/server';
import { cleanEnv, ROOT } from './harness';
import { readReport, readRun, type SuiteRun } from './suite-run-read';
import { MATRIX_VARIABLE, type MatrixTarget } from './matrix-targets';

const CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/**
 * Settings of every suite run. Short lag and visibility timeout: never-visible mutants wait only this long, and so does a
 * read that missed groups within it before it is judged again (suites/judging.ts afterBound). Above the longest lag a
 * variant adds (1.5 s: snapshotReloadedFromBackup, unboundReplicaLagsChannels).
 */
export const RUN = {
  lagMs: 25,
  visibilityTimeoutMs: 2000,
  requestTimeoutMs: 5000,
  // Fixed, so the fast-check properties draw the same cases every run.
  seed: 7,
  numRuns: 10,
  workers: 1,
} as const;

/** The child's environment: clean of the developer's settings, pointing at this server with the reference tokens. */
function childEnv(baseURL: string, runId: string, work: string): NodeJS.ProcessEnv {
  const env = cleanEnv();
  const tokens = referenceTokens();
  for (const info of TOKEN_ROLES) env[info.clientEnv] = tokens[info.role];
  Object.assign(env, {
    AG_BASE_URL: baseURL,
    AG_VISIBILITY_TIMEOUT_MS: String(RUN.visibilityTimeoutMs),
    AG_REQUEST_TIMEOUT_MS: String(RUN.requestTimeoutMs),
    AG_SEED: String(RUN.seed),
    AG_NUM_RUNS: String(RUN.numRuns),
    AG_RUN_ID: runId,
    AG_REPORT_DIR: path.join(work, 'report'),
    PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(work, 'report.json'),
  });
  return env;
}

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Something started in front of the reference server (a reverse proxy): the suites talk to its url. */
export type Front = (upstreamUrl: string) => Promise<{ url: string; close(): Promise<void> }>;

export interface RunOptions {
  /** Started after the reference server, in front of it; closed first. Default none: the suites talk to the server. */
  front?: Front;
  /** A profile override the kit runs with (written to a file and passed as AG_PROFILE). Default: the reference profile. */
  kitProfile?: Record<string, unknown>;
  /** A profile file the kit runs with, as AG_PROFILE; before kitProfile. */
  profilePath?: string;
  /**
   * The console: the kit's (default), as `agc run` has it, under which a failed test keeps its worker (FAILURES_KEEP_WORKER,
   * config/index.ts); or Playwright's `list`, under which Playwright starts a new worker after every failed test.
   */
  console?: 'kit' | 'list';
  /** More of the child's environment. */
  env?: Record<string, string>;
}

/** Starts a server with these hooks, runs the conformance suites against it, and reads the JSON report. */
export async function runSuites(
  label: string,
  hooks: Partial<ReferenceHooks>,
  server: Pick<ReferenceOptions, 'profile'> = {},
  options: RunOptions = {},
): Promise<SuiteRun> {
  const started = performance.now();
  const target = await startReferenceServer({ hooks, lagMs: RUN.lagMs, createRate: null, port: 0, ...server });
  const work = mkdtempSync(path.join(os.tmpdir(), `agc-run-${label}-`));
  const runId = newRunId();
  let front: Awaited<ReturnType<Front>> | undefined;
  try {
    front = options.front ? await options.front(target.url) : undefined;
    // Playwright's JSON report for the per-test outcomes, and the kit's own for the verdict it computes.
    const consoleReporter = options.console === 'list' ? 'list' : './reporters/console.ts';
    const args = [
      CLI,
      'test',
      `--reporter=./suites/selection.ts,json,./tests/helpers/conformance-json.ts,${consoleReporter}`,
      `--workers=${RUN.workers}`,
      `--output=${path.join(work, 'output')}`,
    ];
    const env = { ...childEnv(front?.url ?? target.url, runId, work), ...options.env };
    if (options.profilePath) env.AG_PROFILE = options.profilePath;
    else if (options.kitProfile) {
      env.AG_PROFILE = path.join(work, 'profile.yaml');
      writeFileSync(env.AG_PROFILE, YAML.stringify(options.kitProfile));
    }
    const { code, stdout, stderr } = await runNode(args, env);
    return readRun(readReport(work, code, stderr), path.join(work, 'report'), target, runId, { exitCode: code, stdout, stderr, started });
  } finally {
    try {
      await front?.close();
    } finally {
      await target.close();
    }
    rmSync(work, { recursive: true, force: true });
    rmSync(path.dirname(datasetFile(runId)), { recursive: true, force: true });
  }
}

/** As short as the kit's own run ids: every Name the kit creates starts with it, and Names have a length limit. */
const newRunId = () => `m${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

export interface BatchEntry {
  label: string;
  hooks: Partial<ReferenceHooks>;
  /** The server's own profile, as runSuites takes it; the kit's is the batch's (runSuitesBatch), unless `profilePath` says otherwise. */
  server?: Pick<ReferenceOptions, 'profile'>;
  /** A profile file the kit judges this server by (a drafted one), instead of the batch's. */
  profilePath?: string;
  /** A profile the kit judges this server by, instead of the batch's: servers judged by different profiles share a batch. */
  kitProfile?: Record<string, unknown>;
}

/**
 * runSuites for several servers at once: each started as runSuites starts one, the suites run against
 * all of them in one Playwright run of tests/helpers/matrix.config.ts (one worker judging each server in turn,
 * each with its own run id, groups and conformance.json), and each server's run read as runSuites reads one.
 * The kit's profile is the reference one for all, or `kitProfile` for all. A run that reports an error of its own (a global
 * setup that failed for one server, say) is no verdict on the others: then each runs alone, as runSuites.
 */
export async function runSuitesBatch(entries: BatchEntry[], options: Pick<RunOptions, 'kitProfile'> = {}): Promise<Map<string, SuiteRun>> {
  const started = performance.now();
  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-batch-'));
  const targets: {
    entry: BatchEntry;
    server: Awaited<ReturnType<typeof startReferenceServer>>;
    runId: string;
    reportDir: string;
    profilePath: string | undefined;
  }[] = [];
  try {
    for (const entry of entries) {
      const server = await startReferenceServer({ hooks: entry.hooks, lagMs: RUN.lagMs, createRate: null, port: 0, ...entry.server });
      let profilePath = entry.profilePath;
      if (!profilePath && entry.kitProfile) {
        profilePath = path.join(work, `${entry.label}.profile.yaml`);
        writeFileSync(profilePath, YAML.stringify(entry.kitProfile));
      }
      targets.push({ entry, server, runId: newRunId(), reportDir: path.join(work, entry.label, 'report'), profilePath });
    }
    const env = childEnv(targets[0].server.url, targets[0].runId, work);
    env[MATRIX_VARIABLE] = JSON.stringify(
      targets.map((t): MatrixTarget => ({
        name: t.entry.label,
        baseURL: t.server.url,
        runId: t.runId,
        reportDir: t.reportDir,
        profilePath: t.profilePath,
      })),
    );
    // The batch's AG_PROFILE, for every server without a profile of its own (MatrixTarget.profilePath).
    if (options.kitProfile) {
      env.AG_PROFILE = path.join(work, 'profile.yaml');
      writeFileSync(env.AG_PROFILE, YAML.stringify(options.kitProfile));
    }
    const args = [CLI, 'test', '--config', path.join(ROOT, 'tests', 'helpers', 'matrix.config.ts'), `--workers=${RUN.workers}`];
    const { code, stderr } = await runNode(args, env);
    const report = readReport(work, code, stderr);
    if (report.errors?.length) {
      const alone = new Map<string, SuiteRun>();
      for (const entry of entries)
        alone.set(
          entry.label,
          await runSuites(entry.label, entry.hooks, entry.server, {
            ...options,
            profilePath: entry.profilePath,
            kitProfile: entry.kitProfile ?? options.kitProfile,
          }),
        );
      return alone;
    }
    return new Map(
      targets.map((t) => [t.entry.label, readRun(report, t.reportDir, t.server, t.runId, { exitCode: code, stderr, started, target: t.entry.label })]),
    );
  } finally {
    for (const t of targets) await t.server.close();
    rmSync(work, { recursive: true, force: true });
    for (const t of targets) rmSync(path.dirname(datasetFile(t.runId)), { recursive: true, force: true });
  }
}

/**
 * Servers per Playwright run in the matrices: enough to spread the fixed cost of one (the runner's and its worker's start,
 * their global setup and reports) over many, few enough that the batches share two workers evenly. `CI=1 npx playwright test
 * --config tests/playwright.config.ts tests/matrices/mutants.test.ts tests/matrices/variants.test.ts`, one run each: 8 gave 165 s and 312 CPU-s,
 * 16 143 s and 268, 24 121 s and 228, 32 125 s and 227. Since then a server's run costs less, and a batch's start weighs
 * more: the same command (each process's CPU at its exit) gave 24 49.7 s and 94.4 CPU-s, 48 40.5 s and 73.9, 64 38.6 s and
 * 69.7. The self-test is bound by CPU, and the other files' tests fill the workers around the few long batches.
 */
export const BATCH = 64;

/** The size of batches of at most `max` that split `count` items evenly: 26 of at most 24 are two of 13, not 24 and 2. */
export const evenBatchSize = (count: number, max: number): number => Math.ceil(count / Math.ceil(count / max));

/**
 * Declares one test per item, the items' servers run at most BATCH at a time (runSuitesBatch), in batches of even size
 * (26 items are two of 13, not 24 and 2). Each batch is a group that runs in one worker, in order: its first test runs
 * the batch, the others read their runs from it (a worker that restarts after a failed test runs the batch again for the rest).
 */
export function inBatches<T>(
  items: readonly T[],
  entryOf: (item: T) => BatchEntry,
  declare: (item: T, runOf: () => Promise<SuiteRun>) => void,
  options: Pick<RunOptions, 'kitProfile'> = {},
): void {
  const size = evenBatchSize(items.length, BATCH);
  for (let i = 0; i < items.length; i += size) {
    const batch = items.slice(i, i + size);
    test.describe(() => {
      test.describe.configure({ mode: 'default' });
      let runs: Promise<Map<string, SuiteRun>> | undefined;
      for (const item of batch) {
        const { label } = entryOf(item);
        declare(item, () => (runs ??= runSuitesBatch(batch.map(entryOf), options)).then((all) => all.get(label)!));
      }
    });
  }
}
