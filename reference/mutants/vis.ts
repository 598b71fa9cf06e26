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

/** After this long from the server's start, snapshotFreezesAfter10s's snapshot stops refreshing. */
const FREEZE_AFTER_MS = 10_000;
/** Groups older than this vanish from dropsGroupsOlderThan15s's lists. */
const DROP_AFTER_MS = 15_000;

/**
 * Durability mutants: faults that show only over time, so that a single run of the kit (some 3 s) cannot see them and
 * `agc certify --runs 2 --span 20s` must (tests/certify.test.ts). They break the rule of reference/mutants.ts that no
 * modifier reads the clock, on purpose: time is their fault. Hence not in MUTANTS, which the kill matrix runs one
 * short run at a time (whether it kills them would depend on how long the machine took to get there); in
 * DURABILITY_MUTANTS, served by --mutant like any other. Their clock is the server's (the store's, injected).
 */
export const VIS_DURABILITY = family({
  /** The snapshot job dies 10 s after the server started: the list keeps serving the last snapshot it took. */
  snapshotFreezesAfter10s: {
    breaks: 'VIS-01',
    description: 'the list snapshot stops refreshing 10 s after the server started: groups created later never show (durability: agc certify --span)',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const frozenAt = Math.min(ctx.store.now(), ctx.store.startedAt() + FREEZE_AFTER_MS);
        const frozen = ctx.store.readingAs(() => ctx.store.snapshot(frozenAt));
        return defaultHooks.listGroups(principal, query, { ...ctx, store: frozen });
      },
    },
  },
  /** A retention job meant for another table: groups vanish from lists 15 s after their create. */
  dropsGroupsOlderThan15s: {
    breaks: 'VIS-02',
    description: 'groups older than 15 s vanish from lists (durability: agc certify --span)',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const now = ctx.store.now();
        const kept = ctx.store.readingAs(() => ctx.store.snapshot(now).filter((g) => now - g.createdAt <= DROP_AFTER_MS));
        return defaultHooks.listGroups(principal, query, { ...ctx, store: kept });
      },
    },
  },
});
