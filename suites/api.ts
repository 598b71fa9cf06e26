/**
 * The suites' client: sends the kit's requests as one of the configured tokens and keeps every
 * exchange as evidence. The HTTP client room below it (client/: sending, decoding, timeouts, the
 * User-Agent, redaction, evidence bounds, the request budget, the liveness breaker, Retry-After,
 * request stats, concurrency) is shared with discover and anything else that talks to a target.
 */
import { randomBytes } from 'node:crypto';
import { spendCreate, spendRequest } from '../client/budget';
import { type KitConfig, type TokenRole, TOKEN_VARIABLES } from '../config';
import { type Exchange, type SendOptions } from '../client/exchange';
import type { OperationId } from './checks';
import { noteAnswer, sendWhileAlive } from '../client/liveness';
import { redactTokens } from '../client/redact';
import { exchangeLogDir, logExchange } from '../client/exchange-log';
import { requestStats, type RequestStats, type Span } from '../client/request-stats';
import { isThrottled, MAX_CREATE_ATTEMPTS, rateLimitedOut, waitRetryAfter, type RetryCounts } from '../client/retry';
import { ReadCache } from '../client/read-cache';
import { together, type Lanes } from '../client/concurrency';
import { idReads, type ListQuery } from './list-body';
import { type Profile } from '../schemas/profile';
import { currentToken, sendWithFetched } from '../config/tokens';
import { identityOf, livenessRequest, plainReadOf, RawBody, requestKey, settledRead, VERSION, type CallOptions, type Read } from './call';
import { inTurn, noteCreated, seenBy, throttledTokens, tokenOfRun } from './worker-state';

export { ahead, CONCURRENCY, inOrder, together } from '../client/concurrency';
export { askedOf, listBody, nthPage, type ListQuery } from './list-body';
export { type RequestStats } from '../client/request-stats';
export { RATE_LIMITED_REASON, rateLimitedOut, type RetryCounts } from '../client/retry';
export { RawBody, VERSION, type CallOptions, type Read } from './call';
export { createdHere, seenBy, seenByAny } from './worker-state';

/** What a shared request's askers may take from each other: any answer but one that says to wait and ask again. */
const sharedAnswer = (exchange: Exchange): boolean => !!exchange.response && !isThrottled(exchange);

/** Sends the kit's requests; what it keeps of them is their figures, and who the target said it is. */
export class Api {
  /**
   * The first envelope that named its Service: the target's identity, for the reports. Only that is kept of the
   * answers, not the answers: the runner's Api lives through the phase and the requests it sends ahead, and a target's
   * large answers, every one of them kept, made its memory grow with their count (4 MiB each: about 500 MiB).
   */
  identity: { Service: string; Region: unknown } | undefined;
  /** How long each request took, and when each was under way (performance.now()), to measure the chain; see requestStats(). */
  private readonly durationsMs: number[] = [];
  private readonly spans: Span[] = [];
  readonly retries: RetryCounts = { 429: 0, 503: 0 };
  /** The first few 429 answers, kept as evidence for INPUT-08 (Retry-After). */
  readonly rateLimited: Exchange[] = [];

  constructor(
    private readonly config: KitConfig & { baseURL: string },
    /** Called when a request needs a token that is not configured; must not return. */
    private readonly missingToken: (role: TokenRole, variable: string) => never,
    /** Sent from the run's only worker: its shared reads stay in its memory (client/read-cache.ts). */
    private readonly oneWorker = false,
  ) {}

  /** The run this client sends for: what it has seen and spent is counted per run. */
  get runId(): string {
    return this.config.runId;
  }

  token(role: TokenRole): string {
    return currentToken(this.config, role) ?? this.config.tokens[role] ?? this.missingToken(role, TOKEN_VARIABLES[role]);
  }

  has(role: TokenRole): boolean {
    return !!this.config.tokens[role] || this.config.fetchedRoles.includes(role);
  }

