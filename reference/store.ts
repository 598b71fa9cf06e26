/**
 * State of the reference server: the groups, the lagging list snapshot and the create-rate buckets.
 * Time is injected (a monotonic millisecond clock) so that the lag and the rate are deterministic
 * under test and so a mutant can skew either without touching the HTTP layer.
 */
import type { ListItem } from './behaviour-base';

export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();

/** A group as stored: what a list item shows, plus who owns it and when it was made. */
export interface GroupRecord extends ListItem {
  ownerUserId: string;
  /** Channel of the token that created it; null for an unbound token. */
  channel: string | null;
  /** Monotonic instant of creation, for the snapshot; wall-clock time is in CreateTime. */
  createdAt: number;
}

/**
 * Creates land at once; reads go through `snapshot()`, which models the spec's "local snapshot ...
 * may lag": the snapshot is refreshed at start + k*lagMs, and a group is in it once the most
 * recent refresh is at or after its creation. Computed on read, so there is no timer to leak.
 */
export class GroupStore {
  private readonly groups: GroupRecord[] = [];
  private readonly start: number;
  /** The last snapshot computed, see snapshot(). */
  private filtered?: { refreshed: number; count: number; groups: GroupRecord[] };

  constructor(
    readonly lagMs: number,
    private readonly clock: Clock = monotonicClock,
  ) {
    if (!(lagMs >= 0) || !Number.isFinite(lagMs)) throw new RangeError(`lagMs must be a finite number >= 0, got ${lagMs}`);
    this.start = clock();
  }

  now(): number {
    return this.clock();
  }

  /** The instant the store was made, on its clock: when the server started. */
  startedAt(): number {
    return this.start;
  }

  add(group: GroupRecord): void {
    this.groups.push(group);
  }

  /**
   * Adds groups that existed before the server started (see `preloadGroups`): dated before the
   * first snapshot, so every list sees them from the first request on.
   */
  addExisting(groups: Omit<GroupRecord, 'createdAt'>[]): void {
    for (const group of groups) this.groups.push({ ...group, createdAt: this.start - 1 });
  }

  /** The instant of the most recent snapshot refresh at `at`. */
  lastRefresh(at: number = this.clock()): number {
    if (this.lagMs === 0) return at;
    return this.start + Math.floor((at - this.start) / this.lagMs) * this.lagMs;
  }

  /** This store with its snapshot read otherwise: the view of the same groups that a variant's or a mutant's list hook reads. */
  readingAs(snapshot: () => GroupRecord[]): GroupStore {
    return Object.assign(Object.create(this) as GroupStore, { snapshot });
  }

  /** Groups in the snapshot, in creation order (oldest first). */
  snapshot(at: number = this.clock()): GroupRecord[] {
    const refreshed = this.lastRefresh(at);
    // With groups preloaded (tens of thousands), filtering them on every list cost milliseconds of
    // CPU per request; the snapshot only changes at a refresh or with a new group, so it is filtered
    // once per (refresh, count) and each caller gets its own copy.
    if (this.filtered?.refreshed !== refreshed || this.filtered.count !== this.groups.length) {
      this.filtered = { refreshed, count: this.groups.length, groups: this.groups.filter((g) => g.createdAt <= refreshed) };
    }
    return this.filtered.groups.slice();
  }

  /** Everything written so far, snapshot or not; for tests and diagnostics. */
  all(): readonly GroupRecord[] {
    return this.groups;
  }
}

/** Groups put on the server before it answers: a target that already holds other people's data. */
export interface PreloadSettings {
  /** How many groups. */
  groups: number;
  /** The primary user's part of them, 0..1; the rest belong to other users. */
  primaryShare: number;
}

/** Who owns preloaded groups: the primary user (over its channels) and everyone else. */
export interface PreloadOwners {
  primaryUserId: string;
  /** Channels of the primary user's tokens; null = created through an unbound token. */
  primaryChannels: (string | null)[];
  /** Other users' ids; the preload adds a few users of its own besides. */
  otherUserIds: string[];
}

/**
 * Fills the store with `settings.groups` groups, deterministically: the primary user's share
 * spread over its channels, the rest over other users, and all of them over several asset spaces
 * each (the owner's usual space and a few more). Names never start with the kit's `agc-` prefix.
 */
export function preloadGroups(store: GroupStore, settings: PreloadSettings, owners: PreloadOwners): void {
  const { groups, primaryShare } = settings;
  if (!Number.isInteger(groups) || groups < 0) throw new RangeError(`preload.groups must be a whole number >= 0, got ${groups}`);
  if (!(primaryShare >= 0 && primaryShare <= 1)) throw new RangeError(`preload.primaryShare must be between 0 and 1, got ${primaryShare}`);
  const channels = owners.primaryChannels.length ? owners.primaryChannels : [null];
  const others = [...owners.otherUserIds, 'user-preload-1', 'user-preload-2', 'user-preload-3'];
  // A day old, one second apart: older than any snapshot lag, in creation order.
  const base = Date.now() - 86_400_000 - groups * 1000;
  const records: Omit<GroupRecord, 'createdAt'>[] = [];
  let mineSoFar = 0;
  let theirsSoFar = 0;
  for (let i = 0; i < groups; i++) {
    // Spread evenly: floor(groups * primaryShare) of them are the primary user's, interleaved with the rest.
    const mine = Math.floor((i + 1) * primaryShare) > Math.floor(i * primaryShare);
    const n = mine ? mineSoFar++ : theirsSoFar++;
    const ownerUserId = mine ? owners.primaryUserId : others[n % others.length];
    const channel = mine ? channels[n % channels.length] : null;
    const home = channel === null ? `space-${ownerUserId}` : `space-${ownerUserId}-${channel}`;
    const time = new Date(base + i * 1000).toISOString();
    records.push({
      Id: `agp-${i.toString(16).padStart(32, '0')}`,
      // A quarter in the owner's usual space (where the kit's own groups land), the rest in three more.
      AssetSpaceId: n % 4 === 0 ? home : `${home}-archive-${Math.floor(n / 3) % 3}`,
      Name: `preloaded-${ownerUserId}-${i}`,
      Title: `Preloaded group ${i}`,
      Description: 'Put on the server before it started (preload)',
      GroupType: 'AIGC',
      ProjectName: n % 5 === 0 ? 'default' : `project-${n % 7}`,
      CreateTime: time,
      UpdateTime: time,
      ownerUserId,
      channel,
    });
  }
  store.addExisting(records);
}

export interface RateSettings {
  perSecond: number;
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** One token bucket per key (the bearer token): full at first use, refilled continuously. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly settings: RateSettings,
    private readonly clock: Clock = monotonicClock,
  ) {
    const { perSecond, burst } = settings;
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new RangeError(`createRate.perSecond must be a positive number, got ${perSecond}`);
    if (!(burst >= 1) || !Number.isFinite(burst)) throw new RangeError(`createRate.burst must be a number >= 1, got ${burst}`);
  }

  take(key: string): RateDecision {
    const now = this.clock();
    const { perSecond, burst } = this.settings;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    // Whole seconds, rounded up and never 0: a client that waits exactly this long gets a token.
    const wait = Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    return { allowed: false, retryAfterSeconds: wait };
  }
}
