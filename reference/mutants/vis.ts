/** VIS: a created group becomes visible to lists, and stays visible. */
import { defaultHooks, type HookContext, type ListQuery, type ListResult, type Principal } from '../behaviour';
import { family, perServer } from './helpers';

const channelReads = perServer(() => new Map<string, number>());

/** Drops items a channel-bound token may not see (yet), keeping TotalCount consistent. */
function hideFromChannel(hidden: (reads: number) => boolean) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    const result = defaultHooks.listGroups(principal, query, ctx);
    if (principal.channel === null) return result;
    const reads = channelReads(ctx);
    const kept = result.Items.filter((item) => {
      const key = `${principal.token}\u0000${item.Id}`;
      const n = (reads.get(key) ?? 0) + 1;
      reads.set(key, n);
      return !hidden(n);
    });
    return { ...result, Items: kept, TotalCount: result.TotalCount - (result.Items.length - kept.length) };
  };
}

const firstRead = perServer(() => ({ at: undefined as number | undefined }));

export const VIS = family({
  /** A channel's read cache evicts a group after it has been read twice. */
  evictedAfterTwoReads: {
    breaks: 'VIS-02',
    description: "a channel-bound token's read cache drops a group after two reads",
    hooks: { listGroups: hideFromChannel((n) => n > 2) },
  },
  /** A channel's reads alternate between two replicas, one of which lacks the group. */
  flappingReplica: {
    breaks: 'VIS-02',
    description: 'every second read of a group by a channel-bound token misses it',
    hooks: { listGroups: hideFromChannel((n) => n % 2 === 0) },
  },
  /** The list snapshot is taken at the first read and never refreshed: nothing created later is ever listed. */
  snapshotFrozenAtFirstRead: {
    breaks: 'VIS-01',
    description: 'the list snapshot is taken at the first read and never refreshed',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const state = firstRead(ctx);
        state.at ??= ctx.store.now();
        const frozen = ctx.store.readingAs(() => ctx.store.snapshot().filter((g) => g.createdAt < state.at!));
        return defaultHooks.listGroups(principal, query, { ...ctx, store: frozen });
      },
    },
  },
});