  /** Whether a 401 to a fetched token renews it and sends the request again: not in the AUTH tests, whose 401s are the point. */
  refreshOn401 = true;

  /** Requests sent once per run and shared by its workers (client/read-cache.ts), made when first needed. */
  private cacheOnce?: ReadCache;
  private get cache(): ReadCache {
    return (this.cacheOnce ??= new ReadCache(this.config.runId, 2 * this.config.requestTimeoutMs, this.oneWorker));
  }
  /** Which reads are settled, once the create-and-wait phase has seen the run's groups listed. */
  private isSettled?: (body: unknown) => boolean;

  /**
   * From now on a plain read that isSettled() (a list confined to groups already shown in a list) is
   * sent once per run: its right answer cannot change, since the spec has no update or delete and a
   * visible group stays visible (VIS-02 and the lost-group reads ask `fresh`). Several requirements judge the same page (PAGE-01's first page is
   * PAGE-04's, the model's and a property's); each judges the one answer instead of asking again.
   */
  shareSettledReads(profile: Profile, listedBefore: (id: string) => boolean, runNames?: ReadonlyMap<string, readonly string[]>): void {
    this.isSettled = settledRead(profile, listedBefore, runNames);
  }

  /**
   * Groups listed by their Ids: one request, or, where the target's Id filter takes one Id
   * (list.idFilterTakes: one), one per Id, sent together. Each answer is judged against its own query.
   */
  async listByIds(profile: Profile, query: ListQuery, options: CallOptions = {}): Promise<Read[]> {
    const reads = idReads(profile, query);
    const answers = await together(
      reads.map(
        ({ body }) =>
          () =>
            this.call('ListAssetGroups', body, options),
      ),
    );
    return reads.map(({ query: asked }, i) => ({ query: asked, exchange: answers[i] }));
  }

  /** Shares a settled read this Api sent as a plain call (a visibility poll that saw every group it asked for). */
  offer(action: OperationId, body: unknown, options: CallOptions, exchange: Exchange): void {
    this.cache.offer(requestKey(action, body, options), exchange);
  }

  /** Every answer this client returns, sent or taken from another asker: where the run-wide oracle sees it (suites/oracle-watch.ts). */
  observe?: (exchange: Exchange) => void;

  async call(action: OperationId | string | null, body: unknown, options: CallOptions = {}): Promise<Exchange> {
    const exchange = await this.answer(action, body, options);
    this.observe?.(exchange);
    return exchange;
  }

  private async answer(action: OperationId | string | null, body: unknown, options: CallOptions): Promise<Exchange> {
    const role = options.as === undefined ? 'primary' : options.as;
    const send = () => this.send(action, body, options, role);
    const key = () => requestKey(action, body, options);
    if (options.shared && !options.cookies && options.contentType === undefined) return (await this.cache.read(key(), send, sharedAnswer)).exchange;
    const plain = !options.authorization && !options.cookies && options.userAgent === undefined && options.contentType === undefined && !options.fresh;
    if (this.isSettled && plain && role !== null && action === 'ListAssetGroups' && options.version === undefined && this.isSettled(body)) {
      const { exchange, sent } = await this.cache.read(key(), send);
      if (!sent) this.noteListed(role, exchange);
      return exchange;
    }
    return send();
  }

  /**
   * The same list request sent once more, fresh: what a failed MUST is judged on again before the verdict, so that a
   * failure that does not repeat is told apart (flaky). Only a plain read of a configured token is sent again: a create
   * would leave another group behind, and a crafted Authorization or cookie is one test's own request.
   */
  again(exchange: Exchange): Promise<Exchange> | undefined {
    const read = plainReadOf(exchange);
    return read && this.call('ListAssetGroups', read.body, read.options);
  }

