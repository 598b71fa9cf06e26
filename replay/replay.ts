/**
 * `agc replay`: a report's failing exchanges sent again, to the target the report came from or to
 * another (a fixed build), each answer judged by the check that failed. Per finding:
 *
 * - still failing: the check fails on the new answer;
 * - fixed: the check passes, and the answer came from another target than the report's;
 * - not reproducible: the check passes on the report's own target: the failure did not repeat;
 * - no answer: the request got no HTTP answer where the report's exchange had one;
 * - flaky: sent several times (--repeat), it failed at some and passed at others: both are kept;
 * - not re-judgeable: the check cannot be applied from the report alone (replay/checks.ts), or the
 *   request cannot be sent as it was (a cookie the target set, a token variable not set, a body cut).
 */
import { buildUrl, send, type Exchange } from '../client/exchange';
import { authorizationValue, variablesOf, TOKEN_VARIABLE_NAMES } from '../client/curl';
import { redactTokens } from '../client/redact';
import type { CheckContext } from '../suites/checks';
import { checkNamed } from './checks';

export type Outcome = 'still failing' | 'flaky' | 'fixed' | 'not reproducible' | 'no answer' | 'not re-judgeable';
export const OUTCOMES: readonly Outcome[] = ['still failing', 'flaky', 'fixed', 'not reproducible', 'no answer', 'not re-judgeable'];

/** Times one finding may be sent (--repeat): enough to tell a flaky failure, bounded. */
export const MAX_REPEAT = 10;

/** Findings one replay sends again at most: a report of a badly broken target may hold hundreds. */
export const MAX_FINDINGS = 300;

/** The parts of conformance.json replay reads (schemas/conformance-report.schema.json). */
export interface Report {
  target: { baseURL: string | null; embedded: boolean };
  profile: { name: string; path: string | null };
  requirements: {
    id: string;
    level: string;
    status: string;
    tests: { title: string; status: string; failures: { check: string; received: string; exchange?: RecordedExchange }[] }[];
  }[];
}

interface RecordedExchange {
  request?: { method: string; url: string; action: string | null; version: string | null; headers: Record<string, string>; body: string };
  response?: { status: number };
  networkError?: string;
  cut?: string;
  curl?: string;
}

/** One failure of the report, as replay sends it again. */
export interface Finding {
  requirement: string;
  level: string;
  test: string;
  check: string;
  received: string;
  exchange?: RecordedExchange;
}

export interface Replayed {
  requirement: string;
  level: string;
  test: string;
  check: string;
  outcome: Outcome;
  /** Why, for an outcome that is not the check's own answer; the check's received line, for one that still fails. */
  detail: string;
  before: { status: number | null; received: string };
  after?: { method: string; url: string; status: number | null; networkError?: string; durationMs: number };
  curl?: string;
  /** Each sending's outcome and answer, where a finding was sent more than once. */
  attempts?: { outcome: Outcome; status: number | null; detail: string }[];
}

/** The failures of a report's failed tests, those of the requirements asked for (all without). */
export function findingsOf(report: Report, requirements: string[] = []): Finding[] {
  const wanted = new Set(requirements.map((r) => r.trim().toUpperCase()).filter(Boolean));
  return report.requirements
    .filter((r) => !wanted.size || wanted.has(r.id))
    .flatMap((r) =>
      r.tests
        .filter((t) => t.status === 'failed')
        .flatMap((t) =>
          t.failures.map((f) => ({ requirement: r.id, level: r.level, test: t.title, check: f.check, received: f.received, exchange: f.exchange })),
        ),
    );
}

const trimmed = (url: string) => url.replace(/\/+$/, '');

export interface ReplayOptions {
  /** Where the report's requests went. */
  reportBase: string;
  /** Where they go now. */
  targetBase: string;
  context: CheckContext;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Times each finding is sent (1 by default, at most MAX_REPEAT): a failure that does not repeat every time is flaky. */
  repeat?: number;
}

