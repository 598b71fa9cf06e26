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
  if (query.groupIds !== undefined) filter[filters.groupIds] = query.groupIds;
  if (query.name !== undefined) filter[filters.name] = query.name;
  const body = withFilters({ filterField }, filter);
  if (query.pageNumber !== undefined) body[pageNumber.field] = query.pageNumber;
  if (query.pageSize !== undefined) body[pageSize.field] = query.pageSize;
  return body;
}
