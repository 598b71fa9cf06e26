/**
 * Runs the conformance suites against a reference server started with given hooks (a mutant, a
 * variant, or none) and reads what failed. Shared by tests/mutants.test.ts and tests/variants.test.ts.
 *
 * Each run starts its server in this worker (port 0, short snapshot lag, no rate limit) and the
 * suites in a child process with a fixed seed, so outcomes are deterministic. The child runs on one
 * worker: the suites then run in file order, which keeps what one test creates before another reads
 * the same on every run; the self-test's own workers run servers side by side.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { datasetFile } from '../suites/dataset';
import { referenceTokens, TOKEN_ROLES } from '../reference/config';
import { startReferenceServer, type ReferenceHooks, type ReferenceOptions } from '../reference/server';
import { loadCatalogue } from '../schemas/requirements';
import { cleanEnv, recordedOf, ROOT, testsOfReport, type JsonReport } from './harness';

const CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** Settings of every suite run. Short lag and visibility timeout: never-visible mutants wait only this long. */
export const RUN = {
  lagMs: 25,
  visibilityTimeoutMs: 2500,
  requestTimeoutMs: 5000,
  // Fixed, so the fast-check properties draw the same cases every run.
  seed: 7,
  numRuns: 10,
  workers: 1,
} as const;

const catalogue = loadCatalogue();
const levelOf = new Map(catalogue.requirements.map((r) => [r.id, r.level]));

export interface TestOutcome {
  title: string;
  requirement: string | undefined;
  status: string;
  /** Failure.check of each evidence attachment of a failed test. */
  failingChecks: string[];
  /** Checks the test applied (annotations of type "check"). */
  appliedChecks: string[];
  /** Requirements whose failure blocked this test. */
  blockedBy: string[];
  /** Findings this test attributed to the requirements that own them: { requirement, check }. */
  findings: { requirement: string; check: string }[];
  /** The profile setting a not-assessable test names. */
  profileMismatch: string | undefined;
  error: string;
}

export interface SuiteRun {
  tests: TestOutcome[];
  /** Requirement IDs with a failed test, or a finding another test attributed to them. */
  fails: string[];
  checks: string[];
  /** MUST requirements with a test that was blocked or not assessable. */
  mustNotJudged: string[];
  /** The verdict of the run's conformance.json, as the kit's own reporter wrote it. */
  verdict: string | undefined;
  firstReason: string | null | undefined;
  errors: string[];
  exitCode: number | null;
  stderr: string;
  durationMs: number;
  /**
   * Groups the run left on the server carrying its prefix nowhere: in the Name, or where the Name is what
   * a request tested (left out, empty, of another type), in the Title. A lenient server creates what a bad request held.
   */
  unprefixedGroups: string[];
}

export const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

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

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function outcomes(report: JsonReport): TestOutcome[] {
  return testsOfReport(report).map((t) => {
    const recorded = recordedOf(t);
    return {
      title: t.title,
      requirement: recorded.requirement ?? undefined,
      status: t.status,
      failingChecks: recorded.evidence.map((e) => e.check),
      appliedChecks: recorded.checks,
      blockedBy: recorded.blockedBy,
      findings: recorded.findings.map((f) => ({ requirement: f.requirement, check: f.failure.check })),
      profileMismatch: recorded.profileMismatch,
      error: (t.result?.error?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0],
    };
  });
}

/** Something started in front of the reference server (a reverse proxy): the suites talk to its url. */
export type Front = (upstreamUrl: string) => Promise<{ url: string; close(): Promise<void> }>;

