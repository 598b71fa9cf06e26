import { itemsOf } from './checks';
/**
 * What a test needs of the run's groups, and what it does when the phase could not give it: the test is
 * blocked by the requirement that failed, or skipped with the reason. Kept apart from the data
 * (dataset.ts), which decides no test's flow.
 */
import type { RequirementId } from '../facts/requirement-ids';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from '@playwright/test';
import type { Exchange } from '../client/exchange';
import { ownRequirement, recordBlocked as blocked, recordEvidence, recordFinding } from '../facts/record';
import { type Profile } from '../schemas/profile';
import { askedOf, listBody, type Api, type ListQuery, type Read } from './api';
import { JSON_ANSWER, countOfWholePage, listedBy, succeeded, listShape, listsIncluding, owned, RESULT_READ, visibleInTime, type Step } from './checks';
import type { TokenRole } from '../config';
import type { Judge, Verify } from '../facts/judgement';
import { Dataset, GroupName, GroupRecord, isGroup, loadDataset, pollDelays, readAlone, visibilityBound, visibilityOwner } from './dataset';
import { confinedQuery, namesakePages, primaryNamePart, roleGroupsQuery } from './dataset-queries';

/**
 * Blocks the running test by the owner of what hid the run's groups (Dataset.unseenBecause), with its
 * finding; the owner's own test fails with it instead.
 */
export function blockByCause(cause: NonNullable<Dataset['unseenBecause']>): never {
  const info = test.info();
  if (ownRequirement(info) === cause.owner) {
    recordEvidence(info, { failure: cause.failure, exchange: cause.exchange });
    throw new Error(
      `${cause.failure.check} failed\n  Received:   ${cause.failure.received}\n  Documented: ${cause.failure.documented}\n  Fix:        ${cause.failure.fix}`,
    );
  }
  recordFinding(info, { requirement: cause.owner, failure: cause.failure, exchange: cause.exchange });
  blocked(info, [cause.owner], `${cause.failure.check}: ${cause.failure.received}`);
}

/**
 * Groups of the dataset. Where the phase could not provide them, the running test cannot judge its
 * requirement: it is blocked by the requirement that failed (the create's, or VIS-01).
 */
export function groupsOf(dataset: Dataset, filter: (g: GroupRecord) => boolean, { visible = true, bounds = false } = {}): (GroupRecord & { id: string })[] {
  if (dataset.error) throw new Error(`the run's groups could not be created: ${dataset.error}`);
  const chosen = pickGroups(dataset, filter, { bounds });
  const uncreated = chosen.filter((g) => g.id === null);
  const unseen = visible ? chosen.filter((g) => g.id !== null && g.visibleAfterMs === null) : [];
  // Two groups under one Id make every query by Id ambiguous: CREATE-03's finding.
  const ids = dataset.groups.map((g) => g.id).filter((id) => id !== null);
  if (chosen.some((g) => g.id !== null && ids.indexOf(g.id) !== ids.lastIndexOf(g.id)))
    blocked(test.info(), ['CREATE-03'], "the run's creates returned one Id for two groups");
  if ((unseen.length || dataset.idFilterDrops) && dataset.unseenBecause) blockByCause(dataset.unseenBecause);
  if (uncreated.length || unseen.length) {
    const owners = [...new Set([...uncreated.map((g) => g.judgedBy), ...unseen.map(visibilityOwner)])];
    const why = [
      ...uncreated.map(
        (g) =>
          `${g.key}: create answered ${g.create.response ? `HTTP ${g.create.response.status}${g.create.response.json === undefined ? ', not JSON' : ''}` : `nothing (${g.create.networkError})`}`,
      ),
      ...unseen.map((g) =>
        dataset.pollsRefused
          ? `${g.key}: never listed, the polls for it refused (HTTP 400)`
          : `${g.key}: never listed within ${dataset.visibilityTimeoutMs} ms`,
      ),
    ].join('; ');
    blocked(test.info(), owners, `this check needs the run's groups, and some are missing (${why})`);
  }
  return chosen as (GroupRecord & { id: string })[];
}

