/**
 * The budgeted client of `agc profile discover` (see discovery.ts for its ground rules): every
 * request it sends counts against BUDGET, every answer that is not this API ends the discovery
 * with a TargetError, and every setting it settles is recorded as a Decision with its evidence.
 * The probing steps (error-shape.ts, create.ts, list.ts, paging.ts) ask through it; it sends
 * through the kit's HTTP client (client/exchange.ts).
 */
import { randomBytes } from 'node:crypto';
import { send, type Exchange } from '../client/exchange';
import { readPointer, type Profile } from '../schemas/profile';
import { isObject, SPEC_VERSION } from '../schemas/spec';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * At most `requests` requests in all, and at most `creates` groups left on the target: only an
 * accepted create counts against `creates` (a refused one creates nothing), so probes that expect
 * a refusal cost requests only.
 */
export const BUDGET = { requests: 80, creates: 6 } as const;
const VERSION = SPEC_VERSION;
/** What every Name of a discovery has right after the run prefix (see `name`). */
export const NAME_INFIX = 'Disc-';

/** A TargetError ends the discovery: the target cannot be probed (unreachable, hung, not this API). */
export class TargetError extends Error {}
/** The token was refused: a configuration problem, reported as such. */
export class TokenError extends Error {}
/** The request or create budget is spent: the discovery stops and keeps the rest at the reference values. */
export class BudgetExhausted extends Error {}

export interface Target {
  baseURL: string;
  /** Where the proxy and --ca-file settings are read (client/network.ts); the process's environment when absent. */
  env?: NodeJS.ProcessEnv;
  token: string;
  requestTimeoutMs: number;
  visibilityTimeoutMs: number;
  runId: string;
}

/** One setting of the profile: the value found, or the reference value and why it was kept. */
export interface Decision {
  /** Dotted path in the profile, e.g. list.pageSize.field. */
  setting: string;
  value: unknown;
  determined: boolean;
  /** What was sent and what came back, or why nothing could be. One or a few short lines. */
  evidence: string[];
}

export interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

export interface Group {
  id: string;
  name: string;
  sent: Record<string, string>;
}

export { isObject };
export { sleep };

/** Strings over 40 characters shown by their start and length: evidence stays one readable line. */
export function shortJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'string' && v.length > 40 ? `${v.slice(0, 24)}…(${[...v].length} chars)` : v));
}

export function resultOf(answer: Answer): Record<string, unknown> | undefined {
  const result = isObject(answer.json) ? answer.json.Result : undefined;
  return isObject(result) ? result : undefined;
}

