/**
 * The critical path of a run, from a log of when each request arrived and when its answer left (latency-proxy.ts): the
 * longest chain of requests each of which arrived only after the one before it had been answered. Its length is how
 * many round trips a run waits out one after another: under a latency L per answer, it costs at least that many L.
 */
import type { ProxiedExchange } from './latency-proxy';

export interface CriticalPath {
  depth: number;
  /** The chain, first request first. */
  steps: ProxiedExchange[];
}

/** Longest chain in the interval order "answered before arrived": one pass over the requests in order of arrival. */
export function criticalPath(log: readonly ProxiedExchange[]): CriticalPath {
  const byArrival = [...log].sort((a, b) => a.arrivedMs - b.arrivedMs);
  const depth: number[] = [];
  const before: (number | undefined)[] = [];
  for (const [i, request] of byArrival.entries()) {
    let best: number | undefined;
    for (let j = 0; j < i; j++) if (byArrival[j].answeredMs <= request.arrivedMs && (best === undefined || depth[j] > depth[best])) best = j;
    depth.push(best === undefined ? 1 : depth[best] + 1);
    before.push(best);
  }
  if (!byArrival.length) return { depth: 0, steps: [] };
  const steps: ProxiedExchange[] = [];
  for (let at: number | undefined = depth.indexOf(Math.max(...depth)); at !== undefined; at = before[at]) steps.unshift(byArrival[at]);
  return { depth: steps.length, steps };
}

/** A step as a reader of the bench knows it: the operation, and what the body asks (a create's Name label; a list's filters and paging). */
export function stepLabel(step: ProxiedExchange, prefix: string): string {
  let body: unknown;
  try {
    body = JSON.parse(step.body);
  } catch {
    return `${step.action ?? '(no Action)'} (a body that is not JSON) → ${step.status}`;
  }
  const shape = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.length}]`
      : typeof value === 'object' && value !== null
        ? `{${Object.entries(value)
            .map(([k, v]) => `${k}: ${shape(v)}`)
            .join(', ')}}`
        : typeof value === 'string'
          ? 'string'
          : JSON.stringify(value);
  if (step.action === 'CreateAssetGroup' && typeof body === 'object' && body !== null && typeof (body as { Name?: unknown }).Name === 'string') {
    const name = (body as { Name: string }).Name;
    return `CreateAssetGroup ${name.startsWith(prefix) ? name.slice(prefix.length).slice(0, 40) : '(another Name)'} → ${step.status}`;
  }
  return `${step.action ?? '(no Action)'} ${shape(body).slice(0, 120)} → ${step.status}`;
}
