/** LIST: the list body and its filters. */
import { ApiError, badRequest, defaultHooks, type HookContext, type ListFilter } from '../behaviour';
import type { GroupRecord } from '../store';
import { family } from './helpers';

/** The reference filter with one of its fields dropped, as if that field were never read. */
const matchesIgnoring =
  (field: keyof ListFilter) =>
  (group: GroupRecord, filter: ListFilter, ctx: HookContext): boolean =>
    defaultHooks.matchesFilter(group, { ...filter, [field]: undefined }, ctx);

export const LIST = family({
  /** `{}` is refused as "empty", a common JavaScript slip (`Object.keys(body).length === 0`). */
  emptyListBodyRefused: {
    breaks: 'LIST-01',
    description: 'ListAssetGroups with body {} gets 400 "request body is empty"',
    hooks: {
      validateList: (body, ctx) =>
        Object.keys(body).length === 0 ? badRequest('ListAssetGroups', 'request body is empty') : defaultHooks.validateList(body, ctx),
    },
  },
  assetSpaceFilterIgnored: {
    breaks: 'LIST-02',
    description: 'the AssetSpaceId filter is ignored',
    hooks: { matchesFilter: matchesIgnoring('assetSpaceId') },
  },
  groupTypeFilterIgnored: {
    breaks: 'LIST-03',
    description: 'the GroupType filter is ignored',
    hooks: { matchesFilter: matchesIgnoring('groupType') },
  },
  groupIdsFilterIgnored: {
    breaks: 'LIST-04',
    description: 'the GroupIds filter is ignored',
    hooks: { matchesFilter: matchesIgnoring('groupIds') },
  },
  nameFilterIgnored: {
    breaks: 'LIST-05',
    description: 'the Name filter is ignored',
    hooks: { matchesFilter: matchesIgnoring('name') },
  },
  /** The name filter goes into a LIKE pattern unescaped: % and _ are wildcards. */
  nameFilterLikeWildcards: {
    breaks: 'LIST-05',
    description: 'the Name filter is a LIKE pattern: % and _ are wildcards',
    hooks: {
      matchesFilter: (group, filter, ctx) => {
        if (filter.name === undefined || !/[%_]/.test(filter.name)) return defaultHooks.matchesFilter(group, filter, ctx);
        const pattern = new RegExp(
          filter.name
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.'),
          'i',
        );
        return defaultHooks.matchesFilter(group, { ...filter, name: undefined }, ctx) && pattern.test(group.Name);
      },
    },
  },
  /** A filtered list that matches nothing is answered 404 "no groups found" instead of an empty page. */
  filteredNoMatchIs404: {
    breaks: 'LIST-06',
    description: 'a filtered list that matches nothing answers 404 "no asset groups found"',
    hooks: {
      authorizeList: (principal, query, ctx) => {
        const filtered = Object.values(query.filter).some((v) => v !== undefined);
        if (!filtered) return null;
        const any = ctx.store.snapshot().some((g) => ctx.hooks.visibleTo(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx));
        return any ? null : new ApiError(404, 'AssetBadRequest', 'no asset groups found');
      },
    },
  },
  /** `WHERE id = ?` bound to ids[0]: written for one Id, never updated for a list. */
  idFilterFirstOnly: {
    breaks: 'LIST-04',
    description: 'the GroupIds filter honours only the first Id of the list',
    hooks: {
      matchesFilter: (group, filter, ctx) =>
        defaultHooks.matchesFilter(group, filter.groupIds?.length ? { ...filter, groupIds: filter.groupIds.slice(0, 1) } : filter, ctx),
    },
  },
  /** `lower(name) LIKE '%' || ? || '%'` with the query bound as sent: a query with capitals never matches. */
  nameFilterLowercasesStoredOnly: {
    breaks: 'LIST-07',
    description: 'the Name filter lowercases the stored Name but not the query, so a query with capitals never matches',
    hooks: {
      matchesFilter: (group, filter, ctx) => {
        if (filter.name !== undefined && !group.Name.toLowerCase().includes(filter.name)) return false;
        return defaultHooks.matchesFilter(group, { ...filter, name: undefined }, ctx);
      },
    },
  },
  /**
   * A page of the maximum size goes to the export path, which a later change taught every filter but the name: a search by
   * name asked with PageSize at the maximum lists the user's groups unfiltered. The LIST tests ask the name filter without
   * paging; the reads of the run's groups by a name part ask the largest page: only the run-wide oracle compares those
   * items with the name that was asked.
   */
  nameFilterIgnoredOnLargestPage: {
    breaks: 'LIST-05',
    description: "the Name filter is ignored when PageSize is the profile's maximum",
    hooks: {
      listGroups: (principal, query, ctx) =>
        defaultHooks.listGroups(
          principal,
          query.pageSize === ctx.profile.list.pageSize.maximum ? { ...query, filter: { ...query.filter, name: undefined } } : query,
          ctx,
        ),
    },
  },
});