/**
 * The groups groupsOf gives, for a pure judge: its test's needs (or its plans) asked groupsOf first, which blocked the
 * test where one is missing, so what is picked here is there.
 */
export function pickGroups(dataset: Dataset, filter: (g: GroupRecord) => boolean, { bounds = false } = {}): (GroupRecord & { id: string })[] {
  // The group at the profile's bounds is CREATE-05's alone (a target with other bounds must not block every other check),
  // and p0's namesake the walks' alone (a target that keeps Names unique must not either): readAlone.
  return dataset.groups.filter((g) => !readAlone(g, { bounds }) && filter(g)) as (GroupRecord & { id: string })[];
}

/** groupNamed for a pure judge (pickGroups). */
export const pickNamed = (dataset: Dataset, name: GroupName, options: { bounds?: boolean } = {}): GroupRecord & { id: string } =>
  pickGroups(dataset, isGroup(name), options)[0];

/** One named group, as groupsOf gives it (and blocks where it cannot). */
export function groupNamed(dataset: Dataset, name: GroupName, options: { visible?: boolean; bounds?: boolean } = {}): GroupRecord & { id: string } {
  return groupsOf(dataset, isGroup(name), options)[0];
}

/**
 * For a test that needs the list confined to the run's groups (a walk, a page past the end): pagesOf's, or where
 * that is the user's whole list, p0 and its namesake by their Name (namesakePages). Without those two, not assessable.
 */
export function pagedGroups(profile: Profile, dataset: Dataset): { ids: string[]; query: ListQuery; filteredBy: 'LIST-04' | 'LIST-05' } {
  const { ids, query, confined, filteredBy } = pagesOf(profile, dataset);
  if (confined) return { ids, query, filteredBy: filteredBy as 'LIST-04' | 'LIST-05' };
  const namesakes = namesakePages(dataset);
  if ('query' in namesakes) return { ...namesakes, filteredBy: 'LIST-05' };
  test.skip(
    true,
    `not assessable: the Id filter takes one Id (list.idFilterTakes: one) and the Name filter matches whole Names (list.nameMatch: ${profile.list.nameMatch}), so only a Name two of the run's groups share lists them and nothing else to page through, and ${namesakes.why}`,
  );
  throw new Error('unreachable');
}

/**
 * The create-and-wait phase's record, judged: every group the roles created was listed to the token
 * it was created through within the timeout. The last polls are the evidence; polls the target
 * refused say nothing about lag, most likely that it does not know the profile's Id filter.
 */
export async function judgeVisibility(dataset: Dataset, judge: Judge, verify: Verify, ...roles: TokenRole[]): Promise<void> {
  const created = dataset.groups.filter((g): g is typeof g & { id: string } => g.id !== null && roles.includes(g.via));
  if (!created.length)
    blocked(
      test.info(),
      [...new Set(dataset.groups.filter((g) => roles.includes(g.via) && !isGroup('namesake')(g)).map((g) => g.judgedBy))],
      'no create of the run answered an Id',
    );
  // Groups listed under another Id type, or behind a page that starts late, are not late: that is another requirement's finding.
  if (dataset.unseenBecause && created.some((g) => g.visibleAfterMs === null)) blockByCause(dataset.unseenBecause);
  const polls = roles.map((role) => dataset.lastPolls[role]).filter((ex): ex is Exchange => !!ex);
  // A poll answered 200 whose items cannot be read says nothing about lag: its shape is ENV-06's and SCHEMA-02's finding.
  for (const poll of polls.filter((ex) => ex.response?.status === 200)) await verify(poll, [...RESULT_READ, owned('SCHEMA-02', listShape)]);
  // No poll at all (the phase ended before it polled): the creates are the evidence.
  await judge(polls.length ? polls : created.map((g) => g.create), visibleInTime(created, dataset.visibilityTimeoutMs));
}

