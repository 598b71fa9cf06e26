import { randomBytes } from 'node:crypto';
import { type KitConfig, type TokenRole, TOKEN_VARIABLES } from './config';
import { buildUrl, send, SPEC_PATH, type Exchange, type SendOptions } from './exchange';
import type { OperationId } from './checks';
import type { Profile } from '../schemas/profile';

export const VERSION = '2024-01-01';

/** A body to send as is (malformed JSON, odd encodings) rather than JSON-encoded. */
export class RawBody {
  constructor(readonly text: string) {}
}

export interface CallOptions {
  /** Which configured token to send as `Bearer <token>`; null sends no Authorization header. */
  as?: TokenRole | null;
  /** Sends this exact Authorization header; `shown` is what evidence records instead of it. */
  authorization?: { value: string; shown: string };
  version?: string | null;
  contentType?: string | null;
}

export class BudgetError extends Error {}

/**
 * Per-process limits that keep the kit gentle on a shared staging system. They are far above
 * what the suites need, so hitting one means a runaway loop in the kit, not a slow target.
 */
const budget = { requests: 0, creates: 0, maxRequests: 4000, maxCreates: 200 };

/** Whether the target still answers, per worker process. */
const health = { failures: 0, dead: '' };

function notSent(baseURL: string, options: SendOptions, why: string): Exchange {
  return {
    request: { method: 'POST', url: buildUrl(baseURL, SPEC_PATH, options.action, options.version), action: options.action, version: options.version, headers: { authorization: options.authorizationShown }, body: options.body },
    networkError: `not sent: ${why}`,
    durationMs: 0,
  };
}

/** 429 and 503 answers to a create are the target protecting itself, not a failure: they are counted. */
export interface RetryCounts {
  429: number;
  503: number;
}

const MAX_CREATE_ATTEMPTS = 8;
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * Creates the target still refused with 429/503 after the bounded retries. Such an answer says the
 * target is protecting itself, not how it judged the request: a check over it is not assessable,
 * and the kit will not load the target further to find out.
 */
export const rateLimitedOut = new WeakSet<Exchange>();
export const RATE_LIMITED_REASON = `the target kept answering 429/503 to creates after ${MAX_CREATE_ATTEMPTS} attempts honouring Retry-After; not assessed rather than load it further`;

/** Retry-After in seconds or as an HTTP date; a missing or odd value gets a gentle default. */
export function retryAfterMs(header: string | undefined, attempt: number): number {
  const fallback = Math.min(500 * 2 ** attempt, MAX_RETRY_AFTER_MS);
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(header);
  if (!Number.isNaN(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_AFTER_MS);
  return fallback;
}

/**
 * A target may echo a token back ("invalid token abc…"); evidence must never carry one, so every
 * configured token is blotted out of what came back before anything keeps the exchange.
 */
export function redactTokens(exchange: Exchange, tokens: string[]): void {
  const secrets = tokens.filter((t) => t.length >= 4);
  if (!exchange.response || secrets.length === 0) return;
  const blot = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('<redacted token>'), text);
  const { response } = exchange;
  if (!secrets.some((secret) => response.body.includes(secret) || Object.values(response.headers).some((v) => v.includes(secret)))) return;
  response.body = blot(response.body);
  for (const key of Object.keys(response.headers)) response.headers[key] = blot(response.headers[key]);
  if (response.json !== undefined) response.json = JSON.parse(blot(JSON.stringify(response.json)));
}

/** What one Api sent, for the benchmarks (bench/run.ts): how many, how long, and how deep its chain was. */
export interface RequestStats {
  count: number;
  /** Sum of the requests' durations. */
  totalMs: number;
  /** The longest run of requests each sent after the previous one answered (1 per round of concurrent ones). */
  chain: number;
  durationsMs: number[];
}

/** Longest chain of intervals in which each starts after the previous one ended. */
export function longestChain(spans: { start: number; end: number }[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    depth[i] = 1;
    for (let j = 0; j < i; j++) if (sorted[j].end <= sorted[i].start) depth[i] = Math.max(depth[i], depth[j] + 1);
  }
  return Math.max(0, ...depth);
}

