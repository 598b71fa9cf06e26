import { itemsOf } from './checks';
/**
 * What the create-and-wait phase's answers showed of the target's own choices, detected with the fewest
 * requests: paging fields it does not read, an Id filter under another name or place, value filters it
 * ignores. Each is recorded in the dataset as a profile mismatch with the setting that fits, or as the
 * finding of the requirement that owns the filter.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, listBody, type ListQuery } from './api';
import type { Exchange } from '../client/exchange';
import { idFilterHoldsAll } from './checks';
import type { Profile } from '../schemas/profile';
import { FIELD_NAME_CANDIDATES, filterLabel, filterPlaces, withFilters } from '../schemas/profile';
import { matchingNothing, pollQuery } from './dataset-queries';
import { readAlone, VALUE_FILTERS, visibilityBound, type Dataset, type ValueFilter } from './dataset';

/**
 * The run's primary groups the polls saw, as the suites read them (groupsOf: the group at the
 * profile's bounds left out), so that the detection's pages are the suites' pages too (api.ts shares them).
 */
export const seenPrimary = (dataset: Dataset): string[] =>
  dataset.groups.filter((g) => g.via === 'primary' && !readAlone(g) && g.visibleAfterMs !== null).map((g) => g.id!);

type FilterKey = keyof Profile['list']['filters'];

interface Placement {
  wrapper: string;
  name: string;
}

/** The profile with its filters under another wrapper and one of them under another name. */
function placedAs(profile: Profile, key: FilterKey, { wrapper, name }: Placement): Profile {
  return { ...profile, list: { ...profile.list, filterField: wrapper, filters: { ...profile.list.filters, [key]: name } } };
}

/**
 * Every other place APIs of this family keep a filter: its other names under the profile's wrapper
 * first, then every name under the other wrappers (the top level of the body among them).
 */
function otherPlacements(profile: Profile, key: FilterKey): Placement[] {
  const { filterField, filters } = profile.list;
  return filterPlaces(profile.list, key)
    .flatMap(({ wrapper, names }) => names.map((name) => ({ wrapper, name })))
    .filter((p) => p.wrapper !== filterField || p.name !== filters[key]);
}

/** The settings that put a filter where the target reads it. */
function placementSettings(profile: Profile, key: FilterKey, fit: Placement): string {
  return `${filterLabel(profile.list, profile.list.filters[key])} was ignored, ${filterLabel({ filterField: fit.wrapper }, fit.name)} filters: set ${settingsFor(profile, key, fit)}`;
}

/** The settings that differ from the profile's for a filter at this place (and, for the Id filter, of this form). */
function settingsFor(profile: Profile, key: FilterKey, fit: Placement, takes = profile.list.idFilterTakes): string {
  return [
    ...(fit.wrapper !== profile.list.filterField ? [`list.filterField: ${JSON.stringify(fit.wrapper)}${fit.wrapper === '' ? ' (the top level)' : ''}`] : []),
    ...(fit.name !== profile.list.filters[key] ? [`list.filters.${key}: ${fit.name}`] : []),
    ...(takes !== profile.list.idFilterTakes ? [`list.idFilterTakes: ${takes}`] : []),
  ].join(' and ');
}

/** The first other place of a filter where the same query is answered as `fits` says, if any. */
async function placementThatFits(
  api: Api,
  profile: Profile,
  key: FilterKey,
  query: ListQuery,
  fits: (ex: Exchange) => boolean,
): Promise<Placement | undefined> {
  const others = otherPlacements(profile, key);
  const answers = await Promise.all(others.map((p) => api.call('ListAssetGroups', listBody(placedAs(profile, key, p), query))));
  const index = answers.findIndex(fits);
  return index < 0 ? undefined : others[index];
}

/** The first other place of the Id filter where the target lists exactly these groups, if any. */
export function idFilterNamed(api: Api, profile: Profile, ids: string[]): Promise<Placement | undefined> {
  return placementThatFits(api, profile, 'groupIds', { groupIds: ids }, (ex) => {
    const listed = itemsOf(ex).map((item) => item.Id);
    return listed.length === ids.length && ids.every((id) => listed.includes(id));
  });
}

