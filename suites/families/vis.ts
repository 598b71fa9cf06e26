/** VIS: eventual visibility. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { VISIBILITY_ROUNDS, visibilityRound } from '../plans/reads';

export const VIS_02 = declarePlan('VIS-02', ({ profile, dataset }) =>
  Array.from({ length: VISIBILITY_ROUNDS }, (_, i) => visibilityRound(profile, dataset, i + 1).map(({ planned }) => planned)).flat(),
);

export const VIS: readonly TestGroup[] = [];
