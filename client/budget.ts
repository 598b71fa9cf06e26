export class BudgetError extends Error {}

/**
 * Per-run limits that keep the kit gentle on a shared staging system. They are far above what the
 * suites need, so hitting one means a runaway loop in the kit, not a slow target. Counted per run,
 * since one worker of the kit's own matrices judges several runs, each its own target.
 */
const LIMITS = { maxRequests: 4000, maxCreates: 200 };
const spent = new Map<string, { requests: number; creates: number }>();
const of = (runId: string) => spent.get(runId) ?? spent.set(runId, { requests: 0, creates: 0 }).get(runId)!;

/** Counts one request of the run; throws once the worker's request budget for it is spent. */
export function spendRequest(runId: string): void {
  if (++of(runId).requests > LIMITS.maxRequests)
    throw new BudgetError(`request budget of ${LIMITS.maxRequests} per worker exhausted; the kit stops rather than load the target further`);
}

/** Counts one create of the run; throws once the worker's create budget for it is spent. */
export function spendCreate(runId: string): void {
  if (++of(runId).creates > LIMITS.maxCreates) throw new BudgetError(`create budget of ${LIMITS.maxCreates} per worker exhausted`);
}
