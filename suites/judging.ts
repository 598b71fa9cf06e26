/**
 * What verify and judge (suites/fixtures.ts) do with a failure before it fails the test: a group missing from a list
 * read back to tell lost from filtered out, a profile mismatch made "not assessable", a failed MUST judged once more.
 */
import { test as base, type TestInfo } from '@playwright/test';
import { Api, createdHere, listBody, seenBy } from './api';
import { plainReadOf, roleOf } from './call';
import { judgeSteps, judgeTogether } from './judging-steps';

export { judgeSteps, judgeTogether };
import type { Exchange } from '../client/exchange';
import { formatFailure, idsAsked, itemsOf, type Check, type CheckContext, type Failure, idFilterHoldsAll, staysVisible } from './checks';
import type { Judgement } from '../facts/judgement';
import { loadCatalogue } from '../schemas/requirements';
import { loadDataset, VALUE_FILTERS, visibilityBound, type Dataset, type ValueFilter } from './dataset';
import { holdMismatch, ownRequirement, recordBlocked as blocked, recordEvidence, recordFinding, recordProfileMismatch } from '../facts/record';
import { readPointer, type Profile } from '../schemas/profile';
import { parseJson } from '../schemas/spec';
import { setTimeout as sleep } from 'node:timers/promises';

export function notAssessable(testInfo: TestInfo, failure: Failure, exchange: Exchange | Exchange[]): void {
  const evidence = Array.isArray(exchange) ? { failure, exchange: exchange[0], exchanges: exchange } : { failure, exchange };
  // Under mismatchesLast the test judges its other answers first: one of them may fail whatever the profile.
  if (holdMismatch(testInfo, failure.profileMismatch!, evidence)) return;
  recordProfileMismatch(testInfo, failure.profileMismatch!, evidence);
}

/**
 * Reads each missing group back by its Id, twice, with the token of the original query. A group
 * that was seen before and is missing from one of these reads is lost from the snapshot (VIS-02's
 * finding wherever it is noticed); one every read shows was left out by the query itself.
 */
export async function blockIfLost(testInfo: TestInfo, api: Api, p: Profile, context: CheckContext, exchange: Exchange, ids: string[]): Promise<void> {
  const own = ownRequirement(testInfo);
  const { lost, foundAlone } = await lostGroups(api, p, exchange, ids);
  // VIS-02's own test judges lost groups itself.
  if (lost.length && own !== 'VIS-02') {
    const finding = staysVisible(lost)(exchange, context)!;
    recordFinding(testInfo, { requirement: 'VIS-02', failure: finding, exchange });
    blocked(testInfo, ['VIS-02'], finding.received);
  }
  // Missing from a query by several Ids, yet each found when asked for alone: the Id filter drops Ids (LIST-04's).
  const askedIds = idsWithRoomToSpare(p, exchange);
  if (foundAlone.length && askedIds && askedIds.length > 1 && own !== 'LIST-04') {
    // The Ids known to exist: those this answer listed, and those listed when asked for alone.
    const listed = itemsOf(exchange).map((item) => item.Id as string);
    const finding = idFilterHoldsAll([...listed.filter((id) => askedIds.includes(id)), ...foundAlone])(exchange);
    if (finding) {
      recordFinding(testInfo, { requirement: 'LIST-04', failure: finding, exchange });
      blocked(testInfo, ['LIST-04'], finding.received);
    }
  }
}

/**
 * The Ids a query asked for, where its first page has room to spare for all of them: only there does a group missing say
 * the Id filter dropped it. On a later page, or on one exactly as large as the Ids asked, it may be missing for the
 * paging's sake (a full page one item short is PAGE-05's, found with a random seed against pagesShortByOne).
 */
export function idsWithRoomToSpare(p: Profile, exchange: Exchange): unknown[] | undefined {
  const sent = parseJson(exchange.request.body);
  const askedIds = idsAsked(p.list, sent);
  const pageNumber = readPointer(sent, `/${p.list.pageNumber.field}`) ?? p.list.pageNumber.default;
  const pageSize = readPointer(sent, `/${p.list.pageSize.field}`) ?? p.list.pageSize.default;
  const room = !!askedIds && pageNumber === p.list.pageNumber.minimum && typeof pageSize === 'number' && pageSize > askedIds.length;
  return room ? askedIds : undefined;
}

/**
 * The missing groups, each read back alone by its Id, with the token of the original query: those this
 * token saw before and a read missed are lost (VIS-02's); those every read found were left out by the
 * query itself.
 */
async function lostGroups(api: Api, p: Profile, exchange: Exchange, ids: string[]): Promise<{ lost: string[]; foundAlone: string[] }> {
  const role = roleOf(exchange);
  if (!role) return { lost: [], foundAlone: [] };
  const missed = new Set<string>();
  for (let round = 0; round < 2; round++) {
    const reads = await Promise.all(
      ids.map((id) => api.call('ListAssetGroups', listBody(p, { groupIds: [id], pageSize: p.list.pageSize.maximum }), { as: role, fresh: true })),
    );
    reads.forEach((read, i) => {
      if (!itemsOf(read).some((item) => item.Id === ids[i])) missed.add(ids[i]);
    });
  }
  return { lost: [...missed].filter((id) => seenBy(api.runId, role).has(id)), foundAlone: ids.filter((id) => !missed.has(id)) };
}

/**
 * The same read sent again once the visibility bound of the groups it missed has passed, where it was sent before:
 * within the bound a group may be missing from a read, even one after a read that listed it (replicas, each with its
 * own snapshot; a snapshot reloaded from an older copy). Only a read after the bound tells a group lost, or a filter
 * that drops it. Undefined where the read was after the bound, the groups' creates are not the run's record, or the
 * read is not a plain one to send again (Api.again).
 */
