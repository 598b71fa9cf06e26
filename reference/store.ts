/**
 * State of the reference server: the groups, the lagging list snapshot and the create-rate buckets.
 * Time is injected (a monotonic millisecond clock) so that the lag and the rate are deterministic
 * under test and so a mutant can skew either without touching the HTTP layer.
 */

export type Clock = () => number;

export const monotonicClock: Clock = () => performance.now();

export interface GroupRecord {
  Id: string;
  AssetSpaceId: string;
  Name: string;
  Title: string;
  Description: string;
  GroupType: string;
  ProjectName: string;
  CreateTime: string;
  UpdateTime: string;
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

  add(group: GroupRecord): void {
    this.groups.push(group);
  }

  /** The instant of the most recent snapshot refresh at `at`. */
  lastRefresh(at: number = this.clock()): number {
    if (this.lagMs === 0) return at;
    return this.start + Math.floor((at - this.start) / this.lagMs) * this.lagMs;
  }

  /** Groups in the snapshot, in creation order (oldest first). */
  snapshot(at: number = this.clock()): GroupRecord[] {
    const refreshed = this.lastRefresh(at);
    return this.groups.filter((g) => g.createdAt <= refreshed);
  }

  /** Everything written so far, snapshot or not; for tests and diagnostics. */
  all(): readonly GroupRecord[] {
    return this.groups;
  }
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
