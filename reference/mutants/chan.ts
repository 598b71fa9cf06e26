/** CHAN: a channel-bound token sees its channel's groups only; an unbound token sees all of its user's. */
import { defaultHooks } from '../behaviour';
import { family, listCountingBeyondScope, listUnscopedWhen, unfiltered } from './helpers';

export const CHAN = family({
  /** The channel binding of the token is not applied to lists. */
  channelIgnored: {
    breaks: 'CHAN-02',
    description: 'a channel-bound token sees every channel of its user',
    hooks: { visibleTo: (group, principal) => group.ownerUserId === principal.userId },
  },
  /** "No channel" is treated as one more channel: an unbound token sees only unbound groups. */
  unboundSeesOnlyUnbound: {
    breaks: 'CHAN-03',
    description: 'an unbound token sees only groups created without a channel',
    hooks: { visibleTo: (group, principal) => group.ownerUserId === principal.userId && group.channel === principal.channel },
  },
  /** The group record does not keep the channel it was created through. */
  channelNotRecorded: {
    breaks: 'CHAN-01',
    description: 'groups do not keep the channel they were created through, so channel-bound tokens never see them',
    hooks: {
      createGroup: (principal, input, ctx) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        group.channel = null;
        return group;
      },
    },
  },
  nameFilterIgnoresChannel: {
    breaks: 'CHAN-04',
    description: 'a list filtered by Name skips the channel rule',
    hooks: { listGroups: listUnscopedWhen((q) => q.filter.name !== undefined, { channelOnly: true }) },
  },
  spaceFilterIgnoresChannel: {
    breaks: 'CHAN-04',
    description: 'a list filtered by AssetSpaceId skips the channel rule',
    hooks: { listGroups: listUnscopedWhen((q) => q.filter.assetSpaceId !== undefined, { channelOnly: true }) },
  },
  totalCountIgnoresChannel: {
    breaks: 'CHAN-04',
    description: "TotalCount counts the user's matches of every channel while Items keep to the token's channel",
    hooks: { listGroups: listCountingBeyondScope((g, p) => g.ownerUserId === p.userId) },
  },
  /**
   * The channel rule is applied where the filters are built (`if (body.Filter) applyFilters(query, body.Filter, token)`),
   * which a list without any filter skips. Every CHAN test filters (by Id, Name, space or type), so only the run-wide
   * oracle sees the leak, on AUTH-05's first page of each configured token.
   */
  channelScopedInFiltersOnly: {
    breaks: 'CHAN-02',
    description: "a channel-bound token's list without any filter shows every channel of its user",
    hooks: {
      listGroups: listUnscopedWhen(unfiltered, { channelOnly: true }),
    },
  },
  /** Page 1 comes from the channel-scoped query; "load more" pages from a query scoped by user alone. */
  channelScopeFirstPageOnly: {
    breaks: 'CHAN-02',
    description: "a channel-bound token's pages after the first show every channel of its user",
    hooks: { listGroups: listUnscopedWhen((q) => q.pageNumber > 1, { channelOnly: true }) },
  },
});
