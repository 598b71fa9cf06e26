import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalogue, familyOf, type Level, type Requirement } from '../schemas/requirements';
import { applyWaivers, type Waiver } from './waivers';
import { compareWithBaseline, type Baseline } from './baseline';
import type { RecordedTest } from '../facts/read';

// The shapes live in verdict-types.ts; every reporter takes them from here, beside the function that fills them.
export * from './verdict-types';
import { FLAKY_TREATMENT, PROFILE_HINT, STATUSES } from './verdict-types';
import type { ConformanceSummary, Outcome, RequirementResult, RequirementStatus, RunFacts, Verdict } from './verdict-types';

/**
 * The one place the verdict is computed: the report (conformance.ts) calls `summarize` once, and every
 * output only displays what it returns, so the JSON, the HTML page, JUnit and the exit status cannot
 * disagree.
 */

const ROOT = path.resolve(__dirname, '..');

function kitIdentity() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const files: Record<string, string> = {};
  const all = createHash('sha256');
  for (const file of ['spec/openapi.yaml', 'spec/requirements.yaml']) {
    const text = readFileSync(path.join(ROOT, file));
    files[file] = createHash('sha256').update(text).digest('hex');
    all.update(text);
  }
  return { name: pkg.name, version: pkg.version, specHash: all.digest('hex'), files };
}

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * One test as the verdict weighs it. Only a skipped test is blocked or not assessable: the runner's
 * own status has the last word over what the test recorded before it ended.
 */
export function outcomeOf(test: RecordedTest): Outcome {
  const skipped = test.status === 'skipped';
  return {
    requirement: test.requirement,
    title: test.title,
    file: test.location.file,
    status: test.status,
    durationMs: test.durationMs,
    checks: test.checks,
    skipReason: test.skipReason,
    ...(skipped && test.blockedBy.length ? { blockedBy: test.blockedBy } : {}),
    ...(skipped && test.profileMismatch ? { profileMismatch: test.profileMismatch } : {}),
    error: test.error,
    failures: test.evidence,
    counterexample: test.counterexample,
  };
}

/**
 * A failure another requirement's test noticed counts as that requirement's failure (the test that
 * noticed it is blocked by it), with where it was noticed.
 */
export function findingOutcomes(test: RecordedTest): Outcome[] {
  return test.findings.map((finding) => ({
    requirement: finding.requirement,
    title: test.title,
    file: test.location.file,
    status: 'failed',
    durationMs: 0,
    checks: [finding.failure.check],
    failures: [finding.failure],
    noticedIn: finding.failure.place ?? test.title,
  }));
}

/**
 * The same finding noticed by several tests (the run-wide oracle judges every answer, suites/oracle.ts) is one finding:
 * the first test's, with the answers of all counted.
 */
export function oneFindingPerCheck(tests: Outcome[]): Outcome[] {
  const first = new Map<string, Outcome>();
  const kept: Outcome[] = [];
  for (const test of tests) {
    const failure = test.noticedIn ? test.failures[0] : undefined;
    const known = failure && first.get(failure.check);
    if (!failure) kept.push(test);
    else if (!known) {
      const merged = { ...test, failures: [{ ...failure, answers: failure.answers ?? 1 }] };
      first.set(failure.check, merged);
      kept.push(merged);
    } else {
      known.failures[0].answers! += failure.answers ?? 1;
      // Other answers that showed it, to another test or otherwise, stay as evidence too: a few of them.
      const told = test.noticedIn !== known.noticedIn || !known.failures.some((f) => f.received === failure.received);
      if (known.failures.length < MERGED_EVIDENCE && told) known.failures.push(failure);
    }
  }
  return kept;
}

/** How many of a finding's differing answers its outcome keeps as evidence. */
const MERGED_EVIDENCE = 3;

