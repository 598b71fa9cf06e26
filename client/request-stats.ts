/** What one Api sent, for the benchmarks (bench/run.ts): how many requests, how long, and how deep their chain was. */

export interface RequestStats {
  count: number;
  /** Sum of the requests' durations. */
  totalMs: number;
  /** The longest run of requests each sent after the previous one answered (1 per round of concurrent ones). */
  chain: number;
  durationsMs: number[];
}

/** When a request was under way, in performance.now() time. */
export interface Span {
  start: number;
  end: number;
}

/** Longest chain of intervals in which each starts after the previous one ended. */
export function longestChain(spans: Span[]): number {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    depth[i] = 1;
    for (let j = 0; j < i; j++) if (sorted[j].end <= sorted[i].start) depth[i] = Math.max(depth[i], depth[j] + 1);
  }
  return Math.max(0, ...depth);
}

/** From each request's duration (Exchange.durationMs) and span. */
export function requestStats(durationsMs: number[], spans: Span[]): RequestStats {
  return { count: durationsMs.length, totalMs: durationsMs.reduce((a, b) => a + b, 0), chain: longestChain(spans), durationsMs: [...durationsMs] };
}
