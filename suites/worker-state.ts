/**
 * What one worker remembers of a run across its tests: the group Ids each token was shown, and the tokens whose creates
 * the target throttled (their creates then go one at a time). Per run, since one worker of the kit's own matrices judges
 * several.
 */
import type { Exchange } from '../client/exchange';
import type { TokenRole } from '../config';
import { readPointer } from '../schemas/profile';

/**
 * Group Ids each token has been shown in a list, in this worker, per run (one worker of the kit's own
 * matrices judges several runs): a group missing from a later list is only "lost" (VIS-02) if that
 * token saw it before.
 */
const seen = new Map<string, Map<TokenRole, Set<string>>>();
const seenIn = (runId: string) => seen.get(runId) ?? seen.set(runId, new Map()).get(runId)!;
export const seenBy = (runId: string, role: TokenRole): Set<string> => {
  const roles = seenIn(runId);
  return roles.get(role) ?? roles.set(role, new Set()).get(role)!;
};
/** Whether any token has been shown this group in a list of the run: from then on it is in the snapshot for good. */
export const seenByAny = (runId: string, id: string): boolean => [...seenIn(runId).values()].some((ids) => ids.has(id));

/**
 * When each group this worker created was answered, per run: the visibility bound of a group a test created itself (the
 * model's), which the dataset, the phase's record, does not hold.
 */
const created = new Map<string, Map<string, number>>();
export const createdHere = (runId: string): Map<string, number> => created.get(runId) ?? created.set(runId, new Map()).get(runId)!;

/** Notes when a create of the run was answered with an Id. */
export function noteCreated(runId: string, exchange: Exchange): void {
  const id = readPointer(exchange.response?.json, '/Result/Id');
  if (exchange.response?.status === 200 && typeof id === 'string') createdHere(runId).set(id, Date.now());
}

/**
 * Tokens the target has throttled creates of, in this worker, per run. From then on their creates go
 * one at a time, each waiting out its Retry-After before the next is sent: retries that raced each
 * other would keep losing the target's few slots and give up.
 */
export const throttledTokens = new Set<string>();
const turns = new Map<string, Promise<void>>();
export const tokenOfRun = (runId: string, role: TokenRole) => `${runId}\u0000${role}`;

export async function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = turns.get(key) ?? Promise.resolve();
  let release!: () => void;
  turns.set(
    key,
    previous.then(() => new Promise<void>((resolve) => (release = resolve))),
  );
  await previous;
  try {
    return await task();
  } finally {
    release();
  }
}
