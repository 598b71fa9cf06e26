/** The body of a ListAssetGroups request, from a query in the kit's terms to the profile's field names. */
import { withFilters, type Profile } from '../schemas/profile';
import type { FilterQuery } from './checks';

/** A list query in the kit's terms: its filters, and paging values sent as given (tests send invalid ones too). */
export interface ListQuery extends FilterQuery {
  pageNumber?: unknown;
  pageSize?: unknown;
}

export function listBody(profile: Profile, query: ListQuery): Record<string, unknown> {
  const { filters, filterField, pageNumber, pageSize } = profile.list;
  const filter: Record<string, unknown> = {};
  if (query.assetSpaceId !== undefined) filter[filters.assetSpaceId] = query.assetSpaceId;
  if (query.groupType !== undefined) filter[filters.groupType] = query.groupType;
  if (query.groupIds !== undefined) filter[filters.groupIds] = idFilterValue(profile, query.groupIds);
  if (query.name !== undefined) filter[filters.name] = query.name;
  const body = withFilters({ filterField }, filter);
  if (query.pageNumber !== undefined) body[pageNumber.field] = query.pageNumber;
  if (query.pageSize !== undefined) body[pageSize.field] = query.pageSize;
  return body;
}

/**
 * The Id filter's value: the list, or under list.idFilterTakes: one, its one Id as a string ('' for
 * none). A query of several Ids is split first (eachIdAlone): sending one of them would be a read
 * that silently asks less than the test means.
 */
function idFilterValue(profile: Profile, ids: string[]): string | string[] {
  if (profile.list.idFilterTakes !== 'one') return ids;
  if (ids.length > 1) throw new Error(`the profile's Id filter takes one Id, and this query asks ${ids.length}: split it with eachIdAlone`);
  return ids[0] ?? '';
}

/**
 * The queries that read these groups by their Ids: the query itself, or, where the target's Id filter
 * takes one Id (list.idFilterTakes: one), one query per Id, each with the query's other filters.
 */
export function eachIdAlone(profile: Profile, query: ListQuery): ListQuery[] {
  if (profile.list.idFilterTakes !== 'one' || query.groupIds === undefined || query.groupIds.length <= 1) return [query];
  return query.groupIds.map((id) => ({ ...query, groupIds: [id] }));
}

/**
 * The number of the nth page (n counted from 1) as the profile numbers pages: from list.pageNumber.minimum,
 * 1, or 0 where the target counts from 0 (Spring Data's Pageable).
 */
export function nthPage(profile: Profile, n: number): number {
  return profile.list.pageNumber.minimum + n - 1;
}

/** Only those of `ids` that a query asks for by Id (all of them for a query without an Id filter). */
export function askedOf(query: ListQuery, ids: string[]): string[] {
  return query.groupIds === undefined ? ids : ids.filter((id) => query.groupIds!.includes(id));
}

/**
 * A read of groups by their Ids, as the bodies it sends: one, or one per Id where the profile's Id filter takes one,
 * each with the query it answers. The one place such a read is built, for the Api (listByIds) and for the plans the
 * runner sends ahead (suites/plans/reads.ts), so that both send the very same requests.
 */
export const idReads = (profile: Profile, query: ListQuery): { query: ListQuery; body: Record<string, unknown> }[] =>
  eachIdAlone(profile, query).map((q) => ({ query: q, body: listBody(profile, q) }));
