/** SCOPE: the caller's user. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { otherUserByIds, otherUserByNames, otherUserFirstPages, roleReads } from '../plans/reads';

export const SCOPE_04 = declarePlan(
  'SCOPE-04',
  ({ config, profile, dataset }) => (config.tokens.otherUser ? roleReads(config, profile, dataset, 'primary') : []),
  {
    firstReadOnly: true,
  },
);
export const SCOPE_01 = declarePlan('SCOPE-01', ({ config, profile, dataset }) => otherUserFirstPages(config, profile, dataset));
export const SCOPE_02 = declarePlan('SCOPE-02', ({ config, profile, dataset }) => otherUserByIds(config, profile, dataset).map(({ planned }) => planned));
export const SCOPE_03 = declarePlan('SCOPE-03', ({ config, profile, dataset }) => otherUserByNames(config, profile, dataset).map(({ planned }) => planned));

export const SCOPE: readonly TestGroup[] = [];
