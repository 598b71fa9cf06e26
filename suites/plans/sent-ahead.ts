/** What the runner sends ahead: the plans of the tests this run selected, in the order the tests come (suites/selection.ts). */

import { CREATING_ROLES } from '../dataset';
import { type PlannedRequest, PlanContext, drawnRuns, listRequest } from './plan';
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

/**
 * The tests whose requests the runner sends ahead, by their titles (tests/sent-ahead.test.ts checks each is a test of
 * the suites), in the order they run, each with its requests. Plans return nothing where their test is skipped.
 */
export const SENT_AHEAD: [title: string, plan: (ctx: PlanContext) => PlannedRequest[]][] = [
  ['AUTH-02 A Bearer header with no token gets 401 TokenAuthError', ({ config }) => bearerWithoutToken(config)],
  ['AUTH-03 A valid token under another scheme gets 401 TokenAuthError', ({ config }) => otherSchemes(config)],
  ['AUTH-04 An unknown token gets 401 TokenAuthError', ({ config }) => unknownTokenRequests(config)],
  ['AUTH-06 A near-miss of a valid token gets 401 TokenAuthError', ({ config }) => nearMisses(config)],
  [
    "AUTH-01 A request without an Authorization header gets 401 TokenAuthError (with the kit's User-Agent and with none)",
    ({ config }) => anonymousWithoutAgent(config),
  ],
  ["AUTH-06 A near-miss of a valid token gets 401 TokenAuthError (with the kit's User-Agent and with none)", ({ config }) => nearMissAgents(config)],
  ['INPUT-01 Malformed JSON gets a 4xx, never a 5xx', ({ config }) => malformedBodies(config).plannedRequests],
  ['INPUT-02 A JSON body that is not an object gets a 4xx, never a 5xx', ({ config }) => notObjects(config).map(({ planned }) => planned)],
  [
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (create, property)',
    ({ config }) => drawnRuns(config, [createField, notAString], WRONG_TYPE_EXAMPLES).map(([name, value]) => wrongTypeCreate(config, name, value)),
  ],
  [
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (list, property)',
    ({ config, profile, dataset }) => {
      const { wrongBody } = wrongListBodies(profile, dataset);
      return wrongBody ? drawnRuns(config, [wrongBody]).map(([body]) => listRequest(body)) : [];
    },
  ],
  [
    'CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id',
    ({ config, profile, dataset }) => CREATING_ROLES.flatMap((role) => roleReads(config, profile, dataset, role)),
  ],
  [
    "CREATE-05 Values at the profile's bounds are accepted and come back unchanged",
    ({ config, profile, dataset }) => roleReads(config, profile, dataset, 'primary', { bounds: true }),
  ],
  [
    'CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none',
    ({ config, profile, dataset }) => (['channelA', 'channelB'] as const).flatMap((role) => roleReads(config, profile, dataset, role)),
  ],
  [
    "SCOPE-04 Another user finds none of the primary user's groups through the asset-space or group-type filter, alone or combined",
    ({ config, profile, dataset }) => (config.tokens.otherUser ? roleReads(config, profile, dataset, 'primary') : []),
  ],
  [
    "CHAN-02 A channel-bound token never lists another channel's groups",
    ({ config, profile, dataset }) => otherChannelReads(config, profile, dataset).map(({ planned }) => planned),
  ],
  [
    "INPUT-04 Create fields beyond the profile's bounds get 400 AssetError",
    ({ config, profile }) => beyondBounds(config, profile).map(({ planned }) => planned),
  ],
  ['INPUT-07 Unusual Unicode in string fields never gets a 5xx', ({ config, profile }) => unusualUnicode(config, profile).plannedRequests],
  [
    'CHAN-03 An unbound token of the same user lists the groups of every channel',
    ({ config, profile, dataset }) => (config.tokens.channelA && config.tokens.channelB ? everyGroupRead(profile, dataset) : []),
  ],
  [
    'LIST-02 The asset-space filter returns the matching groups and only those',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.assetSpaceId ? [] : everyGroupRead(profile, dataset)),
  ],
  [
    'LIST-03 The group-type filter returns the matching groups and only those',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.groupType ? [] : aigcReads(profile, dataset).map(({ planned }) => planned)),
  ],
  [
    "PAGE-03 Omitted paging values take the profile's defaults",
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : withoutPaging(profile, dataset)),
  ],
  ['PAGE-06 A page past the end is answered as the profile says', ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : pastEnd(profile, dataset))],
  ['INPUT-05 An unknown Action gets a 4xx', () => unknownActionRequests()],
  ['INPUT-06 An unsupported Version gets a 4xx', () => unsupportedVersionRequests()],
  [
    'LIST-05 The name filter finds a group by its full Name, and only groups whose Name contains what was asked',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameAndWildcards(profile, dataset).plannedRequests),
  ],
  [
    'LIST-07 The name filter matches as the profile says',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameParts(profile, dataset).reads),
  ],
  [
    'PAGE-01 A page holds at most PageSize items',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : firstPagesOfSizes(profile, dataset).map(({ planned }) => planned)),
  ],
  [
    'PAGE-02 PageNumber and PageSize echo what was asked',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : pagesWithin(profile, dataset).map(({ planned }) => planned)),
  ],
  [
    'PAGE-04 TotalCount is the number of matching groups, not the size of the page',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : twoPages(profile, dataset).map(({ planned }) => planned)),
  ],
  [
    'PAGE-07 Invalid paging values get 400 AssetBadRequest',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : invalidPagings(profile).map(({ planned }) => planned)),
  ],
  [
    'PAGE-07 Invalid paging values get 400 AssetBadRequest (property)',
    ({ config, profile, dataset }) => {
      if (dataset.profileMismatch?.paging) return [];
      const { body, examples } = invalidPaging(profile);
      return drawnRuns(config, [body], examples).map(([paging]) => pagingRequest(profile, paging));
    },
  ],
  [
    'PAGE-02 PageNumber and PageSize echo what was asked (property)',
    ({ config, profile, dataset }) => {
      if (dataset.profileMismatch?.paging) return [];
      const { paging, planned, examples } = echoedPaging(profile, dataset);
      return drawnRuns(config, [paging], examples).map(([p]) => planned(p));
    },
  ],
  [
    'VIS-02 A group that became visible stays visible',
    ({ profile, dataset }) =>
      Array.from({ length: VISIBILITY_ROUNDS }, (_, i) => visibilityRound(profile, dataset, i + 1).map(({ planned }) => planned)).flat(),
  ],
  ["SCOPE-01 The second user's list never shows the primary user's groups", ({ config, profile, dataset }) => otherUserFirstPages(config, profile, dataset)],
  [
    "SCOPE-02 Filtering by another user's group Id finds nothing",
    ({ config, profile, dataset }) => otherUserByIds(config, profile, dataset).map(({ planned }) => planned),
  ],
  [
    "SCOPE-03 Filtering by another user's exact group Name finds nothing",
    ({ config, profile, dataset }) => otherUserByNames(config, profile, dataset).map(({ planned }) => planned),
  ],
];

/** Tests whose plan is their first read alone: what they send next depends on its answer (an AssetSpaceId, a group's space). */
export const FIRST_READ_ONLY = new Set([
  'CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none',
  'LIST-02 The asset-space filter returns the matching groups and only those',
  "SCOPE-04 Another user finds none of the primary user's groups through the asset-space or group-type filter, alone or combined",
]);

/** The requests of the selected tests that the runner sends ahead, in the tests' order. */
export function sentAheadFor(titles: string[], ctx: PlanContext): PlannedRequest[] {
  const plans = new Map(SENT_AHEAD);
  return titles.flatMap((title) => {
    try {
      return plans.get(title)?.(ctx) ?? [];
    } catch {
      // The run's groups are not all there (the dataset's helpers skip or block the test that needs them): that test,
      // when it runs, says why, and sends what it still can itself.
      return [];
    }
  });
}
