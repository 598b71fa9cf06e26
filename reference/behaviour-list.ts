/** The steps of ListAssetGroups: validation, who sees which group, filtering and paging. */
import { filterLabel, invalidPagingFor, nameMatches } from '../schemas/profile';
import { ApiError, badRequest, describe, isObject, own } from './behaviour-base';
import type { HookContext, ListFilter, ListQuery, ListResult, Principal } from './behaviour-types';
import type { ListItem } from './behaviour-base';
import type { GroupRecord } from './store';

export function validateList(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  const { list } = ctx.profile;
  const fail = (message: string) => badRequest('ListAssetGroups', message);
  const filter: ListFilter = {};
  // A profile whose filterField is '' keeps the filters at the top level of the body.
  const rawFilter = list.filterField === '' ? body : own(body, list.filterField);
  if (rawFilter !== undefined) {
    if (!isObject(rawFilter)) return fail(`${list.filterField} must be an object, got ${describe(rawFilter)}`);
    const names = list.filters;
    for (const key of ['assetSpaceId', 'groupType', 'name'] as const) {
      const value = own(rawFilter, names[key]);
      if (value === undefined) continue;
      if (typeof value !== 'string') return fail(`${filterLabel(list, names[key])} must be a string, got ${describe(value)}`);
      filter[key] = value;
    }
    const ids = own(rawFilter, names.groupIds);
    // Under list.idFilterTakes: one, one Id as a string ('' filters by none, as `if id:` does).
    if (ids !== undefined && list.idFilterTakes === 'one') {
      if (typeof ids !== 'string') return fail(`${filterLabel(list, names.groupIds)} must be a string, got ${describe(ids)}`);
      filter.groupIds = ids === '' ? [] : [ids];
    } else if (ids !== undefined) {
      if (!Array.isArray(ids)) return fail(`${filterLabel(list, names.groupIds)} must be an array of strings, got ${describe(ids)}`);
      const bad = ids.findIndex((id) => typeof id !== 'string');
      if (bad >= 0) return fail(`${filterLabel(list, names.groupIds)}[${bad}] must be a string, got ${describe(ids[bad])}`);
      filter.groupIds = ids as string[];
    }
  }
  const paging = (spec: { field: string; default: number; minimum: number; maximum?: number }): number | ApiError => {
    const sent = own(body, spec.field);
    if (sent === undefined) return spec.default;
    // A fraction under an adjusting fractionalPaging is read as its whole part (Jackson's ACCEPT_FLOAT_AS_INT), then bounded as any value.
    const value = typeof sent === 'number' && !Number.isInteger(sent) && list.fractionalPaging === 'adjust' ? Math.trunc(sent) : sent;
    const range = spec.maximum === undefined ? `>= ${spec.minimum}` : `between ${spec.minimum} and ${spec.maximum}`;
    const ok = typeof value === 'number' && Number.isInteger(value) && value >= spec.minimum && (spec.maximum === undefined || value <= spec.maximum);
    // An adjusting profile serves a value below the minimum, or a fraction, as the default; the answer says so.
    const adjustable = typeof value === 'number' && (value < spec.minimum || !Number.isInteger(value));
    if (!ok && adjustable && invalidPagingFor(list, value) === 'adjust') return spec.default;
    return ok ? value : fail(`${spec.field} must be an integer ${range}, got ${typeof sent === 'number' ? sent : describe(sent)}`);
  };
  const pageNumber = paging(list.pageNumber);
  if (pageNumber instanceof ApiError) return pageNumber;
  // Above the maximum, a clamping profile serves the maximum (and says so in Result.PageSize).
  const clamp = list.pageSize.aboveMaximum === 'clamp';
  const rawSize = own(body, list.pageSize.field);
  const above = clamp && typeof rawSize === 'number' && Number.isInteger(rawSize) && rawSize > list.pageSize.maximum;
  const pageSize = above ? list.pageSize.maximum : paging(list.pageSize);
  if (pageSize instanceof ApiError) return pageSize;
  return { filter, pageNumber, pageSize };
}

/** The reference refuses no valid query, except a page past the end under a profile whose list.pageNumber.pastEnd is refuse. */
export function authorizeList(principal: Principal, query: ListQuery, ctx: HookContext): ApiError | null {
  if (ctx.profile.list.pageNumber.pastEnd !== 'refuse') return null;
  const last = lastPage(matching(principal, query, ctx).length, query.pageSize, ctx.profile.list.pageNumber.minimum);
  if (query.pageNumber <= last) return null;
  return badRequest('ListAssetGroups', `${ctx.profile.list.pageNumber.field} ${query.pageNumber} is past the last page, ${last}`);
}

/** The caller's groups that match the filter, in the snapshot's order (list rules 1-3). */
export function matching(principal: Principal, query: ListQuery, ctx: HookContext): GroupRecord[] {
  const { hooks } = ctx;
  return ctx.store.snapshot().filter((g) => hooks.visibleTo(g, principal) && hooks.matchesFilter(g, query.filter, ctx));
}

/**
 * The number of the last page; the first when nothing matches (the first page always exists, empty or
 * not). Pages count from list.pageNumber.minimum: 1, or 0 under a zero-based profile (Spring Data's Pageable).
 */
function lastPage(matches: number, pageSize: number, first: number): number {
  return first + Math.max(0, Math.ceil(matches / pageSize) - 1);
}

export function visibleTo(group: GroupRecord, principal: Principal): boolean {
  if (group.ownerUserId !== principal.userId) return false;
  return principal.channel === null || group.channel === principal.channel;
}

export function matchesFilter(group: GroupRecord, filter: ListFilter, ctx: HookContext): boolean {
  if (filter.assetSpaceId !== undefined && group.AssetSpaceId !== filter.assetSpaceId) return false;
  if (filter.groupType !== undefined && group.GroupType !== filter.groupType) return false;
  if (filter.groupIds !== undefined && filter.groupIds.length > 0 && !filter.groupIds.includes(group.Id)) return false;
  if (filter.name !== undefined && !nameMatches(group.Name, filter.name, ctx.profile.list.nameMatch)) return false;
  return true;
}

export function listGroups(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const { hooks } = ctx;
  const matches = matching(principal, query, ctx);
  // A page past the end: empty (slice clamps, so huge page numbers are simply empty), or, under
  // pastEnd: last, the last page with its own number, as Django's Paginator.get_page serves it.
  // (pastEnd: refuse never gets here: authorizeList refused it.)
  const first = ctx.profile.list.pageNumber.minimum;
  const last = lastPage(matches.length, query.pageSize, first);
  const pageNumber = ctx.profile.list.pageNumber.pastEnd === 'last' && query.pageNumber > last ? last : query.pageNumber;
  const offset = (pageNumber - first) * query.pageSize;
  return {
    Items: matches.slice(offset, offset + query.pageSize).map((g) => hooks.toListItem(g)),
    TotalCount: matches.length,
    PageNumber: pageNumber,
    PageSize: query.pageSize,
  };
}

export function toListItem(g: GroupRecord): ListItem {
  return {
    Id: g.Id,
    AssetSpaceId: g.AssetSpaceId,
    Name: g.Name,
    Title: g.Title,
    Description: g.Description,
    GroupType: g.GroupType,
    ProjectName: g.ProjectName,
    CreateTime: g.CreateTime,
    UpdateTime: g.UpdateTime,
  };
}