/**
 * Group Ids each token has been shown in a list, in this worker: a group missing from a later list
 * is only "lost" (VIS-02) if that token saw it before.
 */
const seen = new Map<TokenRole, Set<string>>();
export const seenBy = (role: TokenRole): Set<string> => seen.get(role) ?? seen.set(role, new Set()).get(role)!;

/** Sends the kit's requests and keeps every exchange as evidence. */
export class Api {
  readonly exchanges: Exchange[] = [];
  /** When each request was under way (performance.now()), to measure the chain; see requestStats(). */
  private readonly spans: { start: number; end: number }[] = [];
  readonly retries: RetryCounts = { 429: 0, 503: 0 };
  /** The first few 429 answers, kept as evidence for INPUT-08 (Retry-After). */
  readonly rateLimited: Exchange[] = [];

  constructor(
    private readonly config: KitConfig & { baseURL: string },
    /** Called when a request needs a token that is not configured; must not return. */
    private readonly missingToken: (role: TokenRole, variable: string) => never,
  ) {}

  token(role: TokenRole): string {
    return this.config.tokens[role] ?? this.missingToken(role, TOKEN_VARIABLES[role]);
  }

  has(role: TokenRole): boolean {
    return !!this.config.tokens[role];
  }

  async call(action: OperationId | string | null, body: unknown, options: CallOptions = {}): Promise<Exchange> {
    const role = options.as === undefined ? 'primary' : options.as;
    let authorization: string | null = null;
    let shown = '';
    if (options.authorization) {
      ({ value: authorization, shown } = options.authorization);
    } else if (role !== null) {
      authorization = `Bearer ${this.token(role)}`;
      shown = `Bearer <${TOKEN_VARIABLES[role]}>`;
    }
    if (++budget.requests > budget.maxRequests) throw new BudgetError(`request budget of ${budget.maxRequests} per worker exhausted; the kit stops rather than load the target further`);
    const sendOptions = {
      action,
      version: options.version === undefined ? VERSION : options.version,
      body: body instanceof RawBody ? body.text : JSON.stringify(body),
      authorization,
      authorizationShown: shown,
      timeoutMs: this.config.requestTimeoutMs,
      contentType: options.contentType,
    };
    const start = performance.now();
    const exchange = health.dead ? notSent(this.config.baseURL, sendOptions, health.dead) : await send(this.config.baseURL, sendOptions);
    this.spans.push({ start, end: performance.now() });
    if (exchange.networkError && !health.dead) await this.checkAlive();
    else if (exchange.response) health.failures = 0;
    // A near-miss of a token (AUTH-06) is nearly the token: it is blotted out of what comes back too.
    redactTokens(exchange, [...Object.values(this.config.tokens), ...(options.authorization ? [options.authorization.value.replace(/^\S+ /, '')] : [])]);
    this.exchanges.push(exchange);
    const items = action === 'ListAssetGroups' && role !== null && !options.authorization ? (exchange.response?.json as { Result?: { Items?: unknown } } | undefined)?.Result?.Items : undefined;
    if (Array.isArray(items)) for (const item of items) if (typeof item?.Id === 'string') seenBy(role!).add(item.Id);
    return exchange;
  }

  /**
   * After a few requests in a row got no answer, one plain list tells a target that only chokes
   * on some inputs (a failure of those checks) from one that has gone away; once it has gone away
   * every further request fails at once, so the run ends in seconds instead of timing out test by test.
   */
  private async checkAlive(): Promise<void> {
    if (++health.failures < 3) return;
    const probe = await send(this.config.baseURL, { action: 'ListAssetGroups', version: VERSION, body: '{}', authorization: `Bearer ${this.config.tokens.primary}`, authorizationShown: 'Bearer <AG_TOKEN>', timeoutMs: this.config.requestTimeoutMs });
    if (probe.response) health.failures = 0;
    else health.dead = `the target stopped answering (${health.failures} requests in a row, then a plain list: ${probe.networkError})`;
  }

