import { test, requirement, groupsOf, listBody, LISTED } from './fixtures';
import { countsStand, everyGroupListed, groupNamed, judgeVisibility, spaceOf } from './dataset-needs';
import { otherChannelReads } from './plans';
import { CHAN_02, CHAN_03, CHAN_04 } from './families/chan';
import { ONLY_THAT_CHANNEL, filtersHold, listsIncluding, refusedOrCountsNone, refusedOrNoneOf } from './checks';
import { askedOf, together, type ListQuery } from './api';

// A channel-bound token finds nothing of another channel: a refusal (any 4xx), or a list without
// those groups that counts none of them. Groups of an unbound token belong to no channel the spec shows.

test.describe('CHAN channel scoping', () => {
  test('CHAN-01 A channel-bound token lists the groups created through it', requirement('CHAN-01'), async ({ api, dataset, verify, judge, profile }) => {
    api.token('channelA');
    api.token('channelB');
    // First as the create-and-wait phase saw it: each channel's group listed to its own token in time.
    await judgeVisibility(dataset, judge, verify, 'channelA', 'channelB');
    const roles = ['channelA', 'channelB'] as const;
    const own = roles.map((role) => groupsOf(dataset, (g) => g.via === role).map((g) => g.id));
    // The same read as CREATE-02's of each channel's groups, so one answer serves both (api.ts shares settled reads).
    const answers = await Promise.all(
      roles.map((role, i) => api.listByIds(profile, { groupIds: own[i], pageSize: profile.list.pageSize.maximum }, { as: role })),
    );
    for (const [i, reads] of answers.entries())
      for (const { query, exchange } of reads) await verify(exchange, [...LISTED, listsIncluding(askedOf(query, own[i]))]);
  });

  test(
    "CHAN-02 A channel-bound token never lists another channel's groups",
    requirement('CHAN-02', CHAN_02),
    async ({ api, plan, dataset, verify, profile, kit }) => {
      api.token('channelA');
      api.token('channelB');
      // Groups created through an unbound token are left out: which channel they belong to is not shown. Both channels'
      // groups are read one a page too: scoping must hold on every page, not only the first (otherChannelReads).
      const reads = otherChannelReads(kit.config, profile, dataset);
      const answers = await plan.answers(CHAN_02);
      for (const [i, answer] of answers.entries()) await verify(answer, [...filtersHold(reads[i].query), refusedOrNoneOf(reads[i].others, ONLY_THAT_CHANNEL)]);
    },
  );

  test(
    'CHAN-03 An unbound token of the same user lists the groups of every channel',
    requirement('CHAN-03', CHAN_03),
    async ({ api, dataset, verify, profile }) => {
      api.token('channelA');
      api.token('channelB');
      const channelGroups = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
      // Every group of the run by its Id, as LIST-02 reads them (one answer for both, api.ts), once the channels' groups
      // had time to reach the unbound token's snapshot too: each channel's must be among them.
      for (const { query, exchange } of await everyGroupListed(api, profile, dataset))
        await verify(exchange, [...LISTED, ...filtersHold(query), listsIncluding(askedOf(query, channelGroups))]);
    },
  );

  test(
    'CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none',
    requirement('CHAN-04', CHAN_04),
    async ({ api, dataset, verify, profile }) => {
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
  );
});