export interface RunOptions {
  /** Started after the reference server, in front of it; closed first. Default none: the suites talk to the server. */
  front?: Front;
  /** A profile override the kit runs with (written to a file and passed as AG_PROFILE). Default: the reference profile. */
  kitProfile?: Record<string, unknown>;
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
  // As short as the kit's own run ids: every Name the kit creates starts with it, and Names have a length limit.
  const runId = `m${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  let front: Awaited<ReturnType<Front>> | undefined;
  try {
    front = options.front ? await options.front(target.url) : undefined;
    // Playwright's JSON report for the per-test outcomes, and the kit's own for the verdict it computes.
    const args = [CLI, 'test', '--reporter=json,./reporters/json.ts', `--workers=${RUN.workers}`, `--output=${path.join(work, 'output')}`];
    const env = childEnv(front?.url ?? target.url, runId, work);
    if (options.kitProfile) {
      env.AG_PROFILE = path.join(work, 'profile.yaml');
      writeFileSync(env.AG_PROFILE, YAML.stringify(options.kitProfile));
    }
    const { code, stderr } = await runNode(args, env);
    const reportFile = path.join(work, 'report.json');
    if (!existsSync(reportFile)) throw new Error(`the suites wrote no JSON report (exit ${code}):\n${stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
    const tests = outcomes(report);
    const failed = tests.filter((t) => t.status === 'unexpected' || t.status === 'flaky');
    const findings = tests.flatMap((t) => t.findings);
    const conformance = path.join(work, 'report', 'conformance.json');
    const summary = existsSync(conformance) ? (JSON.parse(readFileSync(conformance, 'utf8')) as { verdict?: string; firstReason?: string | null }) : undefined;
    return {
      verdict: summary?.verdict,
      firstReason: summary?.firstReason,
      tests,
      fails: sorted([...failed.map((t) => t.requirement ?? `(no requirement: ${t.title})`), ...findings.map((f) => f.requirement)]),
      checks: sorted([...failed.flatMap((t) => t.failingChecks), ...findings.map((f) => f.check)]),
      mustNotJudged: sorted(
        tests.filter((t) => (t.blockedBy.length || t.profileMismatch) && levelOf.get(t.requirement ?? '') === 'MUST').map((t) => t.requirement!),
      ),
      errors: (report.errors ?? []).map((e) => e.message ?? String(e)),
      exitCode: code,
      stderr,
      durationMs: performance.now() - started,
      unprefixedGroups: target
        .groups()
        .filter((g) => !g.Name.startsWith(`agc-${runId}-`) && !g.Title.startsWith(`agc-${runId}-`))
        .map((g) => JSON.stringify(g)),
    };
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

/** Every assessed requirement must have run: a run that lost tests would fail nothing and pass. */
export function expectComplete(run: SuiteRun): void {
  expect(run.errors, `the conformance run reported errors\n${run.stderr.slice(-2000)}`).toEqual([]);
  // Whatever the server accepted, what the kit made it create is the run's: the prefix in its Name, or its Title where the Name was tested.
  expect(run.unprefixedGroups, 'groups the run created without its prefix').toEqual([]);
  const ran = new Set(run.tests.map((t) => t.requirement));
  const missing = catalogue.requirements.filter((r) => r.level !== 'NOT-ASSESSED' && !ran.has(r.id)).map((r) => r.id);
  expect(missing, 'requirements with no test in the run').toEqual([]);
}

const isMust = (id: string | undefined) => levelOf.get(id ?? '') === 'MUST';

/** MUST requirements the run failed, or that a finding named: what a legitimate server must never get. */
export function mustFindings(run: SuiteRun): { failed: string[]; attributed: string[] } {
  return {
    failed: run.tests.filter((t) => t.status === 'unexpected' && isMust(t.requirement)).map((t) => `${t.requirement}: ${t.error}`),
    attributed: run.tests.flatMap((t) =>
      t.findings.filter((f) => isMust(f.requirement)).map((f) => `${f.requirement} (found by ${t.requirement}): ${f.check}`),
    ),
  };
}

/**
 * A legitimate server's run: complete, no MUST failed or named by a finding, none left unjudged, and
 * the verdict conformant. Failed SHOULDs are warnings; they are noted on the test.
 */
export function expectLegitimate(run: SuiteRun, why: string): void {
  expectComplete(run);
  const warnings = run.tests.filter((t) => t.status === 'unexpected' && !isMust(t.requirement)).map((t) => t.requirement);
  if (warnings.length) test.info().annotations.push({ type: 'warnings', description: warnings.join(', ') });
  expect({ ...mustFindings(run), notJudged: run.mustNotJudged }, why).toEqual({ failed: [], attributed: [], notJudged: [] });
  expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('conformant');
}

/** A run that found one deviation: it completed without errors and failed exactly these requirements, each failing test's error shown if not. */
export function expectFailsExactly(run: SuiteRun, ids: string[]): void {
  expect(run.errors, `the conformance run reported errors\n${run.stderr.slice(-2000)}`).toEqual([]);
  test
    .info()
    .annotations.push(
      { type: 'fails', description: run.fails.join(', ') },
      { type: 'checks', description: run.checks.join(', ') },
      { type: 'first-reason', description: String(run.firstReason) },
    );
  const why = run.tests
    .filter((t) => t.status === 'unexpected')
    .map((t) => `${t.requirement}: ${t.error}`)
    .join('\n');
  expect(run.fails, why).toEqual(ids);
}
