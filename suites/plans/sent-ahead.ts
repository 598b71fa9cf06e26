/** What the runner sends ahead: the plans of the tests this run selected, in the order the tests come (suites/selection.ts). */

import { CREATING_ROLES } from '../dataset';
import { declarePlan, declareProperty, type DeclaredPlan, type PlanContext, type PlannedRequest, listRequest } from './plan';
import { anonymousWithoutAgent, bearerWithoutToken, nearMissAgents, nearMisses, otherSchemes, unknownTokenRequests } from './auth';
import {
  WRONG_TYPE_EXAMPLES,
  unknownActionRequests,
  beyondBounds,
  createField,
  malformedBodies,
  notAString,
  notObjects,
  unusualUnicode,
  unsupportedVersionRequests,
  wrongListBodies,
  wrongTypeCreate,
} from './input';
import { echoedPaging, firstPagesOfSizes, invalidPaging, invalidPagings, pagesWithin, pagingRequest, pastEnd, twoPages, withoutPaging } from './page';
import {
  VISIBILITY_ROUNDS,
  aigcReads,
  everyGroupRead,
  nameAndWildcards,
  nameParts,
  otherChannelReads,
  otherUserByIds,
  otherUserByNames,
  otherUserFirstPages,
  roleReads,
  visibilityRound,
} from './reads';

// ---------------------------------------------------------------- what the runner sends ahead

/*
 * Each test whose requests need no earlier answer declares them here, once: the test names its plan in its details
 * (`requirement(id, PLAN)`, suites/fixtures.ts) and takes the answers (`plan.answers(PLAN)`), the runner sends the
 * selected tests' plans ahead (sentAheadFor). A plan returns nothing where its test is skipped.
 */
const noPaging = (ctx: PlanContext) => !!ctx.dataset.profileMismatch?.paging;

export const AUTH_01_AGENTS = declarePlan('AUTH-01 agents', ({ config }) => anonymousWithoutAgent(config));
export const AUTH_02 = declarePlan('AUTH-02', ({ config }) => bearerWithoutToken(config));
export const AUTH_03 = declarePlan('AUTH-03', ({ config }) => otherSchemes(config));
export const AUTH_04 = declarePlan('AUTH-04', ({ config }) => unknownTokenRequests(config));
export const AUTH_06 = declarePlan('AUTH-06', ({ config }) => nearMisses(config));
export const AUTH_06_AGENTS = declarePlan('AUTH-06 agents', ({ config }) => nearMissAgents(config));

export const INPUT_01 = declarePlan('INPUT-01', ({ config }) => malformedBodies(config).plannedRequests);
export const INPUT_02 = declarePlan('INPUT-02', ({ config }) => notObjects(config).map(({ planned }) => planned));
export const INPUT_03_CREATE = declareProperty('INPUT-03 create', ({ config }) => ({
  arbitraries: [createField, notAString],
  examples: WRONG_TYPE_EXAMPLES,
  request: (name: string, value: unknown) => wrongTypeCreate(config, name, value),
}));
export const INPUT_03_LIST = declareProperty('INPUT-03 list', ({ profile, dataset }) => {
  const { wrongBody, examples } = wrongListBodies(profile, dataset);
  return wrongBody && { arbitraries: [wrongBody], examples, request: (body: unknown) => listRequest(body) };
});
export const INPUT_04 = declarePlan('INPUT-04', ({ config, profile }) => beyondBounds(config, profile).map(({ planned }) => planned));
export const INPUT_05 = declarePlan('INPUT-05', () => unknownActionRequests());
export const INPUT_06 = declarePlan('INPUT-06', () => unsupportedVersionRequests());
export const INPUT_07 = declarePlan('INPUT-07', ({ config, profile }) => unusualUnicode(config, profile).plannedRequests);

// The reads of the run's groups that a helper of the suites sends first (roleGroupsRead, everyGroupListed): the same
// queries (roleGroupsQuery, eachIdAlone), so that the helper takes the runner's answers.
export const CREATE_02 = declarePlan('CREATE-02', ({ config, profile, dataset }) =>
  CREATING_ROLES.flatMap((role) => roleReads(config, profile, dataset, role)),
);
export const CREATE_05 = declarePlan('CREATE-05', ({ config, profile, dataset }) => roleReads(config, profile, dataset, 'primary', { bounds: true }));
export const CHAN_03 = declarePlan('CHAN-03', ({ config, profile, dataset }) =>
  config.tokens.channelA && config.tokens.channelB ? everyGroupRead(profile, dataset) : [],
);
/** Its first read alone: what it sends next depends on the answer (a group's AssetSpaceId). */
export const CHAN_04 = declarePlan(
  'CHAN-04',
  ({ config, profile, dataset }) => (['channelA', 'channelB'] as const).flatMap((role) => roleReads(config, profile, dataset, role)),
  { firstReadOnly: true },
);
export const LIST_02 = declarePlan(
  'LIST-02',
  ({ profile, dataset }) => (dataset.profileMismatch?.filters?.assetSpaceId ? [] : everyGroupRead(profile, dataset)),
  {
    firstReadOnly: true,
  },
);
export const SCOPE_04 = declarePlan(
  'SCOPE-04',
  ({ config, profile, dataset }) => (config.tokens.otherUser ? roleReads(config, profile, dataset, 'primary') : []),
  {
    firstReadOnly: true,
  },
);

