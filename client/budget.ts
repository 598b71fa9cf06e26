export class BudgetError extends Error {}

/**
 * Per-process limits that keep the kit gentle on a shared staging system. They are far above
 * what the suites need, so hitting one means a runaway loop in the kit, not a slow target.
 */
const budget = { requests: 0, creates: 0, maxRequests: 4000, maxCreates: 200 };

/** Counts one request; throws once the worker's request budget is spent. */
export function spendRequest(): void {
  if (++budget.requests > budget.maxRequests)
    throw new BudgetError(`request budget of ${budget.maxRequests} per worker exhausted; the kit stops rather than load the target further`);
}

/** Counts one create; throws once the worker's create budget is spent. */
export function spendCreate(): void {
  if (++budget.creates > budget.maxCreates) throw new BudgetError(`create budget of ${budget.maxCreates} per worker exhausted`);
}
