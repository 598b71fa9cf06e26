/**
 * Every family's declared tests, in the catalogue's order: what the spec files declare to Playwright and what the runner
 * sends ahead (sentAheadFor), the same objects.
 */
import type { PlanContext, PlannedRequest, DeclaredPlan } from '../plans';
import { plansOfTests, type TestGroup } from '../declare';
import * as env from './env';
import * as ver from './ver';
import * as auth from './auth';
import * as err from './err';
import * as create from './create';
import * as list from './list';
import * as page from './page';
import * as scope from './scope';
import * as chan from './chan';
import * as vis from './vis';
import * as schema from './schema';
import * as input from './input';

/** Every family's groups of tests, in the catalogue's order. */
export const TEST_GROUPS: readonly TestGroup[] = [
  ...env.ENV,
  ...ver.VER,
  ...auth.AUTH,
  ...err.ERR,
  ...create.CREATE,
  ...list.LIST,
  ...page.PAGE_CHAINS,
  ...page.PAGE,
  ...scope.SCOPE,
  ...chan.CHAN,
  ...vis.VIS,
  ...schema.SCHEMA,
  ...input.INPUT,
];

/** Every plan a declared test names: what the runner may send ahead. */
export const declaredPlans = (): DeclaredPlan[] => plansOfTests(TEST_GROUPS);

/** Every declared plan by its key. */
const plansByKey = () => new Map(declaredPlans().map((plan) => [plan.key, plan]));

/**
 * The selected plans (by key) that read none of the run's groups, and their requests: what the runner may send while
 * the phase still waits for its groups to show (suites/global-setup.ts). A plan that reads the dataset is left for after.
 */
export function groupFreeRequests(keys: string[], ctx: Omit<PlanContext, 'dataset'>): { keys: Set<string>; requests: PlannedRequest[] } {
  const plans = plansByKey();
  const early = new Set<string>();
  const requests: PlannedRequest[] = [];
  const withoutGroups: PlanContext = {
    ...ctx,
    get dataset(): PlanContext['dataset'] {
      throw new Error("this plan reads the run's groups");
    },
  };
  for (const key of keys) {
    try {
      const planned = plans.get(key)?.requests(withoutGroups);
      if (!planned) continue;
      requests.push(...planned);
      early.add(key);
    } catch {
      // It reads the run's groups, or cannot be planned yet: planned again once the phase is over.
    }
  }
  return { keys: early, requests };
}

/** The requests of the selected tests' plans (by key, in the tests' order) that the runner sends ahead. */
export function sentAheadFor(keys: string[], ctx: PlanContext): PlannedRequest[] {
  const plans = plansByKey();
  return keys.flatMap((key) => {
    try {
      return plans.get(key)?.requests(ctx) ?? [];
    } catch {
      // The run's groups are not all there (the dataset's helpers skip or block the test that needs them): that test,
      // when it runs, says why, and sends what it still can itself.
      return [];
    }
  });
}