export async function afterBound(api: Api, runId: string, exchange: Exchange, missing: string[]): Promise<Exchange | undefined> {
  return (await allAfterBound(api, runId, [exchange], missing))?.[0];
}

/** The reads of a walk sent again once the bound of the groups it missed has passed (afterBound), all or none. */
export async function allAfterBound(api: Api, runId: string, exchanges: Exchange[], missing: string[]): Promise<Exchange[] | undefined> {
  // The run's groups, and those this worker's tests created (the model's).
  const bound = visibilityBound(loadDataset(runId), missing, createdHere(runId));
  const sent = exchanges.map((ex) => ex.sentAt);
  if (bound === undefined || sent.some((t) => t === undefined)) return undefined;
  if (Math.min(...(sent as number[])) >= bound || exchanges.some((ex) => !plainReadOf(ex))) return undefined;
  await sleep(bound - Date.now() + 50);
  return Promise.all(exchanges.map((ex) => api.again(ex)!));
}

/** Skips the running test as not assessable: the target follows another profile on this point. */
export const mismatched = recordProfileMismatch;

/** The paging requirements, where the target showed it does not read the profile's paging fields: not assessable, with the setting that fits. */
export function pagingAssessable(dataset: Dataset): void {
  if (dataset.profileMismatch?.paging) mismatched(base.info(), dataset.profileMismatch.paging);
}

/** What the target showed about a filter of the profile's: read under another name (the setting that fits), if so. */
export function filterMismatch(dataset: Dataset, filter: ValueFilter | 'groupIds'): string | undefined {
  return filter === 'groupIds' ? dataset.profileMismatch?.idFilter : dataset.profileMismatch?.filters?.[filter];
}

/** A test that judges one filter, where the target showed it reads that filter under another name: not assessable. */
export function filterAssessable(dataset: Dataset, filter: ValueFilter | 'groupIds'): void {
  const mismatch = filterMismatch(dataset, filter);
  if (mismatch) mismatched(base.info(), mismatch);
}

/** The filter each list requirement owns, for a precondition of its that fails where the target names that filter otherwise. */
export const FILTER_OF_OWNER = new Map<string, ValueFilter | 'groupIds'>([
  ...Object.entries(VALUE_FILTERS).map(([filter, owner]) => [owner, filter as ValueFilter] as const),
  ['LIST-04', 'groupIds'],
]);

// Fixtures, layered by concern as Playwright's own tests/config/baseTest.ts does: each step adds one.
// Each is boxed (box: 'self'): otherwise Playwright makes every fixture of every test a step, a stack captured and two
// messages to the runner, which no report of the kit shows (a sixth of a matrix worker's CPU, bench/README.md).

/** Whether the requirement is a MUST: only a failed MUST is judged again before the verdict. */
export const mustOf = (id: string | undefined): boolean => !!id && loadCatalogue().requirements.some((r) => r.id === id && r.level === 'MUST');

/**
 * A failed MUST judged once more on the same request sent again (Api.again: plain list reads only), before the verdict:
 * where the second answer passes the check, the failure is marked flaky with how it went. It fails all the same
 * (reporters/verdict-types.ts FLAKY_TREATMENT); the request counts in the run's budget like any other.
 */
export async function judgedAgain(api: Api, exchange: Exchange, check: Check, context: CheckContext, failure: Failure): Promise<Failure> {
  const again = api.again(exchange);
  if (!again) return failure;
  const second = await again;
  if (!second.response || check(second, context)) return failure;
  return { ...failure, flaky: `sent again, it was answered HTTP ${second.response.status} and passed ${check.name}` };
}

/** What settle needs beyond the judgement: the client to read missing groups back and send a failed read again. */
export interface SettleDeps {
  api: Api;
  profile: Profile;
  context: CheckContext;
  runId: string;
}

/**
 * The one adapter from a Judgement to Playwright and the reports: a mismatch makes the test not assessable, a failure
 * that names missing groups is read back first (lost, or dropped by the Id filter), another requirement's finding blocks
 * the test, and the test's own failure is recorded as evidence (a failed MUST on a plain read judged once more first)
 * and fails the test.
 */
export async function settle(testInfo: TestInfo, judgement: Judgement, answer: Exchange | Exchange[], deps: SettleDeps): Promise<void> {
  if (judgement.kind === 'pass') return;
  const first = Array.isArray(answer) ? answer[0] : answer;
  if (judgement.kind === 'mismatch') return notAssessable(testInfo, judgement.failure, answer);
  if (judgement.failure.missing?.length) await blockIfLost(testInfo, deps.api, deps.profile, deps.context, first, judgement.failure.missing);
  if (judgement.kind === 'blocked') {
    // A filter's precondition, where the target reads that filter under another name: not its owner's finding, a mismatch.
    const filter = FILTER_OF_OWNER.get(judgement.owner);
    const mismatch = filter && filterMismatch(loadDataset(deps.runId), filter);
    if (mismatch) mismatched(testInfo, mismatch);
    recordFinding(testInfo, { requirement: judgement.owner, failure: judgement.failure, exchange: first });
    blocked(testInfo, [judgement.owner], `${judgement.failure.check}: ${judgement.failure.received}`);
  }
  const failure =
    judgement.check && !Array.isArray(answer) && mustOf(ownRequirement(testInfo))
      ? await judgedAgain(deps.api, answer, judgement.check, deps.context, judgement.failure)
      : judgement.failure;
  recordEvidence(testInfo, Array.isArray(answer) ? { failure, exchange: first, exchanges: answer } : { failure, exchange: first });
  throw new Error(formatFailure(failure, first));
}
