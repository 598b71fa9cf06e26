/** AUTH: authentication. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { anonymousWithoutAgent, bearerWithoutToken, nearMissAgents, nearMisses, otherSchemes, unknownTokenRequests } from '../plans/auth';

export const AUTH_01_AGENTS = declarePlan('AUTH-01 agents', ({ config }) => anonymousWithoutAgent(config));
export const AUTH_02 = declarePlan('AUTH-02', ({ config }) => bearerWithoutToken(config));
export const AUTH_03 = declarePlan('AUTH-03', ({ config }) => otherSchemes(config));
export const AUTH_04 = declarePlan('AUTH-04', ({ config }) => unknownTokenRequests(config));
export const AUTH_06 = declarePlan('AUTH-06', ({ config }) => nearMisses(config));
export const AUTH_06_AGENTS = declarePlan('AUTH-06 agents', ({ config }) => nearMissAgents(config));

export const AUTH: readonly TestGroup[] = [];
