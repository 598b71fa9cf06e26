/**
 * The run-facts protocol, writing side: everything a conformance test records for the reports goes
 * through these functions, and the reporters read it back through facts/read.ts. Nothing else in
 * suites/ names an annotation or an attachment; nothing in reporters/ parses one by hand.
 *
 * Facts travel as Playwright annotations and attachments (so merged shards carry them too); their
 * names and payload types are defined once, here.
 */
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../client/exchange';
import { evidenceJson } from '../client/evidence';
import type { RequestStats } from '../client/request-stats';
import type { RetryCounts } from '../client/retry';
import type { Failure } from './judgement';
import type { RequirementId } from './requirement-ids';

/** Annotation types a test writes. */
export const ANNOTATION = {
  requirement: 'requirement',
  check: 'check',
  blocked: 'blocked',
  profileMismatch: 'profile-mismatch',
  property: 'property',
  note: 'note',
  notAssessedHere: 'not assessed here',
  /** The key of a plan whose requests the test takes from the runner (declared with its test in suites/families/<family>.ts). */
  plan: 'plan',
} as const;

/** Attachment names a test writes, each with one payload type (below). */
export const ATTACHMENT = {
  evidence: 'evidence',
  finding: 'finding',
  run: 'run',
  targetIdentity: 'target-identity',
  retries: 'retries',
  requests: 'requests',
  visibilityLags: 'visibility-lags',
  counterexample: 'counterexample',
} as const;

/** A failed check of the test's own requirement, with what was exchanged. */
export interface EvidenceFact {
  failure: Failure;
  exchange?: Exchange;
  exchanges?: Exchange[];
}

/** A failed precondition: the finding of the requirement that owns it, noticed by this test. */
export interface FindingFact extends EvidenceFact {
  requirement: string;
}

