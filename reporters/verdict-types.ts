/** What the verdict is made of and what it says: the shapes every output renders (the deciding is verdict.ts's). */
import { type Level } from '../schemas/requirements';
import { type Waiver, type WaiverResult } from './waivers';
import { type BaselineComparison } from './baseline';
import type { CounterexampleFact } from '../facts/record';
import type { RecordedFailure } from '../facts/read';

export type RequirementStatus = 'passed' | 'failed' | 'blocked' | 'skipped' | 'not-assessed' | 'waived';
export const STATUSES: readonly RequirementStatus[] = ['passed', 'failed', 'blocked', 'skipped', 'not-assessed', 'waived'];

/** How to tell the kit which profile a target follows; every output that mentions a profile gives it. */
export const PROFILE_HINT = "supply the target's profile with AG_PROFILE=FILE, or draft one with `npx agc profile discover --out FILE`";
export type Verdict = 'conformant' | 'non-conformant' | 'incomplete';

export type FailureEvidence = RecordedFailure;

/** One test as the reporters saw it; several tests may cite one requirement. */
export interface Outcome {
  requirement: string | null;
  title: string;
  file: string;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  checks: string[];
  skipReason?: string;
  /** Requirements whose failure kept this test from being judged (recorded with recordBlocked; only on a skipped test). */
  blockedBy?: string[];
  /** What the target answered that shows it follows another profile, and the setting to try. */
  profileMismatch?: string;
  error?: string;
  failures: FailureEvidence[];
  counterexample?: CounterexampleFact;
  /** Set on a failure found by another requirement's test (a "finding"): the title of that test. */
  noticedIn?: string;
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
  /** The catalogue's own words, so each requirement of conformance.json stands alone. */
  spec: string;
  sends: string | null;
  expects: string | null;
  testFiles: string[];
  status: RequirementStatus;
  checks: string[];
  reason: string | null;
  blockedBy?: string[];
  profileMismatch?: string;
  /** Set when a requirement judged by the profile failed: the target differs from the profile, not from the spec. */
  profileDifference?: string;
  waiver?: Waiver;
  /** A waiver in force whose requirement passed in this run: stale, it can go (reporters/waivers.ts). */
  staleWaiver?: Waiver;
  /** Its failure did not repeat when the request was sent once more: it fails all the same (FLAKY_TREATMENT). */
  flaky?: boolean;
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
  /** Waivers that turned a failure into "waived", that have expired, whose requirement passed (stale), or that nothing judged; and whether they fail the run. */
  waivers: WaiverResult;
  /** What changed since a previous run (AG_BASELINE); null without one. */
  baseline: BaselineComparison | null;
  /** Requirements whose failure did not repeat when sent once more, and how the verdict treats them. */
  flaky: { requirements: string[]; treatment: string };
}

/** How the verdict treats a failure that did not repeat: the deviation happened, so it counts. */
export const FLAKY_TREATMENT =
  'a failure that did not repeat when its request was sent once more fails its requirement all the same: the target answered so once, and a conforming server never does';