export function itemsOf(answer: Answer): Record<string, unknown>[] {
  const items = resultOf(answer)?.Items;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

export function idsOf(answer: Answer): string[] {
  return itemsOf(answer).map((item) => String(item.Id));
}

/** One discovery's budgeted requests and the decisions taken so far; the probing steps share it. */
export class DiscoverSession {
  requests = 0;
  createRequests = 0;
  readonly created: Group[] = [];
  readonly decisions = new Map<string, Decision>();
  readonly notes: string[] = [];
  errorHasResult = false;
  /** Where the message of an error sits, once known; until then any key that looks like one. */
  messagePointer: string | undefined;
  readonly namePrefix: string;
  /** The message of the last refusal seen by `bound`'s probes (create.ts). */
  lastMessage: string | undefined;
  /** Whether a 400 of the list has given the error pointer its second look (confirmErrorKind). */
  errorKindConfirmed = false;

  constructor(
    readonly target: Target,
    private readonly reference: Profile,
    protected readonly log: (line: string) => void,
  ) {
    this.namePrefix = `agc-${target.runId}-`;
  }

  // ------------------------------------------------------------ requests, within the budget

  async call(action: 'ListAssetGroups' | 'CreateAssetGroup', body: unknown, auth = true): Promise<Answer> {
    if (this.requests >= BUDGET.requests) throw new BudgetExhausted(`the budget of ${BUDGET.requests} requests is spent`);
    this.requests++;
    const exchange = await send(this.target.baseURL, {
      action,
      version: VERSION,
      body: JSON.stringify(body),
      authorization: auth ? `Bearer ${this.target.token}` : null,
      authorizationShown: 'Bearer <AG_TOKEN>',
      timeoutMs: this.target.requestTimeoutMs,
      networkEnv: this.target.env,
    });
    const what = `${action} ${this.show(body)}`;
    if (exchange.networkError || !exchange.response)
      throw new TargetError(`${what}: no answer from ${this.target.baseURL}: ${exchange.networkError ?? 'unknown error'}`);
    const { status, json, body: text, headers } = exchange.response;
    if (json === undefined) {
      const type = headers['content-type'] ?? 'no Content-Type';
      const start = text
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80);
      throw new TargetError(
        `${what}: HTTP ${status} (${type}) is not JSON${start ? `: "${start}"` : ''}; is AG_BASE_URL the base of this API (the kit adds /v1/media_assets/)?`,
      );
    }
    if (!isObject(json) || (!('ResponseMetadata' in json) && !('Result' in json))) {
      throw new TargetError(
        `${what}: HTTP ${status} answered JSON without ResponseMetadata or Result (${this.show(json).slice(0, 120)}); this does not look like the asset-group API`,
      );
    }
    return { status, json, exchange };
  }

  list(body: Record<string, unknown>): Promise<Answer> {
    return this.call('ListAssetGroups', body);
  }

  /** Groups the create budget still allows, less `reserve` kept for later steps. */
  createsLeft(reserve = 0): number {
    return Math.max(0, BUDGET.creates - this.created.length - reserve);
  }

  /**
   * One create; a 429 is waited out (Retry-After, at most 5 s) at most twice. Never past the
   * create budget: any create may be accepted, so none is sent once the budget is spent.
   */
  async create(fields: Record<string, string>): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      if (this.created.length >= BUDGET.creates) throw new BudgetExhausted(`the budget of ${BUDGET.creates} created groups is spent`);
      this.createRequests++;
      const answer = await this.call('CreateAssetGroup', fields);
      if (answer.status === 200) {
        const id = readPointer(answer.json, '/Result/Id');
        if (typeof id !== 'string' || id === '')
          throw new TargetError(`CreateAssetGroup ${this.show(fields)}: HTTP 200 without Result.Id (${this.show(answer.json).slice(0, 120)})`);
        this.created.push({ id, name: fields.Name ?? '', sent: fields });
        return answer;
      }
      if (answer.status !== 429 || attempt >= 2) return answer;
      const seconds = Number(answer.exchange.response?.headers['retry-after']);
      await sleep(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, 5000));
    }
  }

  /**
   * A Name of the run: the run prefix, a label, and a random suffix. `Disc` is in mixed case so
   * that an upper-cased part of a Name differs from it in both directions (a filter that lowers
   * only the query does not pass for one that ignores case).
   */
  name(label: string): string {
    return `${this.namePrefix}${NAME_INFIX}${label}-${randomBytes(2).toString('hex')}`;
  }

  // ------------------------------------------------------------ reading answers

  /** shortJson, with the run's group Ids shown as g1, g2, … (listed in the draft's header). */
  show(value: unknown): string {
    let text = shortJson(value);
    this.created.forEach((g, i) => {
      text = text.split(JSON.stringify(g.id)).join(`g${i + 1}`);
    });
    return text;
  }

  messageOf(answer: Answer): string {
    if (this.messagePointer) {
      const found = readPointer(answer.json, this.messagePointer);
      if (typeof found === 'string') return found;
    }
    const texts: string[] = [];
    const walk = (node: unknown, key: string) => {
      if (typeof node === 'string' && /message|msg|detail|reason/i.test(key)) texts.push(node);
      else if (Array.isArray(node)) for (const v of node) walk(v, key);
      else if (isObject(node)) for (const [k, v] of Object.entries(node)) walk(v, k);
    };
    walk(answer.json, '');
    return texts.join(' ');
  }

  /** "HTTP 200, 1 item of TotalCount 3, PageNumber 1, PageSize 1" or "HTTP 400 AssetBadRequest: message". */
  summary(answer: Answer): string {
    const result = resultOf(answer);
    if (answer.status === 200 && result && Array.isArray(result.Items)) {
      const n = (result.Items as unknown[]).length;
      return `HTTP 200, ${n} item${n === 1 ? '' : 's'} of TotalCount ${this.show(result.TotalCount)}, PageNumber ${this.show(result.PageNumber)}, PageSize ${this.show(result.PageSize)}`;
    }
    if (answer.status === 200 && result && 'Id' in result) return `HTTP 200, Id ${this.show(result.Id)}`;
    const code = readPointer(answer.json, this.pointer('error.codePointer'));
    const message = this.messageOf(answer);
    return `HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}${message ? `: ${JSON.stringify(message.length > 100 ? `${message.slice(0, 100)}…` : message)}` : ''}`;
  }

  evidence(action: string, body: unknown, answer: Answer): string {
    return `${action} ${this.show(body)} -> ${this.summary(answer)}`;
  }

  // ------------------------------------------------------------ decisions

  private referenceValue(setting: string): unknown {
    let node: unknown = this.reference;
    for (const part of setting.split('.')) node = isObject(node) ? node[part] : undefined;
    return node;
  }

  /** The value decided so far for a setting: the discovered one, else the reference one. */
  value<T>(setting: string): T {
    return (this.decisions.get(setting)?.value ?? this.referenceValue(setting)) as T;
  }

  private pointer(setting: 'error.codePointer' | 'error.messagePointer'): string {
    return this.value<string>(setting);
  }

  decide(setting: string, value: unknown, ...evidence: string[]): void {
    this.decisions.set(setting, { setting, value, determined: true, evidence });
    this.log(`${setting} = ${JSON.stringify(value)}  (${evidence[0]}${evidence.length > 1 ? ` …+${evidence.length - 1}` : ''})`);
  }

  keep(setting: string, ...why: string[]): void {
    if (this.decisions.get(setting)?.determined) return;
    const value = this.referenceValue(setting);
    this.decisions.set(setting, { setting, value, determined: false, evidence: why });
    // An optional setting the reference profile leaves unset (create.lengthUnit) is not written at all.
    this.log(
      value === undefined
        ? `${setting} not written  (not determined: ${why[0]})`
        : `${setting} = ${JSON.stringify(value)}  (reference value, not determined: ${why[0]})`,
    );
  }
}
