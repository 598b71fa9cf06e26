/**
 * CHAN: a token's channel. The family's declared tests and the plans of their requests that need no earlier answer.
 *
 * A channel-bound token finds nothing of another channel: a refusal (any 4xx), or a list without those groups that counts
 * none of them. Groups of an unbound token belong to no channel the spec shows.
 */
import { test } from '@playwright/test';
import { declareTest, type TestGroup, type TestTools } from '../declare';
import { declarePlan } from '../plans';
import { everyGroupRead, otherChannelReads, roleReads } from '../plans/reads';
import { countsStand, everyGroupListed, groupNamed, groupsOf, judgeVisibility, spaceOf } from '../dataset-needs';
import { LISTED, ONLY_THAT_CHANNEL, filtersHold, listsIncluding, refusedOrCountsNone, refusedOrNoneOf } from '../checks';
import { askedOf, listBody, together, type ListQuery } from '../api';

export const CHAN_03 = declarePlan('CHAN-03', ({ config, profile, dataset }) =>
  config.tokens.channelA && config.tokens.channelB ? everyGroupRead(profile, dataset) : [],
);
/** Its first read alone: what it sends next depends on the answer (a group's AssetSpaceId). */
export const CHAN_04 = declarePlan(
  'CHAN-04',
  ({ config, profile, dataset }) => (['channelA', 'channelB'] as const).flatMap((role) => roleReads(config, profile, dataset, role)),
  { firstReadOnly: true },
);
export const CHAN_02 = declarePlan('CHAN-02', ({ config, profile, dataset }) => otherChannelReads(config, profile, dataset).map(({ planned }) => planned));

/** Both channels' tokens, asked for first: the api fixture skips the test, with the variable named, where one is not configured. */
const channelTokens = ({ api }: Pick<TestTools, 'api'>) => {
  api.token('channelA');
  api.token('channelB');
};

const roles = ['channelA', 'channelB'] as const;

export const CHAN_01_TEST = declareTest({
  id: 'CHAN-01',
  // The phase's record judged as it goes, then each channel's groups read as its own token: sent here, judged below.
  run: async ({ api, dataset, verify, judge, profile }) => {
    channelTokens({ api });
    // First as the create-and-wait phase saw it: each channel's group listed to its own token in time.
    await judgeVisibility(dataset, judge, verify, 'channelA', 'channelB');
    const own = roles.map((role) => groupsOf(dataset, (g) => g.via === role).map((g) => g.id));
    // The same read as CREATE-02's of each channel's groups, so one answer serves both (api.ts shares settled reads).
    const answers = await Promise.all(
      roles.map((role, i) => api.listByIds(profile, { groupIds: own[i], pageSize: profile.list.pageSize.maximum }, { as: role })),
    );
    return { own, answers };
  },
  judge: (_, __, { own, answers }) =>
    answers.flatMap((reads, i) => reads.map(({ query, exchange }) => ({ answer: exchange, steps: [...LISTED, listsIncluding(askedOf(query, own[i]))] }))),
});

export const CHAN_02_TEST = declareTest({
  id: 'CHAN-02',
  plans: [CHAN_02],
  run: async ({ api }) => channelTokens({ api }),
  judge: ([answers], { config, profile, dataset }) => {
    // Groups created through an unbound token are left out: which channel they belong to is not shown. Both channels'
    // groups are read one a page too: scoping must hold on every page, not only the first (otherChannelReads).
    const reads = otherChannelReads(config, profile, dataset);
    return answers.map((answer, i) => ({ answer, steps: [...filtersHold(reads[i].query), refusedOrNoneOf(reads[i].others, ONLY_THAT_CHANNEL)] }));
  },
});

// Its plan is everyGroupListed's first read, which the test reads again while a channel's groups are missing: it sends
// and judges as before.
export const CHAN_03_TEST = declareTest({
  id: 'CHAN-03',
  plans: [CHAN_03],
  run: async ({ api, dataset, verify, profile }) => {
    channelTokens({ api });
    const channelGroups = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
    // Every group of the run by its Id, as LIST-02 reads them (one answer for both, api.ts), once the channels' groups
    // had time to reach the unbound token's snapshot too: each channel's must be among them.
    for (const { query, exchange } of await everyGroupListed(api, profile, dataset))
      await verify(exchange, [...LISTED, ...filtersHold(query), listsIncluding(askedOf(query, channelGroups))]);
  },
});

// Its plan is its first read alone (each channel's group's AssetSpaceId, spaceOf); the reads by that space depend on the
// answer, so the test sends and judges as before.
export const CHAN_04_TEST = declareTest({
  id: 'CHAN-04',
  plans: [CHAN_04],
  run: async ({ api, dataset, verify, profile }) => {
    const a = groupNamed(dataset, 'channelA');
    const b = groupNamed(dataset, 'channelB');
    const pairs = [
      [a, 'channelB'],
      [b, 'channelA'],
    ] as const;
    const spaces = await Promise.all([spaceOf(api, profile, dataset, a, verify), spaceOf(api, profile, dataset, b, verify)]);
    await countsStand(dataset, verify);
    const queries = pairs.flatMap(([other, as], i): [ListQuery, typeof as, string, number | undefined][] => [
      [{ name: other.sent.Name }, as, other.id, 0],
      [{ assetSpaceId: spaces[i], groupIds: [other.id] }, as, other.id, 0],
      [{ groupType: 'AIGC', groupIds: [other.id] }, as, other.id, 0],
    ]);
    const answers = await together(
      queries.map(
        ([query, as]) =>
          () =>
            api.call('ListAssetGroups', listBody(profile, { ...query, pageSize: profile.list.pageSize.maximum }), { as }),
      ),
    );
    for (const [i, [query, as, id, totalCount]] of queries.entries()) {
      await test.step(`${as} ${JSON.stringify(Object.keys(query))}`, async () =>
        verify(answers[i], [
          ...filtersHold(query),
          refusedOrNoneOf([id], ONLY_THAT_CHANNEL),
          ...(totalCount === 0 ? [refusedOrCountsNone(ONLY_THAT_CHANNEL)] : []),
        ]));
    }
  },
});

export const CHAN: readonly TestGroup[] = [{ describe: 'CHAN channel scoping', tests: [CHAN_01_TEST, CHAN_02_TEST, CHAN_03_TEST, CHAN_04_TEST] }];
