/**
 * The requests a run may send a target (README: about 250), and what of them the model-based walks of PAGE-05 may spend:
 * what the preflight, the create-and-wait phase, the selected tests' plans and the tests' own fixed requests leave. The
 * plans draw their properties' cases by the seed, and some seeds draw more distinct cases than others; where the model
 * also drew long walks, one random seed in twenty took a run past 250 (251, 252). The model's drawn commands give way
 * (suites/page-model.ts), never the plans, whose every answer a test judges.
 */
import { requestKey } from './call';
import type { Dataset } from './dataset';
import { sentAheadFor } from './families';
import { VISIBILITY_ROUNDS, visibilityRound, type PlanContext } from './plans';

/** The most requests a run sends to a target. */
export const RUN_REQUESTS = 250;

/**
 * The tests' own requests besides the model's and VIS-02's last round, at most, where the target conforms: measured over
 * seeds against the reference server as the run's requests less the preflight, the phase's, the plans' and the model's.
 * A failure sends more (a missing group is read again by Id), and that the budget does not hold back.
 */
export const OTHER_OWN_REQUESTS = 4;

/**
 * What the model may spend of the run's requests once every other part has taken its share; undefined where the run's
 * selection is not known (a run without the selection reporter plans nothing ahead, and caps nothing).
 */
export function spareRequests(keys: string[] | undefined, ctx: PlanContext): number | undefined {
  if (!keys) return undefined;
  // A read two plans hold is sent once (suites/api.ts sendAhead).
  const planned = new Set(sentAheadFor(keys, ctx).map((p) => requestKey(p.action, p.body, p.options))).size;
  const phase = ctx.dataset.requests?.all.count ?? 0;
  const lastRound = keys.includes('VIS-02') ? lastRoundOf(ctx) : 0;
  return Math.max(0, RUN_REQUESTS - 1 - phase - planned - lastRound - OTHER_OWN_REQUESTS);
}

/** VIS-02's last round, which its test sends itself; none where the run's groups are not all there (the test is blocked then). */
function lastRoundOf(ctx: PlanContext): number {
  try {
    return visibilityRound(ctx.profile, ctx.dataset, VISIBILITY_ROUNDS).length;
  } catch {
    return 0;
  }
}

/** The dataset with what the model may spend, as the workers read it. */
export const withSpareRequests = (keys: string[] | undefined, ctx: PlanContext): Dataset => ({ ...ctx.dataset, spareRequests: spareRequests(keys, ctx) });
