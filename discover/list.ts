/** `agc profile discover`: the list's filter names (the Id filter, which scopes every later list request, Name, group type, asset space). */
import { backOff } from '../client/backoff';
import {
  FIELD_NAME_CANDIDATES as CANDIDATES,
  filterPlaces,
  loadProfile,
  nameMatchParts,
  REFERENCE_PROFILE_PATH,
  withFilters,
  type NameMatch,
} from '../schemas/profile';
import { NAME_INFIX, idsOf, itemsOf, resultOf, sleep, type Answer, type DiscoverSession } from './client';

/** The Id filter once found: every later list request is limited to the run's own groups through it. */
export interface Scope {
  wrapper: string;
  ids: string;
  /**
   * Set where the Id filter takes one Id as a string: a list then holds one of the run's groups at
   * most, so what needs several (the paging fields and bounds) is not probed, and the Name and value
   * filters are probed one group at a time.
   */
  oneId?: boolean;
  /**
   * Under a one-Id filter, once the Name filter is known to match part of a Name: the filter that lists
   * exactly `all` (the Name part the run's groups share), so that the paging can be probed (oneIdPagingScope).
   */
  byName?: Record<string, string>;
  /**
   * Under a one-Id filter where the Name filter matches whole Names: no filter at all, the user's whole
   * list, which holds `all` and whatever else the user has. What holds of any list can be probed through
   * it (the paging fields and bounds); a page past the end by the TotalCount it reports (pastEnd).
   */
  unconfined?: boolean;
  all: string[];
  assetSpaceId: string | undefined;
  items: Record<string, unknown>[];
  /** The answer that confirmed the Id filter: the run's groups, with no paging field sent. */
  confirmed: { body: Record<string, unknown>; answer: Answer };
}

export function scoped(scope: Scope, extra: Record<string, unknown> = {}, filters: Record<string, unknown> = {}, ids = scope.all): Record<string, unknown> {
  if (!scope.oneId) return withFilters({ filterField: scope.wrapper }, { [scope.ids]: ids, ...filters }, extra);
  if (scope.byName && ids === scope.all) return withFilters({ filterField: scope.wrapper }, { ...scope.byName, ...filters }, extra);
  if (scope.unconfined && ids === scope.all) return withFilters({ filterField: scope.wrapper }, filters, extra);
  // A probe that asks for several groups under a filter of one Id is the kit's mistake, not the target's.
  if (ids.length !== 1) throw new Error(`a list of ${ids.length} of the run's groups was asked for under an Id filter that takes one Id`);
  return withFilters({ filterField: scope.wrapper }, { [scope.ids]: ids[0], ...filters }, extra);
}

/** Which Id-filter name (and filter object) restricts a list to the given Ids; also waits until the run's groups are visible. */
export async function idFilter(session: DiscoverSession): Promise<Scope | undefined> {
  const last = session.created[session.created.length - 1];
  const all = session.created.map((g) => g.id);
  const deadline = Date.now() + session.target.visibilityTimeoutMs;
  const eliminated: string[] = [];
  // Doubling, then steps of an eighth of the visibility timeout: 12 waits span all of it.
  const waitsMs = backOff(200, Math.max(3000, session.target.visibilityTimeoutMs / 8));
  let wait = waitsMs.next().value;
  let waits = 0;
  // The places the run's phase asks too (filterPlaces), from the reference profile's: one search for both.
  for (const { wrapper, names } of filterPlaces(loadProfile(REFERENCE_PROFILE_PATH).list, 'groupIds')) {
    for (const ids of names) {
      const body = withFilters({ filterField: wrapper }, { [ids]: [last.id] });
      for (;;) {
        const answer = await session.list(body);
        const seen = session.evidence('ListAssetGroups', body, answer);
        const got = idsOf(answer);
        const total = resultOf(answer)?.TotalCount;
        if (answer.status === 200 && got.length === 1 && got[0] === last.id && total === 1) {
          const confirmed = await confirmScope(session, wrapper, ids, all, deadline);
          if (confirmed) {
            session.decide('list.filterField', wrapper, seen, confirmed.evidence);
            session.decide('list.filters.groupIds', ids, seen, confirmed.evidence);
            session.decide('list.idFilterTakes', 'many', seen, confirmed.evidence);
            return confirmed.scope;
          }
          eliminated.push(`${wrapper}.${ids} (not confirmed over all ${all.length} of the run's groups)`);
          break;
        }
        if (answer.status !== 200 || got.some((id) => id !== last.id) || (typeof total === 'number' && total > 1)) {
          eliminated.push(`${wrapper}.${ids}: ${session.summary(answer)}`);
          break;
        }
        // Nothing listed: the filter works and the group is not visible yet, or the target has
        // none of this user's groups visible at all. Only time tells them apart.
        if (Date.now() + wait > deadline || waits >= 12) {
          const why = `none of the run's groups became visible within ${session.target.visibilityTimeoutMs} ms (AG_VISIBILITY_TIMEOUT_MS), or the Id filter is none of ${CANDIDATES.filterField.join('/')} x ${CANDIDATES.groupIds.join('/')}; last: ${seen}`;
          session.notes.push(why);
          session.keep('list.filterField', why);
          session.keep('list.filters.groupIds', why);
          session.keep('list.idFilterTakes', why);
          return undefined;
        }
        waits++;
        await sleep(wait);
        wait = waitsMs.next().value;
      }
    }
    // No list of Ids here: one Id as a string, at the same place, before the next place's lists (a Filter.Id target is found
    // 16 requests sooner, which a discovery that then asks one group at a time needs).
    const one = await oneIdFilter(session, last.id, deadline, wrapper);
    if (one) return oneIdScope(session, one, all, eliminated);
  }
  const why = `no candidate restricted a list to one of the run's groups: ${eliminated.join('; ')}`;
  session.notes.push("the Id filter was not found, so nothing that needs the run's own data could be probed");
  session.keep('list.filterField', why);
  session.keep('list.filters.groupIds', why);
  session.keep('list.idFilterTakes', why);
  return undefined;
}

