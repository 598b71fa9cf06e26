/** CREATE: the create operation. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { CREATING_ROLES } from '../dataset';
import { declarePlan } from '../plans';
import { roleReads } from '../plans/reads';

export const CREATE_02 = declarePlan('CREATE-02', ({ config, profile, dataset }) =>
  CREATING_ROLES.flatMap((role) => roleReads(config, profile, dataset, role)),
);
export const CREATE_05 = declarePlan('CREATE-05', ({ config, profile, dataset }) => roleReads(config, profile, dataset, 'primary', { bounds: true }));

export const CREATE: readonly TestGroup[] = [];