/** Sends one finding's request again and judges the answer with its check. */
export async function replayFinding(finding: Finding, options: ReplayOptions): Promise<Replayed> {
  const env = options.env ?? process.env;
  const ex = finding.exchange;
  const base = {
    requirement: finding.requirement,
    level: finding.level,
    test: finding.test,
    check: finding.check,
    before: { status: ex?.response?.status ?? null, received: finding.received },
    ...(typeof ex?.curl === 'string' ? { curl: ex.curl } : {}),
  };
  const notJudged = (detail: string): Replayed => ({ ...base, outcome: 'not re-judgeable', detail });
  const found = checkNamed(finding.check);
  if ('why' in found) return notJudged(found.why);
  const request = ex?.request;
  if (!request || typeof request.url !== 'string') return notJudged('the report keeps no request for this failure');
  if (/request body/.test(ex.cut ?? '')) return notJudged(`the request body was cut in the report (${ex.cut})`);
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (headers.cookie) return notJudged('the request carried cookies the target set during the run');
  let authorization: string | null = null;
  if (headers.authorization !== undefined) {
    authorization = authorizationValue(headers.authorization, env) ?? null;
    if (authorization === null) {
      const names = variablesOf(headers.authorization).filter((name) => !env[name]);
      return notJudged(
        names.length
          ? `${names.join(', ')} not set: the request was sent as ${headers.authorization}`
          : `the Authorization header (${headers.authorization}) cannot be rebuilt`,
      );
    }
  }
  // The request goes to the same path below the new base, with the same query, or not at all.
  const reportBase = trimmed(options.reportBase);
  if (!request.url.startsWith(`${reportBase}/`)) return notJudged(`the request's URL is not below the report's target ${reportBase}`);
  const rest = new URL(request.url.slice(reportBase.length), 'http://x');
  const targetBase = trimmed(options.targetBase);
  const wanted = `${targetBase}${request.url.slice(reportBase.length)}`;
  const sent = buildUrl(targetBase, rest.pathname, request.action, request.version);
  if (sent !== wanted) return notJudged(`the request's URL cannot be sent again as it was (${request.url})`);
  const exchange: Exchange = await send(targetBase, {
    action: request.action,
    version: request.version,
    body: request.body ?? '',
    method: request.method,
    path: rest.pathname,
    authorization,
    authorizationShown: headers.authorization ?? '',
    contentType: headers['content-type'] ?? null,
    userAgent: headers['user-agent'] ?? null,
    timeoutMs: options.timeoutMs,
    // Each request on a connection of its own, as the kit sends crafted credentials: one answer must not decide another's.
    isolated: true,
  });
  redactTokens(exchange, [...TOKEN_VARIABLE_NAMES.map((name) => env[name]), authorization?.replace(/^\S+ /, '')]);
  const after = {
    method: exchange.request.method,
    url: exchange.request.url,
    status: exchange.response?.status ?? null,
    ...(exchange.networkError ? { networkError: exchange.networkError } : {}),
    durationMs: exchange.durationMs,
  };
  if (!exchange.response && ex.response) return { ...base, after, outcome: 'no answer', detail: exchange.networkError ?? 'no answer' };
  let failure;
  try {
    failure = found.check(exchange, options.context);
  } catch (error) {
    return { ...base, after, outcome: 'not re-judgeable', detail: `the check could not judge the new answer: ${(error as Error).message}` };
  }
  if (failure) return { ...base, after, outcome: 'still failing', detail: failure.received };
  const same = trimmed(options.targetBase) === reportBase;
  return same
    ? { ...base, after, outcome: 'not reproducible', detail: `${finding.check} passes on the report's own target now: the failure did not repeat` }
    : { ...base, after, outcome: 'fixed', detail: `${finding.check} passes` };
}

/**
 * One finding sent `repeat` times, one after another. The same outcome every time is that outcome; a failure at some
 * sendings and a pass at others is flaky, with every sending's outcome kept.
 */
async function repeated(finding: Finding, options: ReplayOptions): Promise<Replayed> {
  const times = Math.min(Math.max(1, Math.floor(options.repeat ?? 1)), MAX_REPEAT);
  const first = await replayFinding(finding, options);
  if (times === 1 || !first.after) return first;
  const all = [first];
  for (let i = 1; i < times; i++) all.push(await replayFinding(finding, options));
  const attempts = all.map((r) => ({ outcome: r.outcome, status: r.after?.status ?? null, detail: r.detail }));
  const failed = all.filter((r) => r.outcome === 'still failing');
  if (new Set(all.map((r) => r.outcome)).size === 1) return { ...first, attempts };
  const passed = all.find((r) => r.outcome === 'fixed' || r.outcome === 'not reproducible');
  if (!failed.length || !passed) return { ...first, attempts };
  return { ...failed[0], outcome: 'flaky', detail: `failed ${failed.length} of ${all.length} times (${failed[0].detail}); passed the others`, attempts };
}

/** Every finding sent again, one after another (a target's own order, and a bounded load). */
export async function replay(findings: Finding[], options: ReplayOptions): Promise<Replayed[]> {
  const out: Replayed[] = [];
  for (const finding of findings.slice(0, MAX_FINDINGS)) out.push(await repeated(finding, options));
  return out;
}

/** How many findings ended in each outcome. */
export function countsOf(results: Replayed[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of results) counts[r.outcome]++;
  return counts;
}