/** What the run was, attached once per worker. */
export interface RunFact {
  baseURL: string;
  embedded: boolean;
  profile: { name: string; path: string | null };
  seed: number;
  numRuns: number;
  runId: string;
  visibilityTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface TargetIdentityFact {
  Service: unknown;
  Region: unknown;
}

export interface LagsFact {
  timeoutMs: number;
  polls: number;
  lags: { key: string; via: string; id: string; visibleAfterMs: number | null }[];
}

export interface CounterexampleFact {
  seed: number;
  path: string | null | undefined;
  counterexample: string | null;
  interrupted: boolean;
  replay: string;
}

/** The test's details that tie it to its requirement; the title starts with the same ID. */
/**
 * A test's details: the requirement it judges, and the plans whose requests it takes from the runner (declared
 * with their tests in suites/families/<family>.ts; the runner sends the selected tests' plans ahead by these keys).
 */
export const requirement = (id: RequirementId, ...plans: { key: string }[]) => ({
  annotation: [{ type: ANNOTATION.requirement, description: id }, ...plans.map((plan) => ({ type: ANNOTATION.plan, description: plan.key }))],
});

/** The requirement a test judges. */
export const ownRequirement = (testInfo: TestInfo): string | undefined => testInfo.annotations.find((a) => a.type === ANNOTATION.requirement)?.description;

/** A check the test applied as its own judgement. */
export function recordCheck(testInfo: TestInfo, name: string): void {
  if (!testInfo.annotations.some((a) => a.type === ANNOTATION.check && a.description === name))
    testInfo.annotations.push({ type: ANNOTATION.check, description: name });
}

/** A failure of the test's own check, bounded and redacted (client/evidence.ts). Synchronous, so it may be recorded just before a throw. */
export function recordEvidence(testInfo: TestInfo, fact: EvidenceFact): void {
  testInfo.attachments.push({ name: ATTACHMENT.evidence, contentType: 'application/json', body: Buffer.from(evidenceJson(fact)) });
}

/** Another requirement's finding, noticed here. */
export function recordFinding(testInfo: TestInfo, fact: FindingFact): void {
  testInfo.attachments.push({ name: ATTACHMENT.finding, contentType: 'application/json', body: Buffer.from(evidenceJson(fact)) });
}

/**
 * Skips the running test as blocked by the requirements whose failure left it nothing to judge.
 * A blocked requirement counts in no failure total; the verdict is decided by the root cause.
 */
export function recordBlocked(testInfo: TestInfo, owners: string[], reason: string): never {
  for (const owner of owners) testInfo.annotations.push({ type: ANNOTATION.blocked, description: owner });
  testInfo.skip(true, `blocked by ${owners.join(', ')}: ${reason}`);
  throw new Error('unreachable');
}

/** Skips the running test as not assessable: the target follows another profile here; `hint` names the setting that fits. */
export function recordProfileMismatch(testInfo: TestInfo, hint: string, evidence?: EvidenceFact): never {
  testInfo.annotations.push({ type: ANNOTATION.profileMismatch, description: hint });
  if (evidence) recordEvidence(testInfo, evidence);
  testInfo.skip(true, `profile mismatch: ${hint}`);
  throw new Error('unreachable');
}

/** Tests judging answers side by side (mismatchesLast): the mismatches they noticed so far. */
const deferredMismatches = new WeakMap<TestInfo, { hint: string; evidence?: EvidenceFact }[]>();

/**
 * Runs `judging` with profile mismatches held back: answers judged side by side (a property's runs, a
 * list of cases) may show both a choice of another profile and a failure no profile allows (a 500),
 * and the first one judged must not hide the other. A failure ends the test as failed; only when
 * there is none is the test skipped as not assessable, naming the first mismatch. For judgements that
 * do not build on one another: in a chain (the model-based runs), what follows a mismatch may fail
 * because of it.
 */
export async function mismatchesLast<T>(testInfo: TestInfo, judging: () => Promise<T>): Promise<T> {
  const held: { hint: string; evidence?: EvidenceFact }[] = [];
  deferredMismatches.set(testInfo, held);
  let result: T;
  try {
    result = await judging();
  } finally {
    deferredMismatches.delete(testInfo);
  }
  if (held.length) recordProfileMismatch(testInfo, held[0].hint, held[0].evidence);
  return result;
}

/** Holds a mismatch back where the running test judges under mismatchesLast; false where it does not. */
export function holdMismatch(testInfo: TestInfo, hint: string, evidence?: EvidenceFact): boolean {
  const held = deferredMismatches.get(testInfo);
  held?.push({ hint, evidence });
  return !!held;
}

/** A line for the report about how the test ran (a property's seed, what was sent back, what was left out and why). */
export function recordNote(testInfo: TestInfo, kind: 'property' | 'note' | 'notAssessedHere', description: string): void {
  testInfo.annotations.push({ type: ANNOTATION[kind], description });
}

/**
 * A fact for the reports, attached as evidence is: pushed onto the result, not through testInfo.attach, whose step
 * (a stack captured, two messages to the runner) cost the mutant matrix's worker about 1 ms per test for nothing a
 * report shows.
 */
function attachFact(testInfo: TestInfo, name: string, fact: unknown): void {
  testInfo.attachments.push({ name, contentType: 'application/json', body: Buffer.from(JSON.stringify(fact, null, 2)) });
}

export const recordRun = (testInfo: TestInfo, fact: RunFact) => attachFact(testInfo, ATTACHMENT.run, fact);
export const recordTargetIdentity = (testInfo: TestInfo, fact: TargetIdentityFact) => attachFact(testInfo, ATTACHMENT.targetIdentity, fact);
export const recordRetries = (testInfo: TestInfo, counts: RetryCounts) => attachFact(testInfo, ATTACHMENT.retries, counts);
export const recordRequests = (testInfo: TestInfo, stats: RequestStats) => attachFact(testInfo, ATTACHMENT.requests, stats);
export const recordLags = (testInfo: TestInfo, fact: LagsFact) => attachFact(testInfo, ATTACHMENT.visibilityLags, fact);
export const recordCounterexample = (testInfo: TestInfo, fact: CounterexampleFact) => attachFact(testInfo, ATTACHMENT.counterexample, fact);
