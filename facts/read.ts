/**
 * The run-facts protocol, reading side: what a conformance test recorded (facts/record.ts), read
 * back as one typed `RecordedTest`. Reporters read tests only through `readTest`; the kit's own
 * tests read Playwright's JSON report through `readRecord` (tests/helpers/harness.ts), so both sides share
 * the names, the payload types and the rules of reading them.
 *
 * Everything read here is the target's text at one remove, and is made safe once, here: terminal
 * escapes stripped, nesting bounded, error texts cut, a run error on one line. No output has to
 * remember to.
 */
import path from 'node:path';
import type { TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { EVIDENCE_DEPTH, evidenceBytes } from '../client/evidence';
import type { RequestStats } from '../client/request-stats';
import type { RetryCounts } from '../client/retry';
import { oneLine } from '../client/safe-text';
import type { Failure } from './judgement';
import { ANNOTATION, ATTACHMENT, type CounterexampleFact, type LagsFact, type RunFact, type TargetIdentityFact } from './record';
import { isObject as isJsonObject, parseJson } from '../schemas/spec';

/** A failure as a report keeps it: the check's own lines, and the exchange it judged (bounded, redacted when recorded). */
export interface RecordedFailure extends Failure {
  exchange?: unknown;
}

/** Another requirement's failure, noticed by this test. */
export interface RecordedFinding {
  requirement: string;
  failure: RecordedFailure;
}

/** One finished test, as the kit's reports read it. */
export interface RecordedTest {
  /** The requirement the test judges (its `requirement` annotation); null for a test that cites none. */
  requirement: string | null;
  title: string;
  /** Playwright's own `test.location`, the file relative to the kit's root (the folder of the Playwright config). */
  location: { file: string; line: number; column: number };
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  /** Checks the test applied as its own judgement. */
  checks: string[];
  /** Playwright's skip reason, when the test was skipped. */
  skipReason?: string;
  /** Requirements whose failure kept the test from being judged, as recorded. */
  blockedBy: string[];
  /** The profile setting the target's answers point to, as recorded. */
  profileMismatch?: string;
  /** Lines about how the test ran: what was sent back, what was left out here and why. */
  notes: { kind: 'note' | 'notAssessedHere'; text: string }[];
  /** The property's seed and runs ("seed 7, 10 runs"), for a property-based test. */
  property?: string;
  /** The test's errors, one text, escapes stripped and cut to AG_EVIDENCE_BYTES. */
  error?: string;
  /** Failures of the test's own checks. */
  evidence: RecordedFailure[];
  findings: RecordedFinding[];
  counterexample?: CounterexampleFact;
  run?: RunFact;
  targetIdentity?: TargetIdentityFact;
  lags?: LagsFact;
  retries?: RetryCounts;
  requests?: RequestStats;
}

/**
 * What a reader needs of one finished test, whichever way Playwright hands it over: a reporter's
 * TestCase and TestResult (`fromReporter`), or a test of its JSON report (tests/helpers/harness.ts).
 */
export interface TestRecord {
  title: string;
  location: { file: string; line: number; column: number };
  /** The test's and its result's annotations; runtime ones appear on both, and are read once. */
  annotations: readonly { type: string; description?: string }[];
  /** Playwright's result status: passed, failed, timedOut, skipped, interrupted. */
  status: string;
  durationMs: number;
  errors: readonly string[];
  attachments: readonly { name: string; body?: Buffer }[];
}

export interface ReadOptions {
  /** The folder test files are named relative to; absolute paths otherwise. */
  root?: string;
  /** The run's bound on the target's text in one report; unbounded without. */
  budget?: TargetTextBudget;
  /** Characters of an error text kept (AG_EVIDENCE_BYTES). */
  evidenceBytes?: number;
}

/** A reporter's view of a test, as a record. */
export function fromReporter(test: TestCase, result: TestResult): TestRecord {
  return {
    title: test.title,
    location: test.location,
    annotations: [...test.annotations, ...result.annotations],
    status: result.status,
    durationMs: result.duration,
    errors: result.errors.map((e) => e.message ?? e.value ?? ''),
    attachments: result.attachments,
  };
}

/** One finished test, read through the protocol. */
export function readTest(test: TestCase, result: TestResult, options: ReadOptions = {}): RecordedTest {
  return readRecord(fromReporter(test, result), options);
}

export function readRecord(record: TestRecord, options: ReadOptions = {}): RecordedTest {
  const annotations = uniqueAnnotations(record.annotations);
  const all = (type: string) => annotations.filter((a) => a.type === type).map((a) => a.description ?? '');
  const first = (type: string) => annotations.find((a) => a.type === type)?.description;
  const recorded: RecordedTest = {
    requirement: first(ANNOTATION.requirement) ?? null,
    title: stripAnsi(record.title),
    location: { ...record.location, file: options.root ? path.relative(options.root, record.location.file) : record.location.file },
    status: record.status === 'passed' ? 'passed' : record.status === 'skipped' ? 'skipped' : 'failed',
    durationMs: record.durationMs,
    checks: all(ANNOTATION.check),
    skipReason: first('skip'),
    blockedBy: annotations.filter((a) => a.type === ANNOTATION.blocked && a.description).map((a) => a.description!),
    profileMismatch: first(ANNOTATION.profileMismatch),
    notes: annotations.flatMap((a) =>
      a.type === ANNOTATION.note || a.type === ANNOTATION.notAssessedHere
        ? [{ kind: a.type === ANNOTATION.note ? ('note' as const) : ('notAssessedHere' as const), text: a.description ?? '' }]
        : [],
    ),
    property: first(ANNOTATION.property),
    error: cutError(stripAnsi(record.errors.join('\n')), options.evidenceBytes ?? evidenceBytes()) || undefined,
    evidence: [],
    findings: [],
  };
  const keep = (failure: RecordedFailure) => options.budget?.keep(failure) ?? failure;
  for (const attachment of record.attachments) {
    if (!attachment.body) continue;
    const body = cleanDeep(parseJson(attachment.body.toString('utf8')));
    if (!isObject(body)) continue;
    switch (attachment.name) {
      case ATTACHMENT.evidence:
        if (isFailure(body.failure)) recorded.evidence.push(keep({ ...body.failure, exchange: body.exchange }));
        break;
      case ATTACHMENT.finding:
        if (isFailure(body.failure) && typeof body.requirement === 'string')
          recorded.findings.push({ requirement: body.requirement, failure: keep({ ...body.failure, exchange: body.exchange }) });
        break;
      case ATTACHMENT.counterexample:
        recorded.counterexample = body as unknown as CounterexampleFact;
        break;
      case ATTACHMENT.run:
        recorded.run ??= body as unknown as RunFact;
        break;
      case ATTACHMENT.targetIdentity:
        recorded.targetIdentity ??= { Service: body.Service, Region: body.Region };
        break;
      case ATTACHMENT.retries:
        recorded.retries = { 429: (recorded.retries?.[429] ?? 0) + (Number(body[429]) || 0), 503: (recorded.retries?.[503] ?? 0) + (Number(body[503]) || 0) };
        break;
      case ATTACHMENT.visibilityLags:
        recorded.lags = {
          ...(body as unknown as LagsFact),
          lags: [...(recorded.lags?.lags ?? []), ...(Array.isArray(body.lags) ? (body.lags as LagsFact['lags']) : [])],
        };
        break;
      case ATTACHMENT.requests:
        recorded.requests = body as unknown as RequestStats;
        break;
    }
  }
  return recorded;
}

/** An error outside any test (the target could not be reached, the setup failed), as one line. */
export function readRunError(error: TestError): string {
  return oneLine(firstLine(error.message ?? error.value ?? 'unknown error'), 4000);
}

/**
 * A report holds at most so many characters of the target's text (AG_REPORT_TARGET_BYTES, 16 MiB by
 * default): past it, a failure keeps its check and its lines but its exchange is dropped, with a note.
 */
export class TargetTextBudget {
  private used = 0;

  constructor(private readonly limit: number) {}

  keep(failure: RecordedFailure): RecordedFailure {
    if (!failure.exchange) return failure;
    let size = 0;
    try {
      size = JSON.stringify(failure.exchange).length;
    } catch {
      size = Infinity;
    }
    if (this.used + size > this.limit)
      return {
        ...failure,
        exchange: {
          dropped: `evidence dropped: the report already holds ${this.used} characters of the target's text (limit ${this.limit}, AG_REPORT_TARGET_BYTES)`,
        },
      };
    this.used += size;
    return failure;
  }
}

/** Playwright lists runtime annotations on both the test and its result: each is kept once, its escapes stripped. */
function uniqueAnnotations(annotations: readonly { type: string; description?: string }[]): { type: string; description?: string }[] {
  const unique = new Map<string, { type: string; description?: string }>();
  for (const a of annotations) {
    const description = a.description === undefined ? undefined : stripAnsi(a.description);
    unique.set(`${a.type}\u0000${description}`, { type: a.type, description });
  }
  return [...unique.values()];
}

const cutError = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}… (cut)` : text);

type JsonObject = { [key: string]: unknown };
const isObject = isJsonObject as (value: unknown) => value is JsonObject;

function isFailure(value: unknown): value is Failure {
  return isObject(value) && ['check', 'received', 'documented', 'fix'].every((key) => typeof value[key] === 'string');
}

/**
 * Terminal escape sequences (Playwright colours the messages of a plain `expect`) are taken out of
 * every text the reports take in, once, here.
 */
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** A copy with the escapes stripped from every string; without recursion, and cut below EVIDENCE_DEPTH levels. */
function cleanDeep(value: unknown): unknown {
  if (typeof value === 'string') return stripAnsi(value);
  if (!value || typeof value !== 'object') return value;
  const root: JsonObject | unknown[] = Array.isArray(value) ? [] : {};
  const stack: [object, JsonObject, number][] = [[value, root as JsonObject, 1]];
  while (stack.length) {
    const [src, dst, level] = stack.pop()!;
    for (const [k, v] of Object.entries(src)) {
      if (typeof v === 'string') dst[k] = stripAnsi(v);
      else if (v && typeof v === 'object') {
        if (level >= EVIDENCE_DEPTH) {
          dst[k] = `[nested deeper than ${EVIDENCE_DEPTH} levels: cut]`;
          continue;
        }
        const child: JsonObject | unknown[] = Array.isArray(v) ? [] : {};
        dst[k] = child;
        stack.push([v, child as JsonObject, level + 1]);
      } else dst[k] = v;
    }
  }
  return root;
}

function firstLine(text: string): string {
  const clean = stripAnsi(text);
  const line =
    clean
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? clean;
  return line.replace(/^Error: /, '');
}
