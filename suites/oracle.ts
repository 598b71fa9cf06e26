/**
 * The run-wide oracle: every answer the run receives (the phase's, those sent ahead, every test's and every property's)
 * is judged by the spec's universal rules, wherever it was received, against a model of what the run created. A test
 * judges the answers it expects with the checks it chose; a deviation that shows on an answer another test received,
 * or on a value no test reads back, would slip between tests. Each rule is a check owned by the requirement whose
 * sentence it is; a finding goes to that requirement, with the test that met it as its place. Pure: the Api hands each
 * answer in (Api.observe), the test's fixture records what was found (suites/fixtures.ts).
 */
import type { Exchange } from '../client/exchange';
import type { TokenRole } from '../config';
import type { RequirementId } from '../facts/requirement-ids';
import { filterPointer, readPointer, type Profile } from '../schemas/profile';
import { parseJson } from '../schemas/spec';
import {
  JSON_ANSWER,
  ONLY_THAT_CHANNEL,
  OPERATIONS,
  countOfWholePage,
  documentedStatus,
  echoesAction,
  echoesVersion,
  envelopeOf,
  errorKindFitsStatus,
  errorKindReadable,
  errorNotAsSuccess,
  filtersHold,
  itemMatchesSent,
  itemsOf,
  itemsWithinResultPageSize,
  listShape,
  listsNoneOf,
  owned,
  resultPresent,
  timestampsUtc,
  totalCoversPage,
  type CheckContext,
  type FilterQuery,
  type Failure,
  type Step,
} from './checks';
import { judgeSteps } from './judging-steps';
import { VERSION, roleOf } from './call';
import type { Dataset, ValueFilter } from './dataset';

/** A group the run created (its create answered 200 with an Id): the values it sent, and the token it went through. */
export interface CreatedGroup {
  id: string;
  sent: Record<string, string>;
  via: TokenRole;
}

/** What the oracle judges against: the checks' context, what the run created, and what the phase showed of the target. */
export interface OracleContext extends CheckContext {
  /** By Id; null where two creates were answered the same Id. */
  created: ReadonlyMap<string, CreatedGroup | null>;
  /** The profile points the target showed it reads otherwise (the phase's): no rule judges a filter or paging it does not read. */
  mismatch?: Pick<Dataset, 'profileMismatch' | 'ignoredFilters'>;
}

export interface OracleFinding {
  requirement: RequirementId;
  failure: Failure;
}

/**
 * A create of the model: only values the spec lets a client send and expect back as sent (strings, each well-formed
 * Unicode; a lone surrogate has no UTF-8 form, and what a stack makes of it is INPUT-07's, not CREATE-02's).
 */