interface OneIdFound {
  wrapper: string;
  name: string;
  label: string;
  seen: string;
  body: Record<string, unknown>;
  answer: Answer;
}

/** The scope of an Id filter that takes one Id: decided, and said in the draft's notes. */
function oneIdScope(session: DiscoverSession, one: OneIdFound, all: string[], eliminated: string[]): Scope {
  // The other filters sit where this one does (the same filter object, or the top level).
  session.decide('list.filterField', one.wrapper, one.seen);
  session.decide('list.filters.groupIds', one.name, one.seen);
  session.decide('list.idFilterTakes', 'one', one.seen, `no list of Ids filtered: ${eliminated.slice(0, 3).join('; ')}${eliminated.length > 3 ? '; …' : ''}`);
  session.notes.push(
    `the Id filter takes one Id as a string (${one.label}), not a list: the spec does not say which; the kit then reads groups one request each (list.idFilterTakes: one). The Name and value filters were probed one group at a time, the paging through the Name part the run's groups share where the Name filter matches part of a Name`,
  );
  const item = itemsOf(one.answer)[0];
  return {
    wrapper: one.wrapper,
    ids: one.name,
    oneId: true,
    all,
    assetSpaceId: typeof item?.AssetSpaceId === 'string' ? item.AssetSpaceId : undefined,
    items: itemsOf(one.answer),
    confirmed: { body: one.body, answer: one.answer },
  };
}

/**
 * No candidate at this place took a list of Ids: does one take one Id as a string (`"Filter": {"Id": "..."}`, what
 * a framework binding a string field makes of the filter)? Polled like the list forms: an empty list
 * may be a filter that works on a group not visible yet, a list of others one that is ignored.
 */
async function oneIdFilter(session: DiscoverSession, id: string, deadline: number, wrapper: string): Promise<OneIdFound | undefined> {
  const waitsMs = backOff(200, 3000);
  let wait = waitsMs.next().value;
  for (let round = 0; round < 12; round++) {
    let pending = false;
    for (const name of CANDIDATES.oneId) {
      const body = withFilters({ filterField: wrapper }, { [name]: id });
      const answer = await session.list(body);
      const got = idsOf(answer);
      if (answer.status === 200 && got.length === 1 && got[0] === id)
        return {
          wrapper,
          name,
          label: wrapper === '' ? `${name} at the top level` : `${wrapper}.${name}`,
          seen: session.evidence('ListAssetGroups', body, answer),
          body,
          answer,
        };
      if (answer.status === 200 && got.length === 0) pending = true;
    }
    if (!pending || Date.now() + wait > deadline) return undefined;
    await sleep(wait);
    wait = waitsMs.next().value;
  }
  return undefined;
}