/**
 * Does the target filter by the profile's Id filter, and keep every Id asked? Two reads the suites
 * make anyway (shared with them, api.ts): LIST-04's, some of the seen primary groups, and the read of
 * all of them (CREATE-02's and others'). A list holding a group it was not asked for means the Id
 * filter was ignored: whether it is the profile's name that the target does not know is detectIdFilter's
 * question. The polls alone cannot tell: when every group they ask for shows up in one round and the
 * token has no other group yet (a channel's groups may reach the unbound token's snapshot later), an
 * ignored filter lists exactly what was asked.
 */
export async function detectIdFilters(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  const listsOthers = (ex: Exchange, asked: string[]) => itemsOf(ex).some((item) => !asked.includes(item.Id as string));
  if (profile.list.idFilterTakes === 'one' && seen.length && !dataset.idFilterLeaked) {
    // Each seen group alone: the suites' reads by Id (LIST-04's, CREATE-02's), shared with them.
    const reads = await api.listByIds(profile, pollQuery(profile, seen));
    if (reads.some((r) => listsOthers(r.exchange, r.query.groupIds!))) dataset.idFilterLeaked = true;
  } else if (seen.length >= 2 && !dataset.idFilterLeaked) {
    const some = seen.filter((_, i) => i % 2 === 1);
    const [subset, all] = await Promise.all([
      api.call('ListAssetGroups', listBody(profile, { groupIds: some })),
      api.call('ListAssetGroups', listBody(profile, pollQuery(profile, seen))),
    ]);
    if (listsOthers(subset, some) || listsOthers(all, seen)) dataset.idFilterLeaked = true;
    else idFilterKeepsAll(dataset, seen, await readAfterBound(api, profile, dataset, seen, all));
  }
  if (dataset.idFilterLeaked) await detectIdFilter(api, profile, dataset);
}

/**
 * The Id filter was ignored: under a name APIs of this family also use, a target that filters follows
 * another profile; one that filters under no name is broken (LIST-04 fails).
 */
async function detectIdFilter(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  if (!seen.length) return;
  const { filterField, filters, idFilterTakes } = profile.list;
  const ignored = `the Id filter ${filterLabel(profile.list, filters.groupIds)}${idFilterTakes === 'one' ? ' (one Id)' : ''} was ignored`;
  const many: Profile = { ...profile, list: { ...profile.list, idFilterTakes: 'many' } };
  // A list of Ids elsewhere (or, under a one-Id profile, at its own place too), then one Id as a string elsewhere.
  const listFit =
    seen.length < 2
      ? undefined
      : idFilterTakes === 'one' && (await idFilterLists(api, many, { wrapper: filterField, name: filters.groupIds }, seen.slice(0, 2)))
        ? { wrapper: filterField, name: filters.groupIds }
        : await idFilterNamed(api, many, seen.slice(0, 2));
  if (listFit) {
    (dataset.profileMismatch ??= {}).idFilter =
      `${ignored}, ${filterLabel({ filterField: listFit.wrapper }, listFit.name)} filters by a list of Ids: set ${settingsFor(profile, 'groupIds', listFit, 'many')}`;
    return;
  }
  const single = await oneIdPlacement(api, profile, seen[0]);
  if (single)
    (dataset.profileMismatch ??= {}).idFilter =
      `${ignored}, and ${filterLabel({ filterField: single.wrapper }, single.name)} filters by one Id given as a string: set ${settingsFor(profile, 'groupIds', single, 'one')}. ` +
      'The spec says the list filters "by logical ID", not whether by one Id or by several; under list.idFilterTakes: one the kit reads groups one request each';
}

/** Whether the target lists exactly these groups when asked for them by a list of Ids at this place. */
async function idFilterLists(api: Api, profile: Profile, place: Placement, ids: string[]): Promise<boolean> {
  const ex = await api.call('ListAssetGroups', listBody(placedAs(profile, 'groupIds', place), { groupIds: ids }));
  const listed = itemsOf(ex).map((item) => item.Id);
  return ex.response?.status === 200 && listed.length === ids.length && ids.every((id) => listed.includes(id));
}

/**
 * The first place where the target filters by one Id given as a string (`"Filter": {"Id": "..."}`,
 * what a framework binding a string field makes of the filter), if any: one group of several, listed
 * alone. An Id filter the target ignores lists the others too. Under a one-Id profile its own place,
 * which was just ignored, is not asked again.
 */