  /**
   * Creates a group, honouring 429/503 with Retry-After (bounded) a bounded number of times.
   * Returns the last exchange; the caller judges it.
   */
  async create(fields: Record<string, unknown>, as: TokenRole = 'primary'): Promise<{ exchange: Exchange; attempts: number }> {
    if (++budget.creates > budget.maxCreates) throw new BudgetError(`create budget of ${budget.maxCreates} per worker exhausted`);
    for (let attempt = 1; ; attempt++) {
      const exchange = await this.call('CreateAssetGroup', fields, { as });
      const status = exchange.response?.status;
      if (status !== 429 && status !== 503) return { exchange, attempts: attempt };
      if (attempt >= MAX_CREATE_ATTEMPTS) {
        rateLimitedOut.add(exchange);
        return { exchange, attempts: attempt };
      }
      this.retries[status]++;
      if (status === 429 && this.rateLimited.length < 5) this.rateLimited.push(exchange);
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs(exchange.response!.headers['retry-after'], attempt)));
    }
  }

  requestStats(): RequestStats {
    const durationsMs = this.exchanges.map((ex) => ex.durationMs);
    return { count: this.exchanges.length, totalMs: durationsMs.reduce((a, b) => a + b, 0), chain: longestChain(this.spans), durationsMs };
  }

  /** A name unique to this run, so the kit only ever reads back what it created. */
  uniqueName(label: string): string {
    return `${this.config.namePrefix}${label}-${randomBytes(3).toString('hex')}`;
  }
}

/** At most this many requests of one test under way at once: enough to overlap a slow target's latency, few enough to stay gentle. */
export const CONCURRENCY = 4;

/**
 * Sends a test's independent requests at most `limit` at a time and hands back their outcomes in
 * the order given, once all have answered. A test that then judges them one by one applies the
 * same checks in the same order as when it sent them one after another (an error of one task,
 * such as a missing token, surfaces where its request used to be), but a slow target's latency
 * overlaps instead of adding up. Nothing is left in flight when the test moves on.
 */
export async function ahead<T>(tasks: (() => Promise<T>)[], limit = CONCURRENCY): Promise<Promise<T>[]> {
  const outcomes: Promise<T>[] = new Array(tasks.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      outcomes[i] = (async () => task())();
      await outcomes[i].catch(() => undefined);
    }
  });
  await Promise.all(lanes);
  return outcomes;
}

/** Awaits outcomes in the order given: every value, or the first error in that order. */
export async function inOrder<T>(outcomes: Promise<T>[]): Promise<T[]> {
  const values: T[] = [];
  for (const outcome of outcomes) values.push(await outcome);
  return values;
}

/** ahead(), awaited in the order given: every outcome, or the first error in that order. */
export async function together<T>(tasks: (() => Promise<T>)[], limit = CONCURRENCY): Promise<T[]> {
  return inOrder(await ahead(tasks, limit));
}

/** A list query in the kit's terms; the profile turns it into the target's field names. */
export interface ListQuery {
  assetSpaceId?: string;
  groupType?: string;
  groupIds?: string[];
  name?: string;
  pageNumber?: unknown;
  pageSize?: unknown;
}

export function listBody(profile: Profile, query: ListQuery): Record<string, unknown> {
  const { filters, filterField, pageNumber, pageSize } = profile.list;
  const filter: Record<string, unknown> = {};
  if (query.assetSpaceId !== undefined) filter[filters.assetSpaceId] = query.assetSpaceId;
  if (query.groupType !== undefined) filter[filters.groupType] = query.groupType;
  if (query.groupIds !== undefined) filter[filters.groupIds] = query.groupIds;
  if (query.name !== undefined) filter[filters.name] = query.name;
  const body: Record<string, unknown> = {};
  if (Object.keys(filter).length) body[filterField] = filter;
  if (query.pageNumber !== undefined) body[pageNumber.field] = query.pageNumber;
  if (query.pageSize !== undefined) body[pageSize.field] = query.pageSize;
  return body;
}
