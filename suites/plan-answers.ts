/** The plan fixture's answers: a test's declared plans (suites/families/), taken from the runner where it sent them. */
import type { TestInfo } from '@playwright/test';
import type { KitConfig } from '../config';
import type { Exchange } from '../client/exchange';
import { ANNOTATION } from '../facts/record';
import type { Profile } from '../schemas/profile';
import type { Api } from './api';
import { loadDataset } from './dataset';
import { plannedAhead, plannedTogether, type DeclaredPlan, type DeclaredProperty, type PlanContext } from './plans';
import { sentAhead } from './property';

/** A test's declared plans (suites/families/), whose requests the runner may have sent ahead. */
export interface Plans {
  /** The plan's answers, in the order of its requests. */
  answers(plan: DeclaredPlan): Promise<Exchange[]>;
  /** The plan's answers as they come, each in its turn (a test that judges one before the next is answered). */
  ahead(plan: DeclaredPlan): Promise<Promise<Exchange>[]>;
  /** A declared property's answer to each run's values; undefined where the property has nothing to send. */
  property<Ts extends unknown[]>(plan: DeclaredProperty<Ts>): Promise<((...values: Ts) => Promise<Exchange>) | undefined>;
}

/**
 * The plans a test named in its details (`requirement(id, PLAN)`): the one place its requests that need no earlier answer
 * are built, for the runner and for the test. A plan the test did not name is a mistake of the kit's: the runner, which
 * learns the plans from the details, would not have sent it ahead.
 */
export function plansOf(testInfo: TestInfo, api: Api, config: KitConfig & { baseURL: string }, profile: Profile): Plans {
  const context = (plan: DeclaredPlan): PlanContext => {
    if (!testInfo.annotations.some((a) => a.type === ANNOTATION.plan && a.description === plan.key))
      throw new Error(`the kit's own mistake: this test takes plan ${plan.key} without naming it in requirement(id, plan)`);
    // The run's groups only where the plan reads them: the AUTH and INPUT plans need none.
    return {
      config,
      profile,
      get dataset() {
        return loadDataset(config.runId);
      },
    };
  };
  return {
    answers: (plan) => plannedTogether(api, plan.requests(context(plan))),
    ahead: (plan) => plannedAhead(api, plan.requests(context(plan))),
    property: async (plan) => {
      const spec = plan.property(context(plan));
      return spec && sentAhead(api, config, spec);
    },
  };
}
