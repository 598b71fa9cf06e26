/**
 * What one conformance run of tests/helpers/suite-run.ts did, read from the child's reports: each test's
 * outcome from Playwright's JSON report (as the kit's reporters read a test), the verdict from the
 * run's conformance.json, and the groups the server was left holding.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalogue } from '../../schemas/requirements';
import { recordedOf, testsOfReport, type JsonReport, type ReportedTest } from './harness';

const levelOf = new Map(loadCatalogue().requirements.map((r) => [r.id, r.level]));

export interface TestOutcome {
  title: string;
  requirement: string | undefined;
  /**
   * How the test ended, as the kit's reporters read it (its result): a timeout is a failure. Not Playwright's
   * expectation, which the matrix sets on a failed test to keep its worker (suites/fixtures.ts, keepWorker).
   */
  status: 'failed' | 'passed' | 'skipped';
  /** Playwright's own outcome (expected, unexpected, flaky, skipped): in a run of the kit, unexpected for every failed test. */
  outcome: string;
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
  /** Why a skipped test was not judged, as its skip annotation says. */
  skipReason: string | undefined;
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
  /** The name of the profile the kit ran with, as conformance.json states it. */
  profileName: string | undefined;
  errors: string[];
  exitCode: number | null;
  /** The run's console (the kit's, or Playwright's list: RunOptions.console); empty for a batch, which has none. */
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Worker processes this server's tests ran in (Playwright's workerIndex): one more for each restart after a failed test. */
  workerIndexes: number[];
  /**
   * Groups the run left on the server carrying its prefix nowhere: in the Name, or where the Name is what
   * a request tested (left out, empty, of another type), in the Title. A lenient server creates what a bad request held.
   */
  unprefixedGroups: string[];
}

export const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

function outcomes(tests: ReportedTest[]): TestOutcome[] {
  return tests.map((t) => {
    const recorded = recordedOf(t);
    return {
      title: t.title,
      requirement: recorded.requirement ?? undefined,
      status: t.result?.status === 'passed' ? 'passed' : !t.result || t.result.status === 'skipped' ? 'skipped' : 'failed',
      outcome: t.status,
      failingChecks: recorded.evidence.map((e) => e.check),
      appliedChecks: recorded.checks,
      blockedBy: recorded.blockedBy,
      findings: recorded.findings.map((f) => ({ requirement: f.requirement, check: f.failure.check })),
      profileMismatch: recorded.profileMismatch,
      skipReason: t.annotations.findLast((a) => a.type === 'skip')?.description,
      error: (t.result?.error?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0],
    };
  });
}

/** The child's Playwright JSON report; none is the child's crash, said with the end of its stderr. */
export function readReport(work: string, code: number | null, stderr: string): JsonReport {
  const reportFile = path.join(work, 'report.json');
  if (!existsSync(reportFile)) throw new Error(`the suites wrote no JSON report (exit ${code}):\n${stderr.slice(-2000)}`);
  return JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport;
}

/** One server's run, from its tests of the JSON report and the conformance.json of its report folder. */
export function readRun(
  report: JsonReport,
  reportDir: string,
  target: { groups(): { Name: string; Title: string }[] },
  runId: string,
  child: { exitCode: number | null; stdout?: string; stderr: string; started: number; target?: string },
): SuiteRun {
  const reported = testsOfReport(report).filter((t) => child.target === undefined || t.describes[0] === child.target);
  const tests = outcomes(reported);
  const failed = tests.filter((t) => t.status === 'failed');
  const findings = tests.flatMap((t) => t.findings);
  const conformance = path.join(reportDir, 'conformance.json');
  const summary = existsSync(conformance)
    ? (JSON.parse(readFileSync(conformance, 'utf8')) as { verdict?: string; firstReason?: string | null; profile?: { name?: string } })
    : undefined;
  return {
    verdict: summary?.verdict,
    firstReason: summary?.firstReason,
    profileName: summary?.profile?.name,
    tests,
    fails: sorted([...failed.map((t) => t.requirement ?? `(no requirement: ${t.title})`), ...findings.map((f) => f.requirement)]),
    checks: sorted([...failed.flatMap((t) => t.failingChecks), ...findings.map((f) => f.check)]),
    mustNotJudged: sorted(
      tests.filter((t) => (t.blockedBy.length || t.profileMismatch) && levelOf.get(t.requirement ?? '') === 'MUST').map((t) => t.requirement!),
    ),
    errors: (report.errors ?? []).map((e) => e.message ?? String(e)),
    exitCode: child.exitCode,
    stdout: child.stdout ?? '',
    stderr: child.stderr,
    durationMs: performance.now() - child.started,
    workerIndexes: [...new Set(reported.flatMap((t) => (t.result ? [t.result.workerIndex] : [])))].sort((a, b) => a - b),
    unprefixedGroups: target
      .groups()
      .filter((g) => !g.Name.startsWith(`agc-${runId}-`) && !g.Title.startsWith(`agc-${runId}-`))
      .map((g) => JSON.stringify(g)),
  };
}