function requirementResult(entry: Requirement, tests: Outcome[]): RequirementResult {
  // Where the runner placed the tests (Playwright's test.location); a requirement none of whose tests ended here has none.
  const testFiles = [...new Set(tests.map((t) => t.file))].sort();
  const base = {
    id: entry.id,
    family: familyOf(entry.id),
    level: entry.level,
    basis: entry.basis ?? null,
    title: entry.title,
    spec: entry.spec,
    sends: entry.sends ?? null,
    expects: entry.expects ?? null,
    testFiles,
    tests,
    checks: [...new Set(tests.flatMap((t) => t.checks))],
  };
  if (entry.level === 'NOT-ASSESSED') return { ...base, status: 'not-assessed', reason: entry.reason ?? null };
  const blockedBy = [...new Set(tests.flatMap((t) => t.blockedBy ?? []))];
  const blocked = blockedBy.length ? { blockedBy } : {};
  // Priority when several tests cite one requirement: failed > blocked > skipped > passed.
  const failed = tests.find((t) => t.status === 'failed');
  if (failed) {
    const reason = (failed.failures[0] ? `${failed.failures[0].check}: ${failed.failures[0].received}` : failed.error?.split('\n')[0]) ?? 'failed';
    const again = failed.failures[0]?.flaky ? ` (flaky: ${failed.failures[0].flaky})` : '';
    const flaky = tests.some((t) => t.status === 'failed' && t.failures.some((f) => f.flaky)) ? { flaky: true } : {};
    return { ...base, ...blocked, ...flaky, status: 'failed', reason: reason + again };
  }
  if (tests.length === 0) return { ...base, status: 'skipped', reason: 'no test of this requirement ran (filtered out, or in another shard)' };
  const blockedTest = tests.find((t) => t.blockedBy?.length);
  if (blockedTest) {
    // The suites' own skip reason may already read "blocked by VIS-01: …"; say it once.
    const why = blockedTest.skipReason ?? 'a prerequisite failed';
    return { ...base, blockedBy, status: 'blocked', reason: /^blocked by /.test(why) ? why : `blocked by ${blockedBy.join(', ')}: ${why}` };
  }
  const mismatch = tests.find((t) => t.status === 'skipped' && t.profileMismatch);
  if (mismatch)
    return { ...base, status: 'skipped', profileMismatch: mismatch.profileMismatch, reason: `not assessable: profile mismatch: ${mismatch.profileMismatch}` };
  const skipped = tests.find((t) => t.status === 'skipped');
  if (skipped) return { ...base, status: 'skipped', reason: skipped.skipReason ?? 'skipped' };
  return { ...base, status: 'passed', reason: null };
}

/**
 * Where a blocked requirement's chain of blockers ends, when a blocker was itself blocked: without it, a reader of
 * "blocked by CREATE-01" looks CREATE-01 up only to find it blocked by ENV-06 (a create answered with its Id outside
 * Result blocks CREATE-01, and CREATE-01 some thirty others). Said once, after the reason; empty when every blocker was judged.
 */
function rootCauseNote(r: RequirementResult, byId: Map<string, RequirementResult>): string {
  const roots = new Set<string>();
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const blocker = byId.get(id);
    if (blocker?.status === 'blocked' && blocker.blockedBy?.length) blocker.blockedBy.forEach(walk);
    else roots.add(id);
  };
  const via = (r.blockedBy ?? []).filter((id) => byId.get(id)?.status === 'blocked');
  if (!via.length) return '';
  r.blockedBy!.forEach(walk);
  const causes = [...roots].filter((id) => !r.blockedBy!.includes(id)).map((id) => `${id} (${byId.get(id)?.status ?? 'unknown'})`);
  return causes.length ? ` (${via.join(', ')} ${via.length > 1 ? 'were' : 'was'} blocked in turn: the root cause is ${causes.join(', ')})` : '';
}