/** Every exchange of the create-and-wait phase: the creates, the preflight's list, the provoked mistakes, the last polls, the 429s waited out. */
export function phaseExchanges(dataset: Dataset): Exchange[] {
  return [
    ...dataset.groups.map((g) => g.create),
    dataset.shared.emptyList,
    ...dataset.shared.provoked,
    ...Object.values(dataset.lastPolls),
    ...dataset.rateLimited,
  ].filter((ex): ex is Exchange => !!ex);
}

/** A valid request of each operation, answered during the phase, with the requirement that owns its success. */
export function successes(dataset: Dataset): { owner: RequirementId; exchange: Exchange }[] {
  // p0's create as it was answered, Id or not: a 200 whose Id sits outside Result is this envelope's finding, not a missing group.
  const plain = dataset.groups.find(isGroup('plain'));
  const answered: { owner: RequirementId; exchange: Exchange }[] = plain ? [{ owner: 'CREATE-01', exchange: plain.create }] : [];
  return [...answered, { owner: 'LIST-01', exchange: dataset.shared.emptyList }];
}

/**
 * PAGE-04's count, before another requirement reads one: the phase's last read of the primary groups held them all on
 * its first page, so its TotalCount is its number of items (countOfWholePage). A count off there is PAGE-04's one
 * deviation, and no other requirement's count is judged.
 */
export async function countsStand(dataset: Dataset, verify: Verify): Promise<void> {
  for (const { answer, steps } of countVerdicts(dataset)) await verify(answer, steps);
}

/** countsStand as a declared test's verdicts (suites/declare.ts). */
export function countVerdicts(dataset: Dataset): { answer: Exchange; steps: Step[] }[] {
  const poll = dataset.lastPolls.primary;
  return poll?.response?.status === 200 ? [{ answer: poll, steps: [owned('PAGE-04', countOfWholePage)] }] : [];
}

/** The phase's successes as exchanges, for checks that compare with them (CheckContext.successes); none without a record. */
export function phaseSuccesses(runId: string): Exchange[] {
  try {
    return successes(loadDataset(runId)).map((s) => s.exchange);
  } catch {
    return [];
  }
}

/**
 * Each valid call's answer, judged only once its owner's 200 holds. A body that is not JSON is ENV-05's before that: a
 * gateway's HTML 504 on a create says nothing of the create itself, whose requirement is blocked by it, not failed.
 */
export async function onSuccesses(dataset: Dataset, verify: Verify, own: (ex: Exchange) => Step[]): Promise<void> {
  for (const { owner, exchange } of successes(dataset)) {
    // No answer at all is still AUTH-05's (tokenAccepted, the first step), as before.
    const [token, status] = succeeded(owner);
    await verify(exchange, [token, JSON_ANSWER, status, ...own(exchange)]);
  }
}

/** The client mistakes the phase provoked, where they were answered with an error; whether each was refused is AUTH's and INPUT's. None at all: not assessable. */
export function provokedErrors(dataset: Dataset): Exchange[] {
  const errors = provokedErrorAnswers(dataset);
  test.skip(errors.length === 0, 'not assessable: none of the provoked client mistakes was answered with an error');
  return errors;
}

/** provokedErrors for a pure judge, once its test's needs or run asked provokedErrors. */
export const provokedErrorAnswers = (dataset: Dataset): Exchange[] => dataset.shared.provoked.filter((ex) => (ex.response?.status ?? 0) >= 400);

/**
 * One role's groups listed by their Ids on one page: the create-and-wait phase's last poll of that
 * role asked exactly this, and reads are settled once the phase saw them (api.ts), so the run sends
 * it at most once and every test that needs an item of those groups (CREATE-02, CREATE-04, CREATE-05,
 * an AssetSpaceId) judges that one answer.
 */
export function roleGroupsRead(api: Api, profile: Profile, dataset: Dataset, role: TokenRole, options: { bounds?: boolean } = {}): Promise<Read[]> {
  return api.listByIds(profile, roleGroupsQuery(profile, dataset, role, options), { as: role });
}

