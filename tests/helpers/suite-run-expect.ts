/** What the matrices assert of a conformance run (tests/helpers/suite-run.ts): complete, legitimate, or failing exactly what a deviation fails. */
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../schemas/requirements';
import type { SuiteRun } from './suite-run-read';

const catalogue = loadCatalogue();
const levelOf = new Map(catalogue.requirements.map((r) => [r.id, r.level]));

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
    failed: run.tests.filter((t) => t.status === 'failed' && isMust(t.requirement)).map((t) => `${t.requirement}: ${t.error}`),
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
  const warnings = run.tests.filter((t) => t.status === 'failed' && !isMust(t.requirement)).map((t) => t.requirement);
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
    .filter((t) => t.status === 'failed')
    .map((t) => `${t.requirement}: ${t.error}`)
    .join('\n');
  expect(run.fails, why).toEqual(ids);
}