export function createdGroupOf(exchange: Exchange, via: TokenRole | null): CreatedGroup | undefined {
  const id = readPointer(exchange.response?.json, '/Result/Id');
  if (exchange.response?.status !== 200 || exchange.request.action !== 'CreateAssetGroup' || typeof id !== 'string' || !id || !via) return undefined;
  const body = parseJson(exchange.request.body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const sent = Object.fromEntries(Object.entries(body).filter(([field]) => CREATE_FIELDS.includes(field)));
  if (!Object.values(sent).every((value) => typeof value === 'string' && !LONE_SURROGATE.test(value))) return undefined;
  return { id, sent: sent as Record<string, string>, via };
}

const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'];
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The filters a list body asks, in the kit's terms, where each holds a value of the type the spec names (a string; the Ids a list). */
export function queryOf(profile: Profile, body: unknown): FilterQuery {
  const { list } = profile;
  const at = (filter: keyof typeof list.filters) => readPointer(body, filterPointer(list, list.filters[filter]));
  const query: FilterQuery = {};
  for (const filter of ['assetSpaceId', 'groupType', 'name'] as const) {
    const value = at(filter);
    if (typeof value === 'string') query[filter] = value;
  }
  const ids = at('groupIds');
  if (Array.isArray(ids) && ids.length && ids.every((id) => typeof id === 'string')) query.groupIds = ids;
  else if (typeof ids === 'string' && ids && list.idFilterTakes === 'one') query.groupIds = [ids];
  return query;
}

/** The filters the target showed it reads otherwise, or ignores: their owners' tests judge that, once. */
function readFilters(query: FilterQuery, ctx: OracleContext): FilterQuery {
  const mismatch = ctx.mismatch?.profileMismatch;
  const skip = new Set<string>([...Object.keys(mismatch?.filters ?? {}), ...(ctx.mismatch?.ignoredFilters ?? []), ...(mismatch?.idFilter ? ['groupIds'] : [])]);
  return Object.fromEntries(Object.entries(query).filter(([filter]) => !skip.has(filter as ValueFilter))) as FilterQuery;
}

/** What the spec says of every answer to a request of one of its operations, sent as the spec says (its Version). */
function wireRules(ex: Exchange): Step[][] {
  const envelope = [JSON_ANSWER, ...envelopeOf(ex)];
  return [
    [...envelope, owned('VER-01', echoesVersion), owned('VER-02', echoesAction)],
    [owned('ERR-02', errorNotAsSuccess), owned('ERR-03', documentedStatus)],
    // The kind of an error to a request of a configured token, once it can be read where the profile keeps it (ERR-01's,
    // or a mismatch naming the setting): the AUTH tests own what answers a request without one.
    ...(ex.response && ex.response.status >= 400 && roleOf(ex)
      ? [[...envelope, owned('ERR-01', errorKindReadable), owned('ERR-02', errorKindFitsStatus)]]
      : []),
  ];
}

/**
 * Whose sentence a group of another user breaks, listed to the caller: the scope requirement of the query that listed it.
 * By Id SCOPE-02, by Name SCOPE-03, by asset space or group type SCOPE-04, else SCOPE-01. Whichever user asked: the second
 * user shown the primary's groups, or the primary shown the second user's (GROUPS.secondUser).
 */
function userScopeOwner(query: FilterQuery): RequirementId | undefined {
  const owners = new Set<RequirementId>([
    ...(query.groupIds ? (['SCOPE-02'] as const) : []),
    ...(query.name !== undefined ? (['SCOPE-03'] as const) : []),
    ...(query.assetSpaceId !== undefined || query.groupType !== undefined ? (['SCOPE-04'] as const) : []),
  ]);
  // Filters of two of them together: which one let the group through, no answer says; their own tests judge it.
  if (owners.size > 1) return undefined;
  return owners.size ? [...owners][0] : 'SCOPE-01';
}

/** The user a token acts for: the second user's token, or any of the primary user's (unbound, or bound to a channel). */
const userOf = (role: TokenRole): 'second' | 'primary' => (role === 'otherUser' ? 'second' : 'primary');

/** A channel-bound token shown the other channel's group: through any filter CHAN-04's, else CHAN-02's. */
const channelsCross = (role: TokenRole, via: TokenRole): boolean => (role === 'channelA' && via === 'channelB') || (role === 'channelB' && via === 'channelA');

/** What the spec says of every list a configured token was given: the filters asked hold, the paging adds up, the scope holds, and the run's groups come back as sent. */
function listRules(ex: Exchange, ctx: OracleContext, role: TokenRole): Step[][] {
  // An error answered 200 is ERR-02's (the wire rules), not a list without a Result.
  const base: Step[] = [JSON_ANSWER, owned('ERR-02', errorNotAsSuccess), owned('ENV-06', resultPresent), owned('SCHEMA-02', listShape)];
  const rules: Step[][] = [[...base, owned('SCHEMA-03', timestampsUtc)]];
  const query = queryOf(ctx.profile, parseJson(ex.request.body));
  const read = readFilters(query, ctx);
  const filters = filtersHold(read).slice(1);
  if (filters.length) rules.push([...base, ...filters]);
  // A count by Ids only where the target showed it reads the Id filter as the profile says.
  const byIds = read.groupIds ? [owned('PAGE-04', countOfWholePage)] : [];
  if (!ctx.mismatch?.profileMismatch?.paging) rules.push([...base, owned('PAGE-01', itemsWithinResultPageSize), owned('PAGE-04', totalCoversPage), ...byIds]);
  const listed = new Set(itemsOf(ex).map((item) => item.Id));
  const mine = [...ctx.created.values()].filter((group): group is CreatedGroup => !!group && listed.has(group.id));
  // No user sees the other's groups; a channel-bound token sees none of the other channel's.
  const otherUsers = mine.filter((group) => userOf(group.via) !== userOf(role)).map((group) => group.id);
  const owner = userScopeOwner(query);
  if (otherUsers.length && owner) rules.push([owned(owner, listsNoneOf(otherUsers, 'The result covers only the groups of the current user.'))]);
  const otherChannel = mine.filter((group) => channelsCross(role, group.via)).map((group) => group.id);
  if (otherChannel.length) rules.push([owned(Object.keys(query).length ? 'CHAN-04' : 'CHAN-02', listsNoneOf(otherChannel, ONLY_THAT_CHANNEL))]);
  for (const group of mine) rules.push([...base, owned('CREATE-02', itemMatchesSent(group.id, group.sent, {}))]);
  return rules;
}

/**
 * Every rule the spec gives for this answer, each chain judged on its own (a chain stops at its first failure: a body
 * that is not JSON has no envelope to read); a throttled answer (429, 503), which the kit waits out, says nothing.
 */
export function judgeAnswer(ex: Exchange, ctx: OracleContext): OracleFinding[] {
  const status = ex.response?.status;
  const ours = ex.request.method === 'POST' && OPERATIONS.includes(ex.request.action as never) && ex.request.version === VERSION;
  if (!ours || !ex.response || status === 429 || status === 503) return [];
  const role = roleOf(ex);
  const chains = [...wireRules(ex), ...(status === 200 && ex.request.action === 'ListAssetGroups' && role ? listRules(ex, ctx, role) : [])];
  const findings: OracleFinding[] = [];
  for (const steps of chains) {
    const judgement = judgeSteps(ex, steps, undefined, ctx);
    if (judgement.kind !== 'blocked') continue;
    // Chains share their first steps (a body that is not JSON): one finding each.
    if (!findings.some((f) => f.requirement === judgement.owner && f.failure.check === judgement.failure.check))
      findings.push({ requirement: judgement.owner, failure: judgement.failure });
  }
  return findings;
}

/** The findings of many answers, each distinct one once (its requirement, check and what was received), with how many answers showed it. */
export class Findings {
  private readonly byKey = new Map<string, { finding: OracleFinding; exchange: Exchange; count: number }>();

  add(exchange: Exchange, findings: OracleFinding[]): void {
    for (const finding of findings) {
      // What was received names the values; the same deviation on another answer is another entry only where it differs.
      const key = JSON.stringify([finding.requirement, finding.failure.check, finding.failure.received]);
      const known = this.byKey.get(key);
      if (known) known.count++;
      else this.byKey.set(key, { finding, exchange, count: 1 });
    }
  }

  /** One per requirement and check: the first answer that showed it, and how many answers did. */
  distinct(): { finding: OracleFinding; exchange: Exchange; count: number }[] {
    const byCheck = new Map<string, { finding: OracleFinding; exchange: Exchange; count: number }>();
    for (const entry of this.byKey.values()) {
      const key = `${entry.finding.requirement} ${entry.finding.failure.check}`;
      const known = byCheck.get(key);
      if (known) known.count += entry.count;
      else byCheck.set(key, { ...entry });
    }
    return [...byCheck.values()];
  }
}