export const CHAN_02 = declarePlan('CHAN-02', ({ config, profile, dataset }) => otherChannelReads(config, profile, dataset).map(({ planned }) => planned));
export const LIST_03 = declarePlan('LIST-03', ({ profile, dataset }) =>
  dataset.profileMismatch?.filters?.groupType ? [] : aigcReads(profile, dataset).map(({ planned }) => planned),
);
export const LIST_05 = declarePlan('LIST-05', ({ profile, dataset }) =>
  dataset.profileMismatch?.filters?.name ? [] : nameAndWildcards(profile, dataset).plannedRequests,
);
export const LIST_07 = declarePlan('LIST-07', ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameParts(profile, dataset).reads));

export const PAGE_01 = declarePlan('PAGE-01', (ctx) => (noPaging(ctx) ? [] : firstPagesOfSizes(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_02 = declarePlan('PAGE-02', (ctx) => (noPaging(ctx) ? [] : pagesWithin(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_02_PROPERTY = declareProperty('PAGE-02 property', (ctx) => {
  if (noPaging(ctx)) return undefined;
  const { paging, planned, examples } = echoedPaging(ctx.profile, ctx.dataset);
  return { arbitraries: [paging], examples, request: planned };
});
export const PAGE_03 = declarePlan('PAGE-03', (ctx) => (noPaging(ctx) ? [] : withoutPaging(ctx.profile, ctx.dataset)));
export const PAGE_04 = declarePlan('PAGE-04', (ctx) => (noPaging(ctx) ? [] : twoPages(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_06 = declarePlan('PAGE-06', (ctx) => (noPaging(ctx) ? [] : pastEnd(ctx.profile, ctx.dataset)));
export const PAGE_07 = declarePlan('PAGE-07', (ctx) => (noPaging(ctx) ? [] : invalidPagings(ctx.profile).map(({ planned }) => planned)));
export const PAGE_07_PROPERTY = declareProperty('PAGE-07 property', (ctx) => {
  if (noPaging(ctx)) return undefined;
  const { body, examples } = invalidPaging(ctx.profile);
  return { arbitraries: [body], examples, request: (paging: Parameters<typeof pagingRequest>[1]) => pagingRequest(ctx.profile, paging) };
});

export const SCOPE_01 = declarePlan('SCOPE-01', ({ config, profile, dataset }) => otherUserFirstPages(config, profile, dataset));
export const SCOPE_02 = declarePlan('SCOPE-02', ({ config, profile, dataset }) => otherUserByIds(config, profile, dataset).map(({ planned }) => planned));
export const SCOPE_03 = declarePlan('SCOPE-03', ({ config, profile, dataset }) => otherUserByNames(config, profile, dataset).map(({ planned }) => planned));

export const VIS_02 = declarePlan('VIS-02', ({ profile, dataset }) =>
  Array.from({ length: VISIBILITY_ROUNDS }, (_, i) => visibilityRound(profile, dataset, i + 1).map(({ planned }) => planned)).flat(),
);

/** Every declared plan: what the runner may send ahead, by key. */
export const SENT_AHEAD: readonly DeclaredPlan[] = [
  AUTH_01_AGENTS,
  AUTH_02,
  AUTH_03,
  AUTH_04,
  AUTH_06,
  AUTH_06_AGENTS,
  INPUT_01,
  INPUT_02,
  INPUT_03_CREATE,
  INPUT_03_LIST,
  INPUT_04,
  INPUT_05,
  INPUT_06,
  INPUT_07,
  CREATE_02,
  CREATE_05,
  CHAN_02,
  CHAN_03,
  CHAN_04,
  LIST_02,
  LIST_03,
  LIST_05,
  LIST_07,
  PAGE_01,
  PAGE_02,
  PAGE_02_PROPERTY,
  PAGE_03,
  PAGE_04,
  PAGE_06,
  PAGE_07,
  PAGE_07_PROPERTY,
  SCOPE_01,
  SCOPE_02,
  SCOPE_03,
  SCOPE_04,
  VIS_02,
];

/** The requests of the selected tests' plans (by key, in the tests' order) that the runner sends ahead. */
export function sentAheadFor(keys: string[], ctx: PlanContext): PlannedRequest[] {
  const plans = new Map(SENT_AHEAD.map((plan) => [plan.key, plan]));
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