  /**
   * Sends shared requests ahead of the tests that will ask for them (the runner, once the phase is over: suites/plans/).
   * Each is claimed before this returns its promise, so that a test asking meanwhile waits for its answer instead of
   * sending it too; then sent as `lanes` allow, each answer published. A 429 or 503 is not: the asker sends its own.
   */
  async sendAhead(requests: { action: OperationId | string | null; body: unknown; options: CallOptions; chain?: string }[], lanes: Lanes): Promise<void> {
    const keyed = requests.map((request) => ({ request, key: requestKey(request.action, request.body, request.options) }));
    // Each claimed once, before any is sent: a read that two plans hold (VIS-02's first round is CREATE-02's read) is sent once.
    const claimed = new Set(keyed.filter(({ key }) => this.cache.claim(key)).map(({ key }) => key));
    // What is kept of each answer once published: nothing. The runner reads none of them, and a target's large answers,
    // held until the last was sent, made the runner's memory grow with their count (4 MiB each: 490 MiB).
    const answers = new Map<string, Promise<void>>();
    // Requests of one chain go one after another, each on a lane once the one before it has been answered.
    const chains = new Map<string | undefined, Promise<unknown>>();
    await Promise.allSettled(
      keyed.map(({ request: { action, body, options, chain }, key }) => {
        const sent = () => this.cache.answer(key, () => this.send(action, body, options, options.as === undefined ? 'primary' : options.as), sharedAnswer);
        const answer = () => {
          if (!claimed.has(key)) return Promise.resolve();
          const once = answers.get(key) ?? lanes.run(sent, { first: chain !== undefined }).then(() => undefined);
          answers.set(key, once);
          return once;
        };
        if (chain === undefined) return answer();
        const next = (chains.get(chain) ?? Promise.resolve()).then(answer, answer);
        chains.set(chain, next);
        return next;
      }),
    );
  }

  private send(action: OperationId | string | null, body: unknown, options: CallOptions, role: TokenRole | null): Promise<Exchange> {
    // A fetched token is renewed before it expires, and once after a 401 outside the AUTH tests (config/tokens.ts).
    if (role !== null && !options.authorization && this.config.fetchedRoles.includes(role))
      return sendWithFetched(this.config, role, this.refreshOn401 && !options.cookies?.length, (token) => this.sendAs(action, body, options, role, token));
    return this.sendAs(action, body, options, role, role !== null && !options.authorization ? this.token(role) : '');
  }

  private async sendAs(action: OperationId | string | null, body: unknown, options: CallOptions, role: TokenRole | null, token: string): Promise<Exchange> {
    let authorization: string | null = null;
    let shown = '';
    if (options.authorization) {
      ({ value: authorization, shown } = options.authorization);
    } else if (role !== null) {
      authorization = `Bearer ${token}`;
      shown = `Bearer <${TOKEN_VARIABLES[role]}>`;
    }
    spendRequest(this.config.runId);
    const sendOptions: SendOptions = {
      action,
      version: options.version === undefined ? VERSION : options.version,
      body: body instanceof RawBody ? body.text : JSON.stringify(body),
      authorization,
      authorizationShown: shown,
      timeoutMs: this.config.requestTimeoutMs,
      contentType: options.contentType,
      userAgent: options.userAgent,
      // Crafted credentials go on a connection of their own (exchange.ts): no later request of the run shares it.
      isolated: !!options.authorization || !!options.cookies?.length,
      ...(options.cookies?.length
        ? {
            cookie: {
              value: options.cookies.join('; '),
              shown: `<${options.cookies.length} cookie(s) the target set: ${options.cookies.map((c) => c.split('=')[0]).join(', ')}>`,
            },
          }
        : {}),
    };
    const start = performance.now();
    const exchange = await sendWhileAlive(this.config.runId, this.config.baseURL, sendOptions);
    this.spans.push({ start, end: performance.now() });
    await noteAnswer(this.config.runId, exchange, this.config.baseURL, livenessRequest(this.config));
    // A near-miss of a token (AUTH-06) is nearly the token: it is blotted out of what comes back too.
    redactTokens(exchange, [...Object.values(this.config.tokens), ...(options.authorization ? [options.authorization.value.replace(/^\S+ /, '')] : [])]);
    // A certification's HAR holds every exchange (AG_HAR_ALL): written out now, bounded, never kept here.
    if (this.config.harAll)
      logExchange(exchangeLogDir(this.config.reportDir, this.config.runId), exchange, {
        limit: this.config.evidenceBytes,
        capBytes: this.config.reportTargetBytes,
        tokens: Object.values(this.config.tokens),
      });
    this.durationsMs.push(exchange.durationMs);
    this.identity ??= identityOf(exchange);
    if (action === 'ListAssetGroups' && role !== null && !options.authorization) this.noteListed(role, exchange);
    return exchange;
  }