/** The answer of those reads that asked for this group: the one read of them all, or, under a one-Id filter, its own. */
export function readOf(reads: Read[], id: string): Exchange {
  return (reads.find((r) => askedOf(r.query, [id]).length) ?? reads[0]).exchange;
}

/**
 * Every group of the run listed to the primary token by their Ids, on one page (LIST-02's and CHAN-03's
 * read, sent once when it lists them all, api.ts). The phase waited until each group was listed to the
 * token it was created through; a channel's groups may reach the unbound token's snapshot later (the
 * spec promises visibility only eventually, and says nothing of one token's snapshot against
 * another's), so while some are missing this is read again, backing off as the phase does, until
 * their visibility timeout has passed. What is still missing then is the caller's to judge.
 */
export async function everyGroupListed(api: Api, profile: Profile, dataset: Dataset): Promise<Read[]> {
  const all = groupsOf(dataset, () => true);
  let reads = await api.listByIds(profile, { groupIds: all.map((g) => g.id), pageSize: profile.list.pageSize.maximum });
  for (const delays = pollDelays(); ;) {
    const delay = delays.next().value;
    const listed = new Set(reads.flatMap((r) => itemsOf(r.exchange).map((item) => item.Id)));
    const missing = all.filter((g) => !listed.has(g.id));
    const deadline =
      visibilityBound(
        dataset,
        missing.map((g) => g.id),
      ) ?? 0;
    if (reads.some((r) => r.exchange.response?.status !== 200) || !missing.length || Date.now() + delay > deadline) return reads;
    await sleep(delay);
    // Only the reads that asked for a missing group are sent again: all of them, or under a one-Id filter those groups' own.
    reads = await Promise.all(
      reads.map(async (r) =>
        askedOf(
          r.query,
          missing.map((g) => g.id),
        ).length
          ? { query: r.query, exchange: await api.call('ListAssetGroups', listBody(profile, r.query), { fresh: true }) }
          : r,
      ),
    );
  }
}

/** The AssetSpaceId of one of the run's groups, as its own token lists it (the create request carries none). */
export async function spaceOf(api: Api, profile: Profile, dataset: Dataset, group: GroupRecord & { id: string }, verify: Verify): Promise<string> {
  const id = group.id;
  const read = readOf(await roleGroupsRead(api, profile, dataset, group.via, { bounds: group.judgedBy === 'CREATE-05' }), id);
  const listed = await verify(read, [...listedBy('LIST-04'), owned('LIST-04', listsIncluding([id]))]);
  const space = itemsOf(listed).find((item) => item.Id === id)?.AssetSpaceId;
  test.skip(typeof space !== 'string', 'not assessable: the group carries no AssetSpaceId string (SCHEMA-02 judges that)');
  return space as string;
}

// The phase itself, for suites/global-setup.ts.

/**
 * The run's primary groups (groupsOf: the group at the bounds left out) and a query to read pages of:
 * the one that lists exactly them (confinedQuery), or, where there is none (a one-Id filter and a Name
 * filter that matches whole Names), the primary token's whole list, no filter (`confined` false). That
 * list holds at least these groups and whatever else the user has, so what a test may judge of it is
 * what holds of any list holding them: a page's size and echo, a TotalCount no lower than their number.
 * `filteredBy`: the requirement of the filter that confines it, whose finding more groups than these is.
 */
export function pagesOf(
  profile: Profile,
  dataset: Dataset,
): { ids: string[]; query: ListQuery; confined: boolean; filteredBy: 'LIST-01' | 'LIST-04' | 'LIST-05' } {
  const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
  const query = confinedQuery(profile, ids, primaryNamePart(dataset));
  if (!query) return { ids, query: {}, confined: false, filteredBy: 'LIST-01' };
  return { ids, query, confined: true, filteredBy: query.groupIds ? 'LIST-04' : 'LIST-05' };
}