export function summarize(
  outcomes: Outcome[],
  facts: RunFacts,
  waivers: Waiver[] = [],
  now = new Date(),
  baseline?: Baseline,
  strictWaivers = false,
): ConformanceSummary {
  const catalogue = loadCatalogue();
  const profile = facts.profile ?? { name: 'reference', path: null };
  const requirements = catalogue.requirements.map((entry) => requirementResult(entry, oneFindingPerCheck(outcomes.filter((o) => o.requirement === entry.id))));
  for (const r of requirements) {
    if (r.status === 'failed' && r.basis === 'profile')
      r.profileDifference = `differs from the profile "${profile.name}", not from the spec (the spec leaves this point open); if the target follows another profile, ${PROFILE_HINT}`;
  }
  const waiverResult = applyWaivers(requirements, waivers, now, strictWaivers);
  const byId = new Map(requirements.map((r) => [r.id, r]));
  for (const r of requirements) if (r.status === 'blocked') r.reason = `${r.reason ?? ''}${rootCauseNote(r, byId)}`;
  const counts = {} as ConformanceSummary['counts'];
  for (const level of ['MUST', 'SHOULD', 'MAY', 'NOT-ASSESSED'] as Level[]) {
    counts[level] = Object.fromEntries(STATUSES.map((st) => [st, 0])) as Record<RequirementStatus, number>;
    for (const r of requirements.filter((req) => req.level === level)) counts[level][r.status]++;
  }
  const musts = requirements.filter((r) => r.level === 'MUST');
  const failedMusts = musts.filter((r) => r.status === 'failed');
  // The root cause decides: a failed MUST that was itself judged, not one whose prerequisite failed too.
  const mustFailed = failedMusts.find((r) => !r.blockedBy?.length) ?? failedMusts[0];
  const mismatch = requirements.find((r) => r.profileMismatch);
  const blockedMusts = musts.filter((r) => r.status === 'blocked');
  const blockedByFailure = blockedMusts.find((r) => r.blockedBy!.some((id) => byId.get(id)?.status === 'failed'));
  const mustSkipped = musts.find((r) => r.status === 'skipped');
  const mustBlocked = blockedByFailure ?? (mustSkipped ? undefined : blockedMusts[0]);
  // A MUST that failed decides; otherwise a run that could not assess everything is incomplete.
  let verdict: Verdict = 'conformant';
  let firstReason: string | null = null;
  if (mustFailed) {
    verdict = 'non-conformant';
    firstReason = facts.runErrors[0] ?? `${mustFailed.id} ${mustFailed.title}: ${mustFailed.reason}`;
  } else if (facts.runErrors.length) {
    verdict = 'incomplete';
    firstReason = facts.runErrors[0];
  } else if (mismatch) {
    verdict = 'incomplete';
    firstReason = `the target seems to follow another profile than "${profile.name}" (${mismatch.id}: ${mismatch.profileMismatch}); ${PROFILE_HINT}`;
  } else if (mustBlocked) {
    verdict = 'incomplete';
    const blockers = mustBlocked.blockedBy!.map(
      (id) => `${id} (${byId.get(id)?.status ?? 'unknown'}${byId.get(id)?.reason ? `: ${byId.get(id)!.reason}` : ''})`,
    );
    firstReason = `${mustBlocked.id} could not be judged because a prerequisite did not pass: ${blockers.join('; ')}`;
  } else if (mustSkipped) {
    verdict = 'incomplete';
    firstReason = `${mustSkipped.id} could not be assessed: ${mustSkipped.reason}`;
  }
  const kit = kitIdentity();
  const sorted = [...facts.lagsMs].sort((a, b) => a - b);
  return {
    verdict,
    firstReason,
    kit,
    target: { baseURL: facts.baseURL ?? null, embedded: facts.embedded ?? false, service: facts.service ?? null, region: facts.region ?? null },
    profile,
    seed: facts.seed ?? null,
    runId: facts.runId ?? null,
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    counts,
    warnings: requirements.filter((r) => r.level === 'SHOULD' && r.status === 'failed').map((r) => r.id),
    requirements,
    visibility: {
      timeoutMs: facts.visibilityTimeoutMs ?? null,
      samples: sorted.length,
      neverVisible: facts.neverVisible,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.length ? sorted[sorted.length - 1] : null,
      lagsMs: sorted,
    },
    retries: facts.retries,
    runErrors: facts.runErrors,
    waivers: waiverResult,
    baseline: baseline
      ? compareWithBaseline(baseline, { verdict, specHash: kit.specHash, profile, statuses: Object.fromEntries(requirements.map((r) => [r.id, r.status])) })
      : null,
    flaky: { requirements: requirements.filter((r) => r.flaky).map((r) => r.id), treatment: FLAKY_TREATMENT },
  };
}
