/**
 * Queries over the run's groups, as pure functions of the profile and the dataset: the Name parts the run's
 * groups share, a query that lists them alone where the profile's filters allow one, and a value no group has.
 */
import { nameMatchParts, type Profile } from '../schemas/profile';
import { type ListQuery } from './api';
import type { TokenRole } from '../config';
import { Dataset, ValueFilter, isGroup, readAlone } from './dataset';

/** The part of a Name that the run's primary groups alone share (dataset-setup.ts names them `<prefix>ds-<key>-<salt>`). */
export const primaryNamePart = (dataset: Dataset): string => `${dataset.prefix}ds-p`;

/** The part of a Name that the run's two channel groups alone share. */
export const channelNamePart = (dataset: Dataset): string => `${dataset.prefix}ds-c`;

/**
 * A query that lists exactly these groups of the run, to page through: their Ids; under a one-Id filter
 * (list.idFilterTakes: one), `namePart`, the part of a Name they alone share, where the Name filter
 * matches part of a Name. undefined where it matches whole Names only: then no query lists several of
 * the run's groups and nothing else.
 */
export function confinedQuery(profile: Profile, ids: string[], namePart: string): ListQuery | undefined {
  if (profile.list.idFilterTakes !== 'one') return { groupIds: ids };
  return nameMatchParts(profile.list.nameMatch).mode === 'exact' ? undefined : { name: namePart };
}

/**
 * p0 and its namesake, both listed by the phase, and the query by their Name, which lists them alone wherever the
 * Name filter matches whole Names; or why there are not two (the namesake refused, not listed, or not planned).
 */
export function namesakePages(dataset: Pick<Dataset, 'groups' | 'visibilityTimeoutMs'>): { ids: string[]; query: ListQuery } | { why: string } {
  const [p0, namesake] = [isGroup('plain'), isGroup('namesake')].map((is) => dataset.groups.find(is));
  if (!namesake || !p0) return { why: 'no second group of one Name was created' };
  if (namesake.id === null)
    return {
      why: `a second group of p0's Name was not created (create answered ${namesake.create.response ? `HTTP ${namesake.create.response.status}` : `nothing: ${namesake.create.networkError}`}): the target may keep Names unique, which the spec leaves open`,
    };
  if (p0.id === null || p0.visibleAfterMs === null || namesake.visibleAfterMs === null)
    return { why: `p0 and the second group of its Name were not both listed within ${dataset.visibilityTimeoutMs} ms` };
  return { ids: [p0.id, namesake.id], query: { name: p0.sent.Name } };
}

/** What roleGroupsRead asks, which the runner may send ahead (suites/plans/). */
export function roleGroupsQuery(profile: Profile, dataset: Dataset, role: TokenRole, options: { bounds?: boolean } = {}): ListQuery {
  // Not groupsOf: a missing group of the role blocks only the tests that need it, which ask groupsOf themselves.
  const ids = dataset.groups.filter((g) => g.via === role && g.id !== null && g.visibleAfterMs !== null && !readAlone(g, options)).map((g) => g.id as string);
  return { groupIds: ids, pageSize: profile.list.pageSize.maximum };
}

/**
 * A query under one filter that matches none of the run's groups: LIST-02's, LIST-03's and LIST-06's
 * own, which the phase reads first (api.ts shares them) to tell a filter the target ignores. `ids`
 * are the run's visible groups as groupsOf gives them: all of them, and the primary token's. Under a
 * one-Id filter, the first of them: an ignored filter lists that group.
 */
export function matchingNothing(profile: Profile, dataset: Dataset, filter: ValueFilter, ids: { all: string[]; primary: string[] }): ListQuery {
  const confined = (list: string[]) => (profile.list.idFilterTakes === 'one' ? list.slice(0, 1) : list);
  if (filter === 'assetSpaceId') return { assetSpaceId: `${dataset.prefix}no-such-space`, groupIds: confined(ids.all) };
  if (filter === 'groupType') return { groupType: `AGC_NO_SUCH_TYPE_${dataset.runId}`, groupIds: confined(ids.primary) };
  return { name: `${dataset.prefix}nothing-matches` };
}

/** Where the Id filter takes one Id and the Name filter matches whole Names, only a Name two groups share lists the run's groups alone. */
export const namesakeNeeded = (profile: Profile): boolean => confinedQuery(profile, [], '') === undefined;

/**
 * The largest page the profile allows, not one the size of the pending Ids: then a target that
 * mishandles the Id filter still shows the run's few new groups on its first page, and what fails
 * is the filter's own requirement (LIST-04), deterministically, not visibility by chance.
 */
export function pollQuery(profile: Profile, ids: string[]): ListQuery {
  return { groupIds: ids, pageSize: profile.list.pageSize.maximum };
}

/**
 * The Name parts the run's own groups share (primaryNamePart, channelNamePart), each with the Ids of every group of the
 * run whose Name holds it, whatever the case: no group of another run or user can hold the run's prefix, and the kit's
 * other creates name theirs otherwise (uniqueName). A part that a group the run could not create holds is left out: what
 * it lists is then not known.
 */
export function runNameParts(dataset: Dataset): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  for (const part of [primaryNamePart(dataset), channelNamePart(dataset)]) {
    const carriers = dataset.groups.filter((g) =>
      String(g.sent.Name ?? '')
        .toLowerCase()
        .includes(part.toLowerCase()),
    );
    if (carriers.length && carriers.every((g) => g.id !== null))
      parts.set(
        part,
        carriers.map((g) => g.id!),
      );
  }
  return parts;
}
