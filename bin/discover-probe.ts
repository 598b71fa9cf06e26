/**
 * The probing half of `agc profile discover`: asks a target a bounded number of questions and
 * records, for every setting of the profile, either the value its answers show (with the request
 * and the answer as evidence) or why it stays at the reference value.
 *
 * Ground rules, which the kit's own tests hold it to (tests/discover.test.ts):
 * - at most BUDGET.requests requests and BUDGET.creates groups created, whatever the target says;
 * - every Name it creates starts with `agc-<run-id>-`, and once the Id filter is known every list
 *   request is limited to the run's own groups, so it reads the same on a busy target as on an
 *   empty one;
 * - a guessed field name counts as recognised only by its effect on the run's own data (a page
 *   size of 1 returns one of three groups and echoes PageSize 1), and as unknown when the answer
 *   ignores it or refuses it with a 400. An echo alone is never taken as proof.
 * - the first request that gets no usable HTTP answer (refused, reset, timed out, HTML) ends the
 *   discovery with a TargetError: the caller reports it and exits non-zero.
 */
import { randomBytes } from 'node:crypto';
import { send, type Exchange } from '../suites/exchange';
import { readPointer, type Profile } from '../schemas/profile';

export const BUDGET = { requests: 60, creates: 6 } as const;
const VERSION = '2024-01-01';
const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'] as const;

export { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';
import { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';

/** Bounds implementers commonly pick, tried by bisection when an error message names none. */
const COMMON_BOUNDS = [16, 20, 25, 30, 32, 40, 50, 60, 64, 80, 100, 120, 128, 150, 200, 250, 255, 256, 300, 400, 500, 512, 1000, 1024, 2000, 2048, 4096, 5000];

/** A TargetError ends the discovery: the target cannot be probed (unreachable, hung, not this API). */
export class TargetError extends Error {}
/** The token was refused: a configuration problem, reported as such. */
export class TokenError extends Error {}
class BudgetExhausted extends Error {}

export interface Target {
  baseURL: string;
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

export interface Discovery {
  decisions: Map<string, Decision>;
  /** Whether error bodies carry a Result (the draft then does not forbid one). */
  errorHasResult: boolean;
  requests: number;
  createRequests: number;
  created: { id: string; name: string }[];
  runId: string;
  namePrefix: string;
  /** Problems of the run as a whole (budget spent, groups never visible), for the summary. */
  notes: string[];
}

interface Answer {
  status: number;
  json: unknown;
  exchange: Exchange;
}

interface Group {
  id: string;
  name: string;
  sent: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Strings over 40 characters shown by their start and length: evidence stays one readable line. */
export function shortJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'string' && v.length > 40 ? `${v.slice(0, 24)}…(${[...v].length} chars)` : v));
}

function resultOf(answer: Answer): Record<string, unknown> | undefined {
  const result = isObject(answer.json) ? answer.json.Result : undefined;
  return isObject(result) ? result : undefined;
}

function itemsOf(answer: Answer): Record<string, unknown>[] {
  const items = resultOf(answer)?.Items;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

function idsOf(answer: Answer): string[] {
  return itemsOf(answer).map((item) => String(item.Id));
}

/** Every JSON pointer in `data` whose value is the string `wanted`. */
export function pointersTo(data: unknown, wanted: string, at = ''): string[] {
  if (data === wanted) return [at];
  if (Array.isArray(data)) return data.flatMap((v, i) => pointersTo(v, wanted, `${at}/${i}`));
  if (isObject(data)) return Object.entries(data).flatMap(([k, v]) => pointersTo(v, wanted, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return [];
}

export class Prober {
  requests = 0;
  createRequests = 0;
  readonly created: Group[] = [];
  readonly decisions = new Map<string, Decision>();
  readonly notes: string[] = [];
  errorHasResult = false;
  /** Where the message of an error sits, once known; until then any key that looks like one. */
  private messagePointer: string | undefined;
  readonly namePrefix: string;

  constructor(private readonly target: Target, private readonly reference: Profile, private readonly log: (line: string) => void) {
    this.namePrefix = `agc-${target.runId}-`;
  }

  // ------------------------------------------------------------ requests, within the budget

  private async call(action: 'ListAssetGroups' | 'CreateAssetGroup', body: unknown, auth = true): Promise<Answer> {
    if (this.requests >= BUDGET.requests) throw new BudgetExhausted(`the budget of ${BUDGET.requests} requests is spent`);
    this.requests++;
    const exchange = await send(this.target.baseURL, {
      action,
      version: VERSION,
      body: JSON.stringify(body),
      authorization: auth ? `Bearer ${this.target.token}` : null,
      authorizationShown: 'Bearer <AG_TOKEN>',
      timeoutMs: this.target.requestTimeoutMs,
    });
    const what = `${action} ${this.show(body)}`;
    if (exchange.networkError || !exchange.response) throw new TargetError(`${what}: no answer from ${this.target.baseURL}: ${exchange.networkError ?? 'unknown error'}`);
    const { status, json, body: text, headers } = exchange.response;
    if (json === undefined) {
      const type = headers['content-type'] ?? 'no Content-Type';
      const start = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
      throw new TargetError(`${what}: HTTP ${status} (${type}) is not JSON${start ? `: "${start}"` : ''}; is AG_BASE_URL the base of this API (the kit adds /v1/media_assets/)?`);
    }
    if (!isObject(json) || (!('ResponseMetadata' in json) && !('Result' in json))) {
      throw new TargetError(`${what}: HTTP ${status} answered JSON without ResponseMetadata or Result (${this.show(json).slice(0, 120)}); this does not look like the asset-group API`);
    }
    return { status, json, exchange };
  }

  private list(body: Record<string, unknown>): Promise<Answer> {
    return this.call('ListAssetGroups', body);
  }

  /** One create; a 429 is waited out (Retry-After, at most 5 s) at most twice. Never past the create budget. */
  private async create(fields: Record<string, string>): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      if (this.created.length >= BUDGET.creates) throw new BudgetExhausted(`the budget of ${BUDGET.creates} created groups is spent`);
      this.createRequests++;
      const answer = await this.call('CreateAssetGroup', fields);
      if (answer.status === 200) {
        const id = readPointer(answer.json, '/Result/Id');
        if (typeof id !== 'string' || id === '') throw new TargetError(`CreateAssetGroup ${this.show(fields)}: HTTP 200 without Result.Id (${this.show(answer.json).slice(0, 120)})`);
        this.created.push({ id, name: fields.Name, sent: fields });
        return answer;
      }
      if (answer.status !== 429 || attempt >= 2) return answer;
      const seconds = Number(answer.exchange.response?.headers['retry-after']);
      await sleep(Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, 5000));
    }
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

  private messageOf(answer: Answer): string {
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
  private summary(answer: Answer): string {
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

  private evidence(action: string, body: unknown, answer: Answer): string {
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

  private decide(setting: string, value: unknown, ...evidence: string[]): void {
    this.decisions.set(setting, { setting, value, determined: true, evidence });
    this.log(`${setting} = ${JSON.stringify(value)}  (${evidence[0]}${evidence.length > 1 ? ` …+${evidence.length - 1}` : ''})`);
  }

  private keep(setting: string, ...why: string[]): void {
    if (this.decisions.get(setting)?.determined) return;
    const value = this.referenceValue(setting);
    this.decisions.set(setting, { setting, value, determined: false, evidence: why });
    this.log(`${setting} = ${JSON.stringify(value)}  (reference value, not determined: ${why[0]})`);
  }

  // ------------------------------------------------------------ the discovery

  async run(): Promise<Discovery> {
    try {
      await this.errorPart();
      const defaults = await this.defaults();
      await this.creates();
      const scope = await this.idFilter();
      if (scope) {
        const sized = await this.pageSizeField(scope, defaults);
        if (sized) await this.pageNumberField(scope, sized, defaults);
        await this.pagingMinimums(scope);
        await this.largestPage(scope);
        await this.nameFilter(scope);
        await this.valueFilter(scope, 'groupType', CANDIDATES.groupType, 'agc-no-such-type', 'AIGC');
        await this.valueFilter(scope, 'assetSpaceId', CANDIDATES.assetSpaceId, 'agc-no-such-space', scope.assetSpaceId);
      }
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      this.notes.push(`${error.message}; the settings not yet probed stay at the reference values`);
      this.log(`stopped early: ${error.message}`);
    }
    this.keepTheRest();
    return {
      decisions: this.decisions,
      errorHasResult: this.errorHasResult,
      requests: this.requests,
      createRequests: this.createRequests,
      created: this.created.map((g) => ({ id: g.id, name: g.name })),
      runId: this.target.runId,
      namePrefix: this.namePrefix,
      notes: this.notes,
    };
  }

  /** Where the error kind sits: TokenAuthError is searched for anywhere in the body of a 401. */
  private async errorPart(): Promise<void> {
    const body = {};
    const answer = await this.call('ListAssetGroups', body, false);
    const seen = `ListAssetGroups ${this.show(body)} without Authorization -> HTTP ${answer.status}`;
    const whole = `the body of that answer: ${this.show(answer.json).slice(0, 300)}`;
    if (answer.status !== 401) {
      this.keep('error.codePointer', `${seen}: not the 401 the spec documents, so no error body to read the kind from`, whole);
      this.keep('error.messagePointer', 'see error.codePointer');
      return;
    }
    this.errorHasResult = isObject(answer.json) && 'Result' in answer.json;
    const found = pointersTo(answer.json, 'TokenAuthError');
    if (found.length !== 1) {
      this.keep('error.codePointer', `${seen}: TokenAuthError found ${found.length === 0 ? 'nowhere' : `at ${found.length} places (${found.join(', ')})`} in the body`, whole);
      this.keep('error.messagePointer', 'see error.codePointer');
      return;
    }
    const codePointer = found[0];
    if (/\/\d+(\/|$)/.test(codePointer) && Array.isArray(readPointer(answer.json, codePointer.replace(/\/\d+(\/.*)?$/, '')))) {
      // The draft's $defs describe objects only; an error part inside an array needs a hand-written schema.
      this.keep('error.codePointer', `${seen}: TokenAuthError is at ${codePointer}, inside an array; write error.codePointer and ProfileErrorDetail by hand`, whole);
      this.keep('error.messagePointer', 'see error.codePointer');
      return;
    }
    this.decide('error.codePointer', codePointer, `${seen}: TokenAuthError is at ${codePointer}`, whole);
    // The message is a string beside the kind, under a key that says so.
    const parent = codePointer.slice(0, codePointer.lastIndexOf('/'));
    const siblings = readPointer(answer.json, parent);
    const keys = isObject(siblings) ? Object.keys(siblings).filter((k) => typeof siblings[k] === 'string' && `${parent}/${k}` !== codePointer) : [];
    const messageKey = keys.find((k) => /^message$/i.test(k)) ?? keys.find((k) => /message|msg/i.test(k));
    if (messageKey === undefined) {
      this.keep('error.messagePointer', `${seen}: no string field named like a message beside ${codePointer}; set error.messagePointer by hand`);
      return;
    }
    this.messagePointer = `${parent}/${messageKey}`;
    this.decide('error.messagePointer', this.messagePointer, `the same 401: the string beside the kind is ${this.messagePointer} = ${JSON.stringify(String(siblings && (siblings as Record<string, unknown>)[messageKey]).slice(0, 80))}`);
  }

  /** Paging defaults: what an empty list body's answer says it used. */
  private async defaults(): Promise<{ pageNumber: number; pageSize: number }> {
    const body = {};
    const answer = await this.list(body);
    if (answer.status === 401) throw new TokenError(`AG_TOKEN was refused: ListAssetGroups {} -> ${this.summary(answer)}`);
    const seen = this.evidence('ListAssetGroups', body, answer);
    const result = resultOf(answer);
    const number = result?.PageNumber;
    const size = result?.PageSize;
    const fallback = { pageNumber: this.value<number>('list.pageNumber.default'), pageSize: this.value<number>('list.pageSize.default') };
    if (answer.status !== 200 || !result) {
      this.keep('list.pageNumber.default', `${seen}: no list result`);
      this.keep('list.pageSize.default', `${seen}: no list result`);
      return fallback;
    }
    const items = itemsOf(answer).length;
    if (Number.isInteger(number)) this.decide('list.pageNumber.default', number, `${seen}: a body without paging fields is answered as page ${number}`);
    else this.keep('list.pageNumber.default', `${seen}: PageNumber is not an integer`);
    if (Number.isInteger(size) && (size as number) >= items) this.decide('list.pageSize.default', size, `${seen}: a body without paging fields is answered with PageSize ${size}`);
    else this.keep('list.pageSize.default', `${seen}: PageSize ${this.show(size)} is not an integer at least the number of items`);
    return { pageNumber: Number.isInteger(number) ? (number as number) : fallback.pageNumber, pageSize: Number.isInteger(size) ? (size as number) : fallback.pageSize };
  }

  private name(label: string): string {
    return `${this.namePrefix}disc-${label}-${randomBytes(2).toString('hex')}`;
  }

  /** The fields every create must carry, found by the first create; the values sent for the optional ones. */
  private required: Record<string, string> = {};

  /**
   * Creates the run's groups, and learns from them which fields are required and how long Name and
   * Description may be: the groups that probe an accepted length are the run's data too.
   */
  private async creates(): Promise<void> {
    const filler: Record<string, string> = { Title: 'agc profile discover', Description: 'Created by agc profile discover', GroupType: 'AIGC', ProjectName: 'default' };
    let fields: Record<string, string> = { Name: this.name('a') };
    const refusals: string[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await this.create(fields);
      if (answer.status === 200) break;
      const seen = this.evidence('CreateAssetGroup', fields, answer);
      if (answer.status === 401) throw new TokenError(`AG_TOKEN was refused: ${seen}`);
      if (answer.status !== 400) throw new TargetError(`could not create a group: ${seen}`);
      refusals.push(seen);
      // A refusal that names missing fields is believed; one that names none gets every field.
      const message = this.messageOf(answer);
      const named = CREATE_FIELDS.filter((f) => !(f in fields) && new RegExp(`\\b${f}\\b`, 'i').test(message));
      const next = named.length ? named : CREATE_FIELDS.filter((f) => !(f in fields));
      if (!next.length) throw new TargetError(`could not create a group even with every field: ${seen}`);
      fields = { ...fields, ...Object.fromEntries(next.map((f) => [f, filler[f]])) };
    }
    const first = this.created[0];
    if (!first) throw new TargetError(`could not create a group: ${refusals[refusals.length - 1] ?? 'no answer'}`);
    const requiredFields = Object.keys(first.sent);
    this.required = Object.fromEntries(Object.entries(first.sent).filter(([k]) => k !== 'Name'));
    this.decide('create.requiredFields', requiredFields, ...refusals, `CreateAssetGroup ${this.show(first.sent)} -> HTTP 200, Id g1: ${requiredFields.join(', ')} suffice${refusals.length ? ' (each field added because a refusal named it or named none)' : ''}; whether Name itself may be left out is not probed (a group without a Name would not carry the run prefix)`);

    await this.lengthBound('Name', [...first.name].length, 2048, (length) => ({ ...this.required, Name: `${this.name('n')}`.padEnd(length, 'x').slice(0, Math.max(length, this.namePrefix.length)) }));
    const description = first.sent.Description;
    await this.lengthBound('Description', description === undefined ? 0 : [...description].length, 10_000, (length) => ({ ...this.required, Name: this.name('d'), Description: 'x'.repeat(length) }));
    // Paging needs at least three of the run's groups.
    while (this.created.length < 3) {
      const fields = { ...this.required, Name: this.name(`g${this.created.length}`) };
      const answer = await this.create(fields);
      if (answer.status !== 200) throw new TargetError(`could not create a group: ${this.evidence('CreateAssetGroup', fields, answer)}`);
    }
  }

  /**
   * The largest length a create accepts for one field. A refusal's message usually names the bound
   * ("at most 64 characters"): it is then checked with two creates, bound and bound + 1. Otherwise
   * the bound is bisected over common values, then exactly, within the budgets.
   */
  private async lengthBound(field: 'Name' | 'Description', accepted: number, big: number, body: (length: number) => Record<string, string>): Promise<void> {
    const setting = `create.maxLength.${field}`;
    const outcomes: string[] = [];
    const probe = async (length: number): Promise<'accepted' | 'refused'> => {
      const fields = body(length);
      const answer = await this.create(fields);
      outcomes.push(this.evidence('CreateAssetGroup', fields, answer));
      this.lastMessage = this.messageOf(answer);
      if (answer.status === 200) return 'accepted';
      if (answer.status === 400) return 'refused';
      throw new TargetError(`a create of ${field} with ${length} characters got neither 200 nor 400: ${outcomes[outcomes.length - 1]}`);
    };
    const found = await this.bound(accepted, big, probe, setting, outcomes, 'characters', 9);
    if (found !== undefined) this.decide(setting, found, ...outcomes);
  }

  /**
   * Finds the largest value `probe` accepts, knowing `lo` is accepted. Refusal messages name
   * candidate bounds; else common bounds are bisected, then values, while the budgets last.
   * Returns undefined (and keeps the reference value, with the reason) when it cannot tell.
   */
  private async bound(
    lo: number,
    big: number,
    probe: (value: number) => Promise<'accepted' | 'refused'>,
    setting: string,
    outcomes: string[],
    unit: string,
    maxProbes = 8,
  ): Promise<number | undefined> {
    let probes = 0;
    const ask = async (value: number) => {
      probes++;
      return probe(value);
    };
    if ((await ask(big)) === 'accepted') {
      this.keep(setting, ...outcomes, `${big} ${unit} were accepted: no bound below that; the kit expects a refusal above the profile's bound, so set it to what the target documents`);
      return undefined;
    }
    let hi = big;
    // The numbers a refusal names, largest first, between what is known to pass and to fail.
    const hints = [...new Set((this.lastMessage ?? '').match(/\d+/g)?.map(Number) ?? [])].filter((n) => n > lo && n < hi).sort((a, b) => b - a);
    for (const hint of hints.slice(0, 2)) {
      if ((await ask(hint + 1)) === 'accepted') {
        lo = hint + 1;
        continue;
      }
      hi = hint + 1;
      if ((await ask(hint)) === 'accepted') return hint;
      hi = hint;
    }
    // Bisect over common bounds, then over values, while probes remain.
    let triedJustAbove = false;
    for (;;) {
      if (hi - lo <= 1) return lo;
      if (probes >= maxProbes) {
        this.keep(setting, ...outcomes, `between ${lo} (accepted) and ${hi} (refused) ${unit}; the probe budget for this setting is spent`);
        return undefined;
      }
      const common = COMMON_BOUNDS.filter((c) => c > lo && c < hi);
      // Once no common bound is left between them, the likeliest bound is the accepted one (often
      // itself a common bound): one probe just above it settles that, else plain bisection.
      let value: number;
      if (common.length) value = common[Math.floor(common.length / 2)];
      else if (!triedJustAbove) {
        triedJustAbove = true;
        value = lo + 1;
      } else value = Math.floor((lo + hi) / 2);
      if ((await ask(value)) === 'accepted') lo = value;
      else hi = value;
    }
  }

  /** The message of the last refusal seen by `bound`'s probes. */
  private lastMessage: string | undefined;

  /** Which Id-filter name (and filter object) restricts a list to the given Ids; also waits until the run's groups are visible. */
  private async idFilter(): Promise<Scope | undefined> {
    const last = this.created[this.created.length - 1];
    const all = this.created.map((g) => g.id);
    const deadline = Date.now() + this.target.visibilityTimeoutMs;
    const eliminated: string[] = [];
    let wait = 200;
    let waits = 0;
    for (const wrapper of CANDIDATES.filterField) {
      for (const ids of CANDIDATES.groupIds) {
        const body = { [wrapper]: { [ids]: [last.id] } };
        for (;;) {
          const answer = await this.list(body);
          const seen = this.evidence('ListAssetGroups', body, answer);
          const got = idsOf(answer);
          const total = resultOf(answer)?.TotalCount;
          if (answer.status === 200 && got.length === 1 && got[0] === last.id && total === 1) {
            const confirmed = await this.confirmScope(wrapper, ids, all, deadline);
            if (confirmed) {
              this.decide('list.filterField', wrapper, seen, confirmed.evidence);
              this.decide('list.filters.groupIds', ids, seen, confirmed.evidence);
              return confirmed.scope;
            }
            eliminated.push(`${wrapper}.${ids} (not confirmed over all ${all.length} of the run's groups)`);
            break;
          }
          if (answer.status !== 200 || got.some((id) => id !== last.id) || (typeof total === 'number' && total > 1)) {
            eliminated.push(`${wrapper}.${ids}: ${this.summary(answer)}`);
            break;
          }
          // Nothing listed: the filter works and the group is not visible yet, or the target has
          // none of this user's groups visible at all. Only time tells them apart.
          if (Date.now() + wait > deadline || waits >= 12) {
            const why = `none of the run's groups became visible within ${this.target.visibilityTimeoutMs} ms (AG_VISIBILITY_TIMEOUT_MS), or the Id filter is none of ${CANDIDATES.filterField.join('/')} x ${CANDIDATES.groupIds.join('/')}; last: ${seen}`;
            this.notes.push(why);
            this.keep('list.filterField', why);
            this.keep('list.filters.groupIds', why);
            return undefined;
          }
          waits++;
          await sleep(wait);
          // Doubling, then steps of an eighth of the visibility timeout: 12 waits span all of it.
          wait = Math.min(wait * 2, Math.max(3000, this.target.visibilityTimeoutMs / 8));
        }
      }
    }
    const why = `no candidate restricted a list to one of the run's groups: ${eliminated.join('; ')}`;
    this.notes.push('the Id filter was not found, so nothing that needs the run\'s own data could be probed');
    this.keep('list.filterField', why);
    this.keep('list.filters.groupIds', why);
    return undefined;
  }

  /** All the run's groups, and only they, under the Id filter; polled while some are not visible yet. */
  private async confirmScope(wrapper: string, ids: string, all: string[], deadline: number): Promise<{ scope: Scope; evidence: string } | undefined> {
    let wait = 200;
    for (let polls = 0; polls < 6; polls++) {
      const body = { [wrapper]: { [ids]: all } };
      const answer = await this.list(body);
      const got = idsOf(answer);
      const total = resultOf(answer)?.TotalCount;
      if (answer.status !== 200 || got.some((id) => !all.includes(id)) || (typeof total === 'number' && total > all.length)) return undefined;
      if (total === all.length) {
        const item = itemsOf(answer)[0];
        return {
          scope: { wrapper, ids, all, assetSpaceId: typeof item?.AssetSpaceId === 'string' ? item.AssetSpaceId : undefined, items: itemsOf(answer) },
          evidence: `${this.evidence('ListAssetGroups', body, answer)}: exactly the run's ${all.length} groups`,
        };
      }
      if (Date.now() + wait > deadline) return undefined;
      await sleep(wait);
      wait = Math.min(wait * 2, 3000);
    }
    return undefined;
  }

  private scoped(scope: Scope, extra: Record<string, unknown> = {}, filters: Record<string, unknown> = {}, ids = scope.all): Record<string, unknown> {
    return { [scope.wrapper]: { [scope.ids]: ids, ...filters }, ...extra };
  }

  /** The page-size field: a size of 1 (2 when the default is 1) over the run's groups returns that many and echoes it. */
  private async pageSizeField(scope: Scope, defaults: { pageSize: number }): Promise<{ field: string; firstId: string } | undefined> {
    const size = defaults.pageSize === 1 ? 2 : 1;
    const eliminated: string[] = [];
    for (const field of CANDIDATES.pageSize) {
      const body = this.scoped(scope, { [field]: size });
      const answer = await this.list(body);
      const seen = this.evidence('ListAssetGroups', body, answer);
      if (answer.status === 200 && itemsOf(answer).length === size && resultOf(answer)?.PageSize === size) {
        this.decide('list.pageSize.field', field, `${seen}: ${size} of the run's ${scope.all.length} groups`);
        return { field, firstId: idsOf(answer)[0] };
      }
      eliminated.push(`${field}: ${this.summary(answer)}`);
    }
    this.keep('list.pageSize.field', `a page size of ${size} over the run's ${scope.all.length} groups was ignored or refused under every name tried: ${eliminated.join('; ')}`);
    return undefined;
  }

  /** The page-number field: page 2 of size 1 echoes 2 and holds another group than page 1. */
  private async pageNumberField(scope: Scope, sized: { field: string; firstId: string }, defaults: { pageNumber: number }): Promise<void> {
    const page = defaults.pageNumber + 1;
    const eliminated: string[] = [];
    // Page 1's first group: the size probe's (of size 1, or 2 when the default size is 1).
    const first = sized.firstId;
    for (const field of CANDIDATES.pageNumber) {
      const body = this.scoped(scope, { [sized.field]: 1, [field]: page });
      const answer = await this.list(body);
      const seen = this.evidence('ListAssetGroups', body, answer);
      const got = idsOf(answer);
      if (answer.status === 200 && resultOf(answer)?.PageNumber === page && got.length === 1 && got[0] !== first) {
        this.decide('list.pageNumber.field', field, `${seen}: another group than page ${defaults.pageNumber} (${first})`);
        return;
      }
      eliminated.push(`${field}: ${this.summary(answer)}`);
    }
    this.keep('list.pageNumber.field', `page ${page} of size 1 was ignored or refused under every name tried: ${eliminated.join('; ')}`);
  }

  /** The smallest page number and size: one below the default page and a size of 0 should be refused. */
  private async pagingMinimums(scope: Scope): Promise<void> {
    for (const [setting, below, minimum] of [
      ['list.pageNumber', this.value<number>('list.pageNumber.default') - 1, this.value<number>('list.pageNumber.default')],
      ['list.pageSize', 0, 1],
    ] as const) {
      const field = this.value<string>(`${setting}.field`);
      if (!this.decisions.get(`${setting}.field`)?.determined) {
        this.keep(`${setting}.minimum`, `${setting}.field is not known`);
        continue;
      }
      const body = this.scoped(scope, { [field]: below });
      const answer = await this.list(body);
      const seen = this.evidence('ListAssetGroups', body, answer);
      if (answer.status === 400) {
        this.decide(`${setting}.minimum`, minimum, `${seen}: ${below} is refused`);
        this.confirmErrorKind(answer, 'AssetBadRequest', seen);
      } else this.keep(`${setting}.minimum`, `${seen}: ${below} was not refused; the kit expects a 400 below the minimum (PAGE-07), review this`);
    }
  }

  private errorKindConfirmed = false;

  /** A second look at the error pointer, on a 400 of the list. */
  private confirmErrorKind(answer: Answer, kind: string, seen: string): void {
    const decision = this.decisions.get('error.codePointer');
    if (!decision?.determined || this.errorKindConfirmed) return;
    this.errorKindConfirmed = true;
    const code = readPointer(answer.json, decision.value as string);
    decision.evidence.push(code === kind ? `${seen}: ${kind} at ${decision.value} too` : `${seen}: but ${this.show(code)} at ${decision.value}, not ${kind}; review this`);
  }

  /** The largest page size accepted: what is refused past it, by the message's bound or by bisection. */
  private async largestPage(scope: Scope): Promise<void> {
    const setting = 'list.pageSize.maximum';
    if (!this.decisions.get('list.pageSize.field')?.determined) return this.keep(setting, 'list.pageSize.field is not known');
    const field = this.value<string>('list.pageSize.field');
    const outcomes: string[] = [];
    let clamped: number | undefined;
    const probe = async (size: number): Promise<'accepted' | 'refused'> => {
      const body = this.scoped(scope, { [field]: size });
      const answer = await this.list(body);
      outcomes.push(this.evidence('ListAssetGroups', body, answer));
      this.lastMessage = this.messageOf(answer);
      const echo = resultOf(answer)?.PageSize;
      if (answer.status === 200 && echo === size) return 'accepted';
      if (answer.status === 200 && typeof echo === 'number' && echo < size) clamped = echo;
      if (answer.status === 200 || answer.status === 400) return 'refused';
      throw new TargetError(`a page size of ${size} got neither 200 nor 400: ${outcomes[outcomes.length - 1]}`);
    };
    const lo = Math.max(this.value<number>('list.pageSize.default'), 1);
    const found = await this.bound(lo, 1000, probe, setting, outcomes, 'items per page', 10);
    if (found === undefined) return;
    const note = clamped !== undefined ? `; larger sizes are answered with PageSize ${clamped} instead of a 400: the kit expects a 400 above the maximum (PAGE-07), review this` : '';
    this.decide(setting, found, ...outcomes.slice(0, -1), `${outcomes[outcomes.length - 1]}${note}`);
  }

  /** The Name filter's field and how it matches, over two of the run's groups. */
  private async nameFilter(scope: Scope): Promise<void> {
    const [a, other] = [this.created[0], this.created.find((g, i) => i > 0 && g.name.length < 60) ?? this.created[1]];
    const pair = [a.id, other.id];
    let field: string | undefined;
    const eliminated: string[] = [];
    for (const candidate of CANDIDATES.name) {
      const body = this.scoped(scope, {}, { [candidate]: a.name }, pair);
      const answer = await this.list(body);
      const seen = this.evidence('ListAssetGroups', body, answer);
      const got = idsOf(answer);
      if (answer.status === 200 && got.length === 1 && got[0] === a.id) {
        this.decide('list.filters.name', candidate, `${seen}: only the group of that Name, of two`);
        field = candidate;
        const item = itemsOf(answer)[0];
        this.projectNameDefault(a, item, seen);
        break;
      }
      eliminated.push(`${candidate}: ${this.summary(answer)}`);
    }
    if (!field) {
      this.keep('list.filters.name', `a full Name did not narrow two of the run's groups to one under any name tried: ${eliminated.join('; ')}`);
      this.keep('list.nameMatch', 'the Name filter is not known');
      return;
    }
    // Part of both Names, neither at their start nor their end.
    const infix = `${this.target.runId}-disc`;
    const body = this.scoped(scope, {}, { [field]: infix }, pair);
    const answer = await this.list(body);
    const seen = this.evidence('ListAssetGroups', body, answer);
    const count = idsOf(answer).length;
    if (answer.status === 200 && count === 0) return this.decide('list.nameMatch', 'exact', `${seen}: a part of both Names matches neither`);
    if (answer.status !== 200 || count !== 2) return this.keep('list.nameMatch', `${seen}: neither 0 nor both groups`);
    const upper = this.scoped(scope, {}, { [field]: infix.toUpperCase() }, pair);
    const upperAnswer = await this.list(upper);
    const upperSeen = this.evidence('ListAssetGroups', upper, upperAnswer);
    if (upperAnswer.status === 200 && idsOf(upperAnswer).length === 2) return this.decide('list.nameMatch', 'case-insensitive-substring', `${seen}: a part of both Names matches both`, `${upperSeen}: in upper case too`);
    this.keep('list.nameMatch', `${seen}: a part of both Names matches both`, `${upperSeen}: but not in upper case; the profile knows only case-insensitive-substring and exact, so the kit's upper-case query will fail`);
  }

  /** The default ProjectName, from the list item of the first group when it was created without one. */
  private projectNameDefault(first: Group, item: Record<string, unknown> | undefined, seen: string): void {
    if ('ProjectName' in first.sent) return this.keep('create.defaults.ProjectName', 'every create had to carry a ProjectName, so no default could be seen');
    const value = item?.ProjectName;
    if (typeof value === 'string') this.decide('create.defaults.ProjectName', value, `CreateAssetGroup without ProjectName (${this.show(first.id)}), then ${seen}: its ProjectName is ${JSON.stringify(value)}`);
    else this.keep('create.defaults.ProjectName', `${seen}: the item has no string ProjectName`);
    const created = item?.CreateTime;
    if (typeof created === 'string' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(created)) {
      this.notes.push(`CreateTime ${JSON.stringify(created)} is not RFC 3339 with Z: the reference profile's timestamps.format would fail it; the profile cannot express another format`);
    }
  }

  /**
   * A filter on a value (group type, asset space): a value no group has empties the answer when the
   * name is known. A 400 is ambiguous (an unknown name, or a known name refusing the value), so a
   * value the run's groups do have settles it.
   */
  private async valueFilter(scope: Scope, key: 'groupType' | 'assetSpaceId', candidates: readonly string[], none: string, real: string | undefined): Promise<void> {
    const setting = `list.filters.${key}`;
    const eliminated: string[] = [];
    for (const candidate of candidates) {
      const body = this.scoped(scope, {}, { [candidate]: none });
      const answer = await this.list(body);
      const seen = this.evidence('ListAssetGroups', body, answer);
      if (answer.status === 200 && idsOf(answer).length === 0 && resultOf(answer)?.TotalCount === 0) return this.decide(setting, candidate, `${seen}: none of the run's groups`);
      if (answer.status === 400 && real !== undefined) {
        const realBody = this.scoped(scope, {}, { [candidate]: real });
        const realAnswer = await this.list(realBody);
        if (realAnswer.status === 200 && resultOf(realAnswer)?.TotalCount === scope.all.length) {
          return this.decide(setting, candidate, `${seen}: refused`, `${this.evidence('ListAssetGroups', realBody, realAnswer)}: accepted with the run's own value`);
        }
      }
      eliminated.push(`${candidate}: ${this.summary(answer)}`);
    }
    this.keep(setting, `no name tried narrowed the run's groups: ${eliminated.join('; ')}`);
  }

  /** Everything not probed, with the reason. */
  private keepTheRest(): void {
    const why: Record<string, string> = {
      'create.groupTypes': 'not probed: a create with another GroupType would leave a group of that type on the target',
      'timestamps.format': 'not probed: the profile knows one format',
      'create.defaults.ProjectName': 'not probed',
    };
    for (const setting of [
      'error.codePointer', 'error.messagePointer',
      'list.filterField', 'list.filters.groupIds', 'list.filters.name', 'list.filters.groupType', 'list.filters.assetSpaceId', 'list.nameMatch',
      'list.pageNumber.field', 'list.pageNumber.default', 'list.pageNumber.minimum',
      'list.pageSize.field', 'list.pageSize.default', 'list.pageSize.minimum', 'list.pageSize.maximum',
      'create.requiredFields', 'create.maxLength.Name', 'create.maxLength.Description', 'create.defaults.ProjectName', 'create.groupTypes', 'timestamps.format',
    ]) {
      if (!this.decisions.has(setting)) this.keep(setting, why[setting] ?? 'not probed: an earlier step could not be completed, or the budget ran out');
    }
  }
}

/** The Id filter once found: every later list request is limited to the run's own groups through it. */
interface Scope {
  wrapper: string;
  ids: string;
  all: string[];
  assetSpaceId: string | undefined;
  items: Record<string, unknown>[];
}