async function oneIdPlacement(api: Api, profile: Profile, id: string): Promise<Placement | undefined> {
  const { filterField, filters, idFilterTakes } = profile.list;
  const names = [...new Set([filters.groupIds, ...FIELD_NAME_CANDIDATES.oneId])];
  const places = filterPlaces(profile.list, 'groupIds')
    .flatMap(({ wrapper }) => names.map((name) => ({ wrapper, name })))
    .filter((p) => idFilterTakes !== 'one' || p.wrapper !== filterField || p.name !== filters.groupIds);
  const answers = await Promise.all(places.map((p) => api.call('ListAssetGroups', withFilters({ filterField: p.wrapper }, { [p.name]: id }))));
  const index = answers.findIndex((ex) => ex.response?.status === 200 && itemsOf(ex).length === 1 && itemsOf(ex)[0].Id === id);
  return index < 0 ? undefined : places[index];
}

const FILTER_LABEL: Record<ValueFilter, string> = { assetSpaceId: 'asset-space', groupType: 'group-type', name: 'name' };

/**
 * Does the target read the profile's asset-space, group-type and name filters? A query under each
 * that matches none of the run's groups (LIST-02's, LIST-03's, LIST-06's, shared with them) and lists
 * some shows the filter was ignored. Under a name APIs of this family also use, a target that filters
 * follows another profile (the requirements that filter by it are not assessable); one that filters
 * under no name is broken, and only the filter's owner judges that (Dataset.ignoredFilters).
 */
export async function detectValueFilters(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const primary = seenPrimary(dataset);
  if (!primary.length) return;
  const all = dataset.groups.filter((g) => !readAlone(g) && g.visibleAfterMs !== null).map((g) => g.id!);
  await Promise.all(
    (Object.keys(VALUE_FILTERS) as ValueFilter[]).map(async (key) => {
      const query = matchingNothing(profile, dataset, key, { all, primary });
      const answer = await api.call('ListAssetGroups', listBody(profile, query), { shared: key === 'name' });
      if (answer.response?.status !== 200 || itemsOf(answer).length === 0) return;
      const fit = await valueFilterNamed(api, profile, key, query);
      if (fit === undefined) (dataset.ignoredFilters ??= []).push(key);
      else ((dataset.profileMismatch ??= {}).filters ??= {})[key] = `the ${FILTER_LABEL[key]} filter ${placementSettings(profile, key, fit)}`;
    }),
  );
}

/**
 * The first other place of this filter where the same query lists nothing. Values of GroupType and
 * asset spaces no group has may be refused too (not shown): a 400 there is the filter read.
 */
function valueFilterNamed(api: Api, profile: Profile, key: ValueFilter, query: ListQuery): Promise<Placement | undefined> {
  return placementThatFits(
    api,
    profile,
    key,
    query,
    (ex) => (ex.response?.status === 200 && itemsOf(ex).length === 0) || (key !== 'name' && ex.response?.status === 400),
  );
}

/**
 * The read of every seen group, sent again once their visibility bound has passed where it missed some before it:
 * within the bound a snapshot may go back (replicas, a reload), and a read that misses groups then says nothing of the
 * Id filter. Only a target whose read missed some waits; against one that drops Ids, the phase waits out the bound.
 */
async function readAfterBound(api: Api, profile: Profile, dataset: Dataset, seen: string[], read: Exchange): Promise<Exchange> {
  const listed = new Set(itemsOf(read).map((item) => item.Id));
  if (read.response?.status !== 200 || seen.every((id) => listed.has(id))) return read;
  const bound = visibilityBound(dataset, seen);
  if (bound === undefined || (read.sentAt ?? Infinity) >= bound) return read;
  await sleep(bound - Date.now() + 50);
  return api.call('ListAssetGroups', listBody(profile, pollQuery(profile, seen)), { fresh: true });
}

/**
 * The run's seen primary groups asked for together, with room for all: an Id filter that keeps only
 * some of the Ids asked (the first, bound to `WHERE id = ?`) is LIST-04's finding, once, and every
 * test that reads groups by their Ids is blocked by it instead of failing its own requirement.
 */
export function idFilterKeepsAll(dataset: Dataset, seen: string[], exchange: Exchange): void {
  const failure = idFilterHoldsAll(seen)(exchange);
  // A read that lists none of them says nothing of the filter: within their visibility bound a snapshot may go back
  // (replicas, a reload), and the tests judge their own reads after the bound (suites/judging.ts afterBound).
  if (!failure || !itemsOf(exchange).some((item) => seen.includes(item.Id as string))) return;
  dataset.unseenBecause ??= { owner: 'LIST-04', failure, exchange };
  dataset.idFilterDrops = true;
}
