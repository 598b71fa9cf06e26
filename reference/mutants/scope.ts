/** SCOPE: a list shows the caller's user's groups only, whatever the filter, page or count. */
import { defaultHooks } from '../behaviour';
import { PRIMARY_USER_ID } from '../config';
import { family, channelAllows, listCountingBeyondScope, listUnscopedWhen, listWith } from './helpers';

export const SCOPE = family({
  /** The "list everything" fast path (no filter) forgets the user check. */
  unfilteredListIgnoresUser: {
    breaks: 'SCOPE-01',
    description: "a list without a filter shows every user's groups",
    hooks: { listGroups: listUnscopedWhen((q) => Object.keys(q.filter).length === 0, { userOnly: true }) },
  },
  /** A GroupIds filter is served by primary-key lookup, which skips the user check. */
  idFilterIgnoresUser: {
    breaks: 'SCOPE-02',
    description: "another user's groups leak through a GroupIds filter",
    hooks: { listGroups: listUnscopedWhen((q) => (q.filter.groupIds?.length ?? 0) > 0, { userOnly: true }) },
  },
  /** An exact Name is served from a global name index, which skips the user check. */
  exactNameIgnoresUser: {
    breaks: 'SCOPE-03',
    description: "another user's group leaks through an exact Name filter",
    hooks: {
      listGroups: (principal, query, ctx) => {
        const name = query.filter.name;
        return listWith(principal, query, ctx, {
          visible: (g, p) => (name !== undefined && g.Name === name ? channelAllows(g, p) : ctx.hooks.visibleTo(g, p)),
        });
      },
    },
  },
  spaceFilterIgnoresUser: {
    breaks: 'SCOPE-04',
    description: 'a list filtered by AssetSpaceId skips the user rule (the channel rule still holds)',
    hooks: { listGroups: listUnscopedWhen((q) => q.filter.assetSpaceId !== undefined, { userOnly: true }) },
  },
  typeAndIdsIgnoreUser: {
    breaks: 'SCOPE-04',
    description: 'a list filtered by GroupType and Ids together skips the user rule (the channel rule still holds)',
    hooks: { listGroups: listUnscopedWhen((q) => q.filter.groupType !== undefined && (q.filter.groupIds?.length ?? 0) > 0, { userOnly: true }) },
  },
  totalCountUnscoped: {
    breaks: 'SCOPE-02',
    description: "TotalCount counts every user's matches while Items are scoped",
    hooks: { listGroups: listCountingBeyondScope(() => true) },
  },
  laterPagesUnscoped: {
    breaks: 'SCOPE-02',
    description: 'pages after the first skip the user and channel rules',
    hooks: { listGroups: listUnscopedWhen((q) => q.pageNumber > 1) },
  },
  /**
   * Staff see every user's groups: the list query skips the owner filter for an account flagged as staff (Django REST
   * framework's `get_queryset` with `if self.request.user.is_staff: return AssetGroup.objects.all()`), and the account a
   * platform's CI runs with is often one. The channel rule still holds. The SCOPE tests read as the second user, who is not
   * staff: only the run-wide oracle sees the leak, on AUTH-05's plain first page (SCOPE-01's boundary) and on VIS-02's last
   * read, which asks for the second user's group by Id beside the primary's own (SCOPE-02's).
   */
  staffSeesEveryUser: {
    breaks: 'SCOPE-02',
    description: "the primary user's lists skip the user rule (a staff account; the channel rule still holds), the second user's do not",
    hooks: {
      listGroups: (principal, query, ctx) =>
        principal.userId === PRIMARY_USER_ID ? listWith(principal, query, ctx, { visible: channelAllows }) : defaultHooks.listGroups(principal, query, ctx),
    },
  },
  /**
   * "Maybe the snapshot lags": an Id lookup that finds nothing is retried by Id alone, and the retry
   * forgets the user (it keeps the channel rule).
   */
  emptyIdLookupRetriedUnscoped: {
    breaks: 'SCOPE-02',
    description: "a GroupIds filter that finds none of the caller's groups is retried without the user rule",
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        if (result.TotalCount > 0 || !query.filter.groupIds?.length) return result;
        return listWith(principal, query, ctx, { visible: channelAllows });
      },
    },
  },
});
