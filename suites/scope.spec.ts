import { test, requirement, groupsOf, listBody } from './fixtures';
import { countsStand, spaceOf } from './dataset-needs';
import { everyItem, filtersHold, listedBy, listsNoneOf, owned, refusedOrCountsNone, refusedOrNoneOf } from './checks';
import { together, type ListQuery } from './api';
import { otherUserByIds, otherUserByNames } from './plans';
import { SCOPE_01, SCOPE_02, SCOPE_03, SCOPE_04 } from './families/scope';

// A query that reaches for what the caller may not see finds nothing: it is refused (any 4xx; the
// spec documents 400 and 403 for lists), or it lists none of those groups and counts none of them.

const notOtherUsers = 'The result covers only the groups of the current user.';
/** Counting what another user may not see is one deviation however it is asked: SCOPE-02 owns it. */
const countedBySCOPE02 = owned('SCOPE-02', refusedOrCountsNone(notOtherUsers));

test.describe('SCOPE user scoping', () => {
  test("SCOPE-01 The second user's list never shows the primary user's groups", requirement('SCOPE-01', SCOPE_01), async ({ api, plan, dataset, verify }) => {
    await countsStand(dataset, verify);
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    const noRunNames = everyItem(
      `Name does not start with this run's prefix ${dataset.prefix}`,
      (item) => !String(item.Name).startsWith(dataset.prefix),
      notOtherUsers,
    );
    // The plain first page: where a server that ignores the user would most likely show new groups. And the run's prefix,
    // which finds its groups under every setting but exact matching.
    const [plain, byPrefix] = await plan.answers(SCOPE_01);
    await verify(plain, [...listedBy('LIST-01'), listsNoneOf(mine, notOtherUsers), noRunNames]);
    if (byPrefix) await verify(byPrefix, [...filtersHold({ name: dataset.prefix }), refusedOrNoneOf(mine, notOtherUsers), noRunNames, countedBySCOPE02]);
  });

  test(
    "SCOPE-02 Filtering by another user's group Id finds nothing",
    requirement('SCOPE-02', SCOPE_02),
    async ({ api, plan, dataset, verify, profile, kit }) => {
      await countsStand(dataset, verify);
      api.token('otherUser');
      const mine = groupsOf(dataset, () => true).map((g) => g.id);
      // The first page, and a later one: scoping must not stop at page 1 (otherUserByIds).
      const reads = otherUserByIds(kit.config, profile, dataset);
      const answers = await plan.answers(SCOPE_02);
      for (const [i, answer] of answers.entries())
        await verify(answer, [...filtersHold(reads[i].query), refusedOrNoneOf(mine, notOtherUsers), refusedOrCountsNone(notOtherUsers)]);
    },
  );

  test(
    "SCOPE-03 Filtering by another user's exact group Name finds nothing",
    requirement('SCOPE-03', SCOPE_03),
    async ({ api, plan, dataset, verify, profile, kit }) => {
      await countsStand(dataset, verify);
      api.token('otherUser');
      const mine = groupsOf(dataset, () => true);
      const reads = otherUserByNames(kit.config, profile, dataset);
      const answers = await plan.answers(SCOPE_03);
      for (const [i, answer] of answers.entries())
        await verify(answer, [
          ...filtersHold({ name: reads[i].name }),
          refusedOrNoneOf(
            mine.map((g) => g.id),
            notOtherUsers,
          ),
          countedBySCOPE02,
        ]);
    },
  );

  test(
    "SCOPE-04 Another user finds none of the primary user's groups through the asset-space or group-type filter, alone or combined",
    requirement('SCOPE-04', SCOPE_04),
    async ({ api, dataset, verify, profile }) => {
      await countsStand(dataset, verify);
      api.token('otherUser');
      const primary = groupsOf(dataset, (g) => g.via === 'primary');
      const mine = groupsOf(dataset, () => true).map((g) => g.id);
      const space = await spaceOf(api, profile, dataset, primary[0], verify);
      // Each filter reaches for the primary user's groups by a value of theirs, alongside the Ids or Name that name them:
      // all their Ids, or under a one-Id filter (list.idFilterTakes: one) the Id of the group whose space and Name they are.
      const ids = profile.list.idFilterTakes === 'one' ? [primary[0].id] : mine;
      const queries: [ListQuery, number | undefined][] = [
        [{ assetSpaceId: space, groupIds: ids }, 0],
        [{ groupType: 'AIGC', groupIds: ids }, 0],
        [{ groupType: 'AIGC', name: primary[0].sent.Name }, 0],
        [{ assetSpaceId: space, groupType: 'AIGC', name: primary[0].sent.Name, groupIds: ids }, 0],
      ];
      const answers = await together(
        queries.map(
          ([query]) =>
            () =>
              api.call('ListAssetGroups', listBody(profile, { ...query, pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' }),
        ),
      );
      for (const [i, [query, totalCount]] of queries.entries()) {
        await test.step(JSON.stringify(Object.keys(query)), async () =>
          verify(answers[i], [...filtersHold(query), refusedOrNoneOf(mine, notOtherUsers), ...(totalCount === 0 ? [countedBySCOPE02] : [])]),
        );
      }
    },
  );
});
