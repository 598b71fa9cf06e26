import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalogue, familyOf, type Level, type Requirement } from '../schemas/requirements';
import { isExpired, type Waiver } from './waivers';

/**
 * The one place the verdict is computed. Every reporter calls `summarize` on the same outcomes
 * and only displays what it returns, so the JSON, the HTML page, JUnit and the exit status
 * cannot disagree.
 */

export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not-assessed' | 'waived';
export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';

export interface FailureEvidence {
  check: string;
  received: string;
  documented: string;
  fix: string;
  exchange?: unknown;
}

/** One test as the reporters saw it; several tests may cite one requirement. */
export interface Outcome {
  requirement: string | null;
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  checks: string[];
  skipReason?: string;
  error?: string;
  failures: FailureEvidence[];
  counterexample?: { seed: number; path: string | null; counterexample: string | null; replay: string };
}

export interface RunFacts {
  baseURL?: string;
  embedded?: boolean;
  profile?: { name: string; path: string | null };
  seed?: number;
  numRuns?: number;
  runId?: string;
  visibilityTimeoutMs?: number;
  service?: string;
  region?: string;
  lagsMs: number[];
  neverVisible: number;
  retries: { 429: number; 503: number };
  startedAt: string;
  finishedAt: string;
  /** Errors outside any test: the target could not be reached, the setup failed, … */
  runErrors: string[];
}

export interface RequirementResult {
  id: string;
  family: string;
  level: Level;
  basis: string | null;
  title: string;
  status: RequirementStatus;
  checks: string[];
  reason: string | null;
  waiver?: Waiver;
  tests: Outcome[];
}

export interface ConformanceSummary {
  verdict: Verdict;
  firstReason: string | null;
  kit: { name: string; version: string; specHash: string; files: Record<string, string> };
  target: { baseURL: string | null; embedded: boolean; service: string | null; region: string | null };
  profile: { name: string; path: string | null };
  seed: number | null;
  runId: string | null;
  startedAt: string;
  finishedAt: string;
  counts: Record<Level, Record<RequirementStatus, number>>;
  warnings: string[];
  requirements: RequirementResult[];
  visibility: { timeoutMs: number | null; samples: number; neverVisible: number; p50: number | null; p95: number | null; max: number | null; lagsMs: number[] };
  retries: { 429: number; 503: number };
  runErrors: string[];
  /** Waivers that turned a failure into "waived", that have expired, or that nothing needed. */
  waivers: { applied: Waiver[]; expired: Waiver[]; unused: Waiver[] };
}

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

function requirementResult(entry: Requirement, tests: Outcome[]): RequirementResult {
  const base = { id: entry.id, family: familyOf(entry.id), level: entry.level, basis: entry.basis ?? null, title: entry.title, tests, checks: [...new Set(tests.flatMap((t) => t.checks))] };
  if (entry.level === 'NOT-ASSESSED') return { ...base, status: 'not-assessed', reason: entry.reason ?? null };
  const failed = tests.find((t) => t.status === 'failed');
  if (failed) return { ...base, status: 'failed', reason: (failed.failures[0] ? `${failed.failures[0].check}: ${failed.failures[0].received}` : failed.error?.split('\n')[0]) ?? 'failed' };
  if (tests.length === 0) return { ...base, status: 'skipped', reason: 'no test of this requirement ran (filtered out, or in another shard)' };
  const skipped = tests.find((t) => t.status === 'skipped');
  if (skipped) return { ...base, status: 'skipped', reason: skipped.skipReason ?? 'skipped' };
  return { ...base, status: 'passed', reason: null };
}

/** A failure with a current waiver becomes "waived"; an expired waiver changes nothing but is reported. */
function applyWaivers(requirements: RequirementResult[], waivers: Waiver[], now: Date): ConformanceSummary['waivers'] {
  const result: ConformanceSummary['waivers'] = { applied: [], expired: [], unused: [] };
  for (const waiver of waivers) {
    const target = requirements.find((r) => r.id === waiver.id);
    if (isExpired(waiver, now)) result.expired.push(waiver);
    else if (target?.status === 'failed') {
      target.status = 'waived';
      target.reason = `waived: ${waiver.reason} (${waiver.link}); the failure was: ${target.reason}`;
      target.waiver = waiver;
      result.applied.push(waiver);
    } else result.unused.push(waiver);
  }
  return result;
}

export function summarize(outcomes: Outcome[], facts: RunFacts, waivers: Waiver[] = [], now = new Date()): ConformanceSummary {
  const catalogue = loadCatalogue();
  const requirements = catalogue.requirements.map((entry) => requirementResult(entry, outcomes.filter((o) => o.requirement === entry.id)));
  const waiverResult = applyWaivers(requirements, waivers, now);
  const counts = {} as ConformanceSummary['counts'];
  for (const level of ['MUST', 'SHOULD', 'MAY', 'NOT-ASSESSED'] as Level[]) {
    counts[level] = { passed: 0, failed: 0, skipped: 0, 'not-assessed': 0, waived: 0 };
    for (const r of requirements.filter((req) => req.level === level)) counts[level][r.status]++;
  }
  const mustFailed = requirements.find((r) => r.level === 'MUST' && r.status === 'failed');
  const mustSkipped = requirements.find((r) => r.level === 'MUST' && r.status === 'skipped');
  // A MUST that failed decides; otherwise a run that could not assess everything is incomplete.
  let verdict: Verdict = 'conformant';
  let firstReason: string | null = null;
  if (mustFailed) {
    verdict = 'non-conformant';
    firstReason = facts.runErrors[0] ?? `${mustFailed.id} ${mustFailed.title}: ${mustFailed.reason}`;
  } else if (facts.runErrors.length) {
    verdict = 'incomplete';
    firstReason = facts.runErrors[0];
  } else if (mustSkipped) {
    verdict = 'incomplete';
    firstReason = `${mustSkipped.id} could not be assessed: ${mustSkipped.reason}`;
  }
  const sorted = [...facts.lagsMs].sort((a, b) => a - b);
  return {
    verdict,
    firstReason,
    kit: kitIdentity(),
    target: { baseURL: facts.baseURL ?? null, embedded: facts.embedded ?? false, service: facts.service ?? null, region: facts.region ?? null },
    profile: facts.profile ?? { name: 'reference', path: null },
    seed: facts.seed ?? null,
    runId: facts.runId ?? null,
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    counts,
    warnings: requirements.filter((r) => r.level === 'SHOULD' && r.status === 'failed').map((r) => r.id),
    requirements,
    visibility: { timeoutMs: facts.visibilityTimeoutMs ?? null, samples: sorted.length, neverVisible: facts.neverVisible, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.length ? sorted[sorted.length - 1] : null, lagsMs: sorted },
    retries: facts.retries,
    runErrors: facts.runErrors,
    waivers: waiverResult,
  };
}
