/**
 * Variants of the visibility lag: the reference list read through a snapshot that each group
 * reaches after a delay of its own, per group or per reader, each a lag the spec allows. Listed in
 * VARIANTS (reference/variants.ts) under "visibility lag"; the kit's own tests build other lags
 * with `listWithExtraLag`.
 */
import { createHash } from 'node:crypto';
import { defaultHooks, type HookContext, type ListQuery, type ListResult, type Principal } from './behaviour';
import type { GroupRecord } from './store';
import type { Variant } from './behaviour-types';

/** A stable number 0..n-1 from a group Id, so a "random" lag is the same on every run. */
const spread = (id: string, n: number) => createHash('sha256').update(id).digest().readUInt32BE(0) % n;

/** The reference list, read through a snapshot where each group has its own extra delay. */
export function listWithExtraLag(extraMs: (group: GroupRecord, principal: Principal) => number) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    const now = ctx.store.now();
    const inner = {
      ...ctx,
      store: ctx.store.readingAs(() => ctx.store.snapshot().filter((g) => g.createdAt + extraMs(g, principal) <= now)),
    };
    return defaultHooks.listGroups(principal, query, inner);
  };
}

type ListGroups = (principal: Principal, query: ListQuery, ctx: HookContext) => ListResult;

/** Each list served by the next of these in turn (a balancer's round robin), counted per server: deterministic. */
function inTurn(readers: ListGroups[]): ListGroups {
  const turns = new WeakMap<HookContext, number>();
  return (principal, query, ctx) => {
    const turn = turns.get(ctx) ?? 0;
    turns.set(ctx, turn + 1);
    return readers[turn % readers.length](principal, query, ctx);
  };
}

export const LAG_VARIANTS: readonly Variant[] = [
  {
    name: 'perGroupLag',
    description: 'each group reaches the list snapshot after its own delay, 0 to 600 ms past the refresh',
    allows: 'The list operation reads a local snapshot of the groups. It does not contact the upstream system, so its data may lag briefly.',
    hooks: { listGroups: listWithExtraLag((g) => spread(g.Id, 600)) },
  },
  {
    name: 'unboundReplicaLagsChannels',
    description: "the unbound token reads a replica that receives the channels' groups 1.5 s later than the channel-bound tokens see them",
    allows: "The operation reads the service's local snapshot and never queries the upstream system; results may lag behind the upstream state.",
    hooks: { listGroups: listWithExtraLag((g, p) => (p.channel === null && g.channel !== null ? 1500 : 0)) },
  },
  {
    name: 'slowChannelReplica',
    description: 'channel-bound tokens read a replica that lags 500 ms more than the others',
    allows: "The operation reads the service's local snapshot and never queries the upstream system; results may lag behind the upstream state.",
    hooks: { listGroups: listWithExtraLag((_g, p) => (p.channel === null ? 0 : 500)) },
  },
  {
    name: 'twoReplicasRoundRobin',
    description:
      'lists are served in turn by two replicas behind a round-robin balancer, each with its own snapshot; the second refreshes 1.2 s after the first, so a group one read listed may be missing from the next',
    allows: "The operation reads the service's local snapshot and never queries the upstream system; results may lag behind the upstream state.",
    hooks: { listGroups: inTurn([defaultHooks.listGroups, listWithExtraLag(() => 1200)]) },
  },
  {
    name: 'snapshotReloadedFromBackup',
    description:
      'every third list is read from the previous snapshot, 1.5 s older, while the current one is reloaded: the list goes back in time, within the lag',
    allows: "The operation reads the service's local snapshot and never queries the upstream system; results may lag behind the upstream state.",
    hooks: { listGroups: inTurn([defaultHooks.listGroups, defaultHooks.listGroups, listWithExtraLag(() => 1500)]) },
  },
];