  private noteListed(role: TokenRole, exchange: Exchange): void {
    const items = (exchange.response?.json as { Result?: { Items?: unknown } } | undefined)?.Result?.Items;
    if (Array.isArray(items)) for (const item of items) if (typeof item?.Id === 'string') seenBy(this.config.runId, role).add(item.Id);
  }

  /**
   * Creates a group, honouring 429/503 with Retry-After (bounded) a bounded number of times.
   * Returns the last exchange; the caller judges it.
   */
  async create(fields: Record<string, unknown>, as: TokenRole = 'primary', { shared = false } = {}): Promise<{ exchange: Exchange; attempts: number }> {
    spendCreate(this.config.runId);
    for (let attempt = 1; ; attempt++) {
      const send = async () => {
        const exchange = await this.call('CreateAssetGroup', fields, { as, ...(shared ? { shared } : {}) });
        if (isThrottled(exchange) && attempt < MAX_CREATE_ATTEMPTS) {
          throttledTokens.add(tokenOfRun(this.config.runId, as));
          // Inside the turn: the next create of this token waits out the same Retry-After.
          await waitRetryAfter(exchange, attempt);
        }
        return exchange;
      };
      const turn = tokenOfRun(this.config.runId, as);
      const exchange = throttledTokens.has(turn) ? await inTurn(turn, send) : await send();
      if (!this.retried(exchange, attempt)) {
        noteCreated(this.config.runId, exchange);
        return { exchange, attempts: attempt };
      }
      if (exchange.response!.status === 429 && this.rateLimited.length < 5) this.rateLimited.push(exchange);
    }
  }

  /**
   * A create the kit expects to be refused (no token, a near-miss token): a proxy that limits creates
   * before the service authenticates them may answer 429 first, which says nothing about the token.
   * 429 and 503 are waited out as create() does; still throttled after as many attempts, the
   * exchange is not judged (rateLimitedOut).
   */
  async createRefused(body: unknown, options: CallOptions): Promise<Exchange> {
    for (let attempt = 1; ; attempt++) {
      const exchange = await this.call('CreateAssetGroup', body, options);
      if (!this.retried(exchange, attempt)) return exchange;
      await waitRetryAfter(exchange, attempt);
    }
  }

  /**
   * Whether a create answered 429/503 goes again: counted, until MAX_CREATE_ATTEMPTS, after which the
   * exchange is not judged (rateLimitedOut) rather than load the target further.
   */
  private retried(exchange: Exchange, attempt: number): boolean {
    if (!isThrottled(exchange)) return false;
    if (attempt >= MAX_CREATE_ATTEMPTS) {
      rateLimitedOut.add(exchange);
      return false;
    }
    this.retries[exchange.response!.status as 429 | 503]++;
    return true;
  }

  requestStats(): RequestStats {
    return requestStats(this.durationsMs, this.spans);
  }

  /** A name unique to this run, so the kit only ever reads back what it created. */
  uniqueName(label: string): string {
    return `${this.config.namePrefix}${label}-${randomBytes(3).toString('hex')}`;
  }
}