/** All the run's groups, and only they, under the Id filter; polled while some are not visible yet. */
async function confirmScope(
  session: DiscoverSession,
  wrapper: string,
  ids: string,
  all: string[],
  deadline: number,
): Promise<{ scope: Scope; evidence: string } | undefined> {
  const waitsMs = backOff(200, 3000);
  let wait = waitsMs.next().value;
  for (let polls = 0; polls < 6; polls++) {
    const body = withFilters({ filterField: wrapper }, { [ids]: all });
    const answer = await session.list(body);
    const got = idsOf(answer);
    const total = resultOf(answer)?.TotalCount;
    if (answer.status !== 200 || got.some((id) => !all.includes(id)) || (typeof total === 'number' && total > all.length)) return undefined;
    if (total === all.length) {
      const item = itemsOf(answer)[0];
      return {
        scope: {
          wrapper,
          ids,
          all,
          assetSpaceId: typeof item?.AssetSpaceId === 'string' ? item.AssetSpaceId : undefined,
          items: itemsOf(answer),
          confirmed: { body, answer },
        },
        evidence: `${session.evidence('ListAssetGroups', body, answer)}: exactly the run's ${all.length} groups`,
      };
    }
    if (Date.now() + wait > deadline) return undefined;
    await sleep(wait);
    wait = waitsMs.next().value;
  }
  return undefined;
}

/**
 * A filter on a value (group type, asset space): a value no group has empties the answer when the
 * name is known. A 400 is ambiguous (an unknown name, or a known name refusing the value), so a
 * value the run's groups do have settles it.
 */
export async function valueFilter(
  session: DiscoverSession,
  scope: Scope,
  key: 'groupType' | 'assetSpaceId',
  candidates: readonly string[],
  none: string,
  real: string | undefined,
): Promise<void> {
  const setting = `list.filters.${key}`;
  const eliminated: string[] = [];
  for (const candidate of candidates) {
    // Under a filter of one Id: the group the Id filter was found with, whose asset space is known.
    const asked = scope.oneId ? scope.all.slice(-1) : scope.all;
    const body = scoped(scope, {}, { [candidate]: none }, asked);
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    if (answer.status === 200 && idsOf(answer).length === 0 && resultOf(answer)?.TotalCount === 0)
      return session.decide(setting, candidate, `${seen}: none of the run's groups`);
    if (answer.status === 400 && real !== undefined) {
      const realBody = scoped(scope, {}, { [candidate]: real }, asked);
      const realAnswer = await session.list(realBody);
      if (realAnswer.status === 200 && resultOf(realAnswer)?.TotalCount === asked.length) {
        return session.decide(
          setting,
          candidate,
          `${seen}: refused`,
          `${session.evidence('ListAssetGroups', realBody, realAnswer)}: accepted with the run's own value`,
        );
      }
    }
    eliminated.push(`${candidate}: ${session.summary(answer)}`);
  }
  session.keep(setting, `no name tried narrowed the run's groups: ${eliminated.join('; ')}`);
}

/**
 * Under a one-Id filter, the list to probe the paging through, as the kit's run pages (suites/dataset.ts
 * pagesOf): where the Name filter matches whole Names, the user's whole list, which holds the run's groups
 * (`unconfined`); where it matches part of a Name, the run's groups by the Name part they share
 * (`agc-<run>-Disc-g`), checked once to list exactly them (`byName`). undefined where how the Name filter
 * matches is not known, or that list held other groups.
 */
export async function oneIdPagingScope(session: DiscoverSession, scope: Scope): Promise<Scope | undefined> {
  const field = session.decisions.get('list.filters.name');
  const match = session.decisions.get('list.nameMatch');
  if (!field?.determined || !match?.determined) return undefined;
  if (nameMatchParts(match.value as NameMatch).mode === 'exact') return { ...scope, unconfined: true };
  // The run's three groups are named Disc-g0, -g1, -g2 (create.ts); the length bounds' later groups are not.
  const byName = { [field.value as string]: `${session.namePrefix}${NAME_INFIX}g` };
  const body = withFilters({ filterField: scope.wrapper }, byName);
  const answer = await session.list(body);
  const got = idsOf(answer);
  const total = resultOf(answer)?.TotalCount;
  if (answer.status !== 200 || got.length !== scope.all.length || total !== scope.all.length || !scope.all.every((id) => got.includes(id))) return undefined;
  return { ...scope, byName };
}
