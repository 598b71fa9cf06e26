/**
 * The mutant matrix's tests, declared by the files that run mutants (tests/matrices/mutants.test.ts,
 * tests/matrices/mutants-one-id-exact.test.ts): one per mutant, failing exactly what
 * reference/mutants.expected.yaml says, and one for the unmodified reference server. Also the
 * checks of suites/checks, which the matrix must kill, and the matrix's wall time.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { CHECKS_BY_FAMILY } from '../../suites/checks';
import { MUTANTS } from '../../reference/mutants';
import { loadExpectedKills } from '../../reference/kill-matrix';
import { loadCatalogue } from '../../schemas/requirements';
import { sorted, type SuiteRun } from '../helpers/suite-run-read';
import { expectComplete } from '../helpers/suite-run-expect';

const catalogue = loadCatalogue();
export const expected = loadExpectedKills();

// ---------------------------------------------------------------- wall time of the whole matrix

/**
 * One log per self-test run, shared by its workers (children of the same runner). It lives in the
 * run's output folder, which Playwright empties at the start of the next run.
 */
function matrixLog(): string {
  return path.join(test.info().project.outputDir, `mutant-matrix-${process.ppid}.jsonl`);
}

/** Notes one run; the run that completes the matrix prints and annotates the matrix's wall time. */
function noteRun(name: string, run: SuiteRun, startedAt: number): void {
  test.info().annotations.push({ type: 'duration', description: `${(run.durationMs / 1000).toFixed(1)} s` });
  const log = matrixLog();
  mkdirSync(path.dirname(log), { recursive: true });
  appendFileSync(log, `${JSON.stringify({ name, start: startedAt, end: Date.now() })}\n`);
  const entries = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { name: string; start: number; end: number });
  if (new Set(entries.map((e) => e.name)).size < MUTANTS.length + 1) return;
  const wall = (Math.max(...entries.map((e) => e.end)) - Math.min(...entries.map((e) => e.start))) / 1000;
  const summary = `mutant matrix: ${MUTANTS.length} mutants + the reference server in ${wall.toFixed(1)} s wall`;
  test.info().annotations.push({ type: 'matrix-wall-time', description: summary });
  console.log(summary);
  rmSync(log, { force: true });
}

function record(name: string, run: SuiteRun): void {
  const file = process.env.AG_MUTANTS_RECORD;
  if (file) appendFileSync(file, `${JSON.stringify({ name, fails: run.fails, checks: run.checks })}\n`);
}
// ---------------------------------------------------------------- the matrix

/**
 * The checks: every function a family file of suites/checks exports (suites/checks/index.ts,
 * CHECKS_BY_FAMILY), suite-applied ones included. What builds or runs checks lives in kit.ts and
 * preconditions.ts, which no family lists: nothing here names what is not a check.
 */
export const exportedChecks = Object.values(CHECKS_BY_FAMILY)
  .flatMap((family) => Object.entries(family))
  .filter(([, value]) => typeof value === 'function')
  .map(([name]) => name);

/** A reported check name belongs to an export by name, or as a factory's `name(args)`. */
export const exportOf = (checkName: string) => exportedChecks.find((name) => checkName === name || checkName.startsWith(`${name}(`));

export const killedChecks = new Set(Object.values(expected.mutants).flatMap((entry) => [...entry.checks, ...(entry.sometimes ?? [])]));

export function referenceTest(runOf: () => Promise<SuiteRun>): void {
  test('the unmodified reference server fails no requirement, and every check it applies is the failing check of some mutant', async () => {
    const startedAt = Date.now();
    const run = await runOf();
    record('(reference)', run);
    noteRun('(reference)', run, startedAt);
    expectComplete(run);
    const failures = run.tests.filter((t) => t.status === 'failed').map((t) => `${t.requirement}: ${t.error}`);
    expect(failures, 'requirements failed by the unmodified reference server').toEqual([]);
    expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('conformant');
    // Factories are instantiated by the suites (errorWith(401, TokenAuthError), validates(…)): each instance needs its own kill.
    const applied = sorted(run.tests.flatMap((t) => t.appliedChecks).filter((name) => exportOf(name) !== undefined));
    expect(
      applied.filter((name) => !killedChecks.has(name) && !(name in expected.unreachableChecks)),
      'checks the suites apply that no mutant makes fail',
    ).toEqual([]);
  });
}

/** The run, once its conformance.json names the profile its batch stated. */
export function ranWith(profileName: string, run: SuiteRun): SuiteRun {
  expect(run.profileName, 'the profile the batch ran with').toBe(profileName);
  return run;
}

export function mutantTest(
  mutant: (typeof MUTANTS)[number],
  runOf: () => Promise<SuiteRun>,
  under?: string,
  /** The verdict where no MUST fails: conformant, or incomplete where the profile leaves a MUST not assessable. */
  verdictWithoutMust: 'conformant' | 'incomplete' = 'conformant',
): void {
  test(`mutant ${mutant.name} (breaks ${mutant.breaks})${under ? ` ${under}` : ''} fails exactly its expected requirements`, async () => {
    const startedAt = Date.now();
    const run = await runOf();
    record(mutant.name, run);
    // The matrix's wall time counts the matrix alone.
    if (!under) noteRun(mutant.name, run, startedAt);
    expectComplete(run);
    const want = expected.mutants[mutant.name];
    expect(
      want,
      `mutant ${mutant.name} has no entry in reference/mutants.expected.yaml; it fails [${run.fails.join(', ')}] with checks [${run.checks.join(', ')}]`,
    ).toBeDefined();
    const unexpected = run.fails.filter((id) => !want.fails.includes(id));
    const survived = want.fails.filter((id) => !run.fails.includes(id));
    const why = run.tests
      .filter((t) => t.status === 'failed' && unexpected.includes(t.requirement ?? ''))
      .map((t) => `\n  ${t.requirement}: ${t.error}`)
      .join('');
    expect(
      { unexpectedlyFailed: unexpected, notKilled: survived },
      `mutant ${mutant.name}: unexpectedly failed [${unexpected.join(', ')}], not killed [${survived.join(', ')}]${why}`,
    ).toEqual({ unexpectedlyFailed: [], notKilled: [] });
    // The verdict follows: a failed MUST makes the run non-conformant; a failed SHOULD or MAY alone leaves it conformant, with a warning.
    const mustFails = want.fails.some((id) => catalogue.requirements.find((r) => r.id === id)?.level === 'MUST');
    expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe(mustFails ? 'non-conformant' : verdictWithoutMust);
    const extraChecks = run.checks.filter((c) => !want.checks.includes(c) && !want.sometimes?.includes(c));
    // Under a one-Id filter some of those checks have nothing to see (one Id asked, none can be counted beyond it):
    // the failing checks are some of the expected ones, never others.
    const missingChecks = want.checks.filter((c) => !run.checks.includes(c) && (!under || run.checks.length === 0));
    expect(
      { unexpectedFailingChecks: extraChecks, expectedButNotFailing: missingChecks },
      `mutant ${mutant.name}: failing checks differ: unexpected [${extraChecks.join(', ')}], expected but not seen [${missingChecks.join(', ')}]`,
    ).toEqual({ unexpectedFailingChecks: [], expectedButNotFailing: [] });
  });
}
