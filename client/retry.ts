/** How the kit answers a target protecting itself (429/503 to a create): Retry-After, bounded. */
import type { Exchange } from './exchange';

/** 429 and 503 answers to a create are the target protecting itself, not a failure: they are counted. */
export interface RetryCounts {
  429: number;
  503: number;
}

export const MAX_CREATE_ATTEMPTS = 12;
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * Creates the target still refused with 429/503 after the bounded retries. Such an answer says the
 * target is protecting itself, not how it judged the request: a check over it is not assessable,
 * and the kit will not load the target further to find out.
 */
export const rateLimitedOut = new WeakSet<Exchange>();
export const RATE_LIMITED_REASON = `the target kept answering 429/503 to creates after ${MAX_CREATE_ATTEMPTS} attempts honouring Retry-After; not assessed rather than load it further`;

/** Retry-After in seconds or as an HTTP date; a missing or odd value gets a gentle default. */
export function retryAfterMs(header: string | undefined, attempt: number): number {
  const fallback = Math.min(500 * 2 ** attempt, MAX_RETRY_AFTER_MS);
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(header);
  if (!Number.isNaN(date)) return Math.min(Math.max(date - Date.now(), 0), MAX_RETRY_AFTER_MS);
  return fallback;
}

/** A create the target answered as protecting itself (429, 503): waited out and sent again, never judged as refused. */
export const isThrottled = (exchange: Exchange): boolean => exchange.response?.status === 429 || exchange.response?.status === 503;

/** Waits out a throttled answer's Retry-After: never before it, a little after at random, so workers throttled together do not retry together. */
export const waitRetryAfter = (exchange: Exchange, attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, retryAfterMs(exchange.response!.headers['retry-after'], attempt) * (1 + Math.random() / 2)));
