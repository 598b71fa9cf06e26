import { test, requirement, groupsOf, itemsOf, listBody, LISTED } from './fixtures';
import { everyItem, filtersHold, listedBy, listsExactly, listsIncluding, listsNoneOf, owned, refusedOrCountsNone, refusedOrNoneOf, type Step } from './checks';
import type { Exchange } from '../client/exchange';
import { judgeVisibility } from './visibility';
import type { ListQuery } from './api';
import { together } from './api';
import { nameMatchParts } from '../schemas/profile';

// A query that reaches for what the caller may not see finds nothing: it is refused (any 4xx; the
// spec documents 400 and 403 for lists), or it lists none of those groups and counts none of them.

const notOtherUsers = 'The result covers only the groups of the current user.';
/** Counting what another user may not see is one deviation however it is asked: SCOPE-02 owns it. */
const countedBySCOPE02 = owned('SCOPE-02', refusedOrCountsNone(notOtherUsers));
const onlyThatChannel = 'When the token is bound to a fixed channel, only that channel\'s groups are returned.';

test.describe('SCOPE user scoping', () => {
  test('SCOPE-01 The second user\'s list never shows the primary user\'s groups', requirement('SCOPE-01'), async ({ api, dataset, verify, profile }) => {
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    const noRunNames = everyItem(`Name does not start with this run's prefix ${dataset.prefix}`, (item) => !String(item.Name).startsWith(dataset.prefix), notOtherUsers);
    // The run's prefix finds its groups under every setting but exact matching.
    const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
    // The plain first page: where a server that ignores the user would most likely show new groups.
    const [plain, byPrefix] = await together([
      () => api.call('ListAssetGroups', listBody(profile, { pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' }),
      ...(substring ? [() => api.call('ListAssetGroups', listBody(profile, { name: dataset.prefix, pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' })] : []),
    ]);
    await verify(plain, [...listedBy('LIST-01'), listsNoneOf(mine, notOtherUsers), noRunNames]);
    if (byPrefix) await verify(byPrefix, [...filtersHold({ name: dataset.prefix }), refusedOrNoneOf(mine, notOtherUsers), noRunNames, countedBySCOPE02]);
  });

  test('SCOPE-02 Filtering by another user\'s group Id finds nothing', requirement('SCOPE-02'), async ({ api, dataset, verify, profile }) => {
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    // The first page, and a later one: scoping must not stop at page 1.
    const answers = await together([{}, { pageNumber: 2, pageSize: 1 }].map((paging) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: mine, ...paging }), { as: 'otherUser' })));
    for (const answer of answers) await verify(answer, [...filtersHold({ groupIds: mine }), refusedOrNoneOf(mine, notOtherUsers), refusedOrCountsNone(notOtherUsers)]);
  });

  test('SCOPE-03 Filtering by another user\'s exact group Name finds nothing', requirement('SCOPE-03'), async ({ api, dataset, verify, profile }) => {
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true);
    const answers = await together(mine.slice(0, 2).map((group) => () => api.call('ListAssetGroups', listBody(profile, { name: group.sent.Name }), { as: 'otherUser' })));
    for (const [i, answer] of answers.entries()) await verify(answer, [...filtersHold({ name: mine[i].sent.Name }), refusedOrNoneOf(mine.map((g) => g.id), notOtherUsers), countedBySCOPE02]);
  });

  test('SCOPE-04 Another user finds none of the primary user\'s groups through the asset-space or group-type filter, alone or combined', requirement('SCOPE-04'), async ({ api, dataset, verify, profile }) => {
    api.token('otherUser');
    const primary = groupsOf(dataset, (g) => g.via === 'primary');
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    const space = await spaceOf(api, profile, primary[0].id, 'primary', verify);
    // Each filter reaches for the primary user's groups by a value of theirs, alongside the Ids or Name that name them.
    const queries: [ListQuery, number | undefined][] = [
      [{ assetSpaceId: space, groupIds: mine }, 0],
      [{ groupType: 'AIGC', groupIds: mine }, 0],
      [{ groupType: 'AIGC', name: primary[0].sent.Name }, 0],
      [{ assetSpaceId: space, groupType: 'AIGC', name: primary[0].sent.Name, groupIds: mine }, 0],
    ];
    const answers = await together(queries.map(([query]) => () => api.call('ListAssetGroups', listBody(profile, { ...query, pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' })));
    for (const [i, [query, totalCount]] of queries.entries()) {
      await test.step(JSON.stringify(Object.keys(query)), async () => verify(answers[i], [...filtersHold(query), refusedOrNoneOf(mine, notOtherUsers), ...(totalCount === 0 ? [countedBySCOPE02] : [])]));
    }
  });
});

/** The AssetSpaceId of one group, as its own token lists it (the create request carries none). */
async function spaceOf(api: import('./api').Api, profile: import('../schemas/profile').Profile, id: string, as: 'primary' | 'channelA' | 'channelB', verify: (ex: Exchange, steps: Step[]) => Promise<void>): Promise<string> {
  const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: [id] }), { as });
  await verify(listed, [...listedBy('LIST-04'), owned('LIST-04', listsIncluding([id]))]);
  const space = itemsOf(listed).find((item) => item.Id === id)?.AssetSpaceId;
  test.skip(typeof space !== 'string', 'not assessable: the group carries no AssetSpaceId string (SCHEMA-02 judges that)');
  return space as string;
}

test.describe('CHAN channel scoping', () => {
  test('CHAN-01 A channel-bound token lists the groups created through it', requirement('CHAN-01'), async ({ api, dataset, verify, judge, profile }) => {
    api.token('channelA');
    api.token('channelB');
    // First as the create-and-wait phase saw it: each channel's group listed to its own token in time.
    await judgeVisibility(dataset, judge, verify, 'channelA', 'channelB');
    const roles = ['channelA', 'channelB'] as const;
    const own = roles.map((role) => groupsOf(dataset, (g) => g.via === role).map((g) => g.id));
    const answers = await together(roles.map((role, i) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: own[i] }), { as: role })));
    for (const [i, answer] of answers.entries()) await verify(answer, [...LISTED, listsIncluding(own[i])]);
  });

  test('CHAN-02 A channel-bound token never lists another channel\'s groups', requirement('CHAN-02'), async ({ api, dataset, verify, profile }) => {
    api.token('channelA');
    api.token('channelB');
    // Groups created through an unbound token are left out: which channel they belong to is not shown.
    const roles = ['channelA', 'channelB'] as const;
    // The run's prefix finds its groups under every setting but exact matching.
    const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
    const reads = roles.flatMap((role) => {
      const others = groupsOf(dataset, (g) => g.via !== role && g.via !== 'primary').map((g) => g.id);
      const queries: ListQuery[] = [{ groupIds: others }, ...(substring ? [{ name: dataset.prefix }] : [])];
      return queries.map((query) => ({ others, query, call: () => api.call('ListAssetGroups', listBody(profile, { ...query, pageSize: profile.list.pageSize.maximum }), { as: role }) }));
    });
    // Both channels' groups by Id, one a page: scoping must hold on every page, not only the first.
    const walks = roles.flatMap((role) => {
      const ids = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
      const others = groupsOf(dataset, (g) => g.via !== role && g.via !== 'primary').map((g) => g.id);
      return [1, 2].map((pageNumber) => ({ others, query: { groupIds: ids } as ListQuery, call: () => api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber, pageSize: 1 }), { as: role }) }));
    });
    const answers = await together([...reads, ...walks].map((r) => r.call));
    for (const [i, answer] of answers.entries()) {
      const read = [...reads, ...walks][i];
      await verify(answer, [...filtersHold(read.query), refusedOrNoneOf(read.others, onlyThatChannel)]);
    }
  });

  test('CHAN-03 An unbound token of the same user lists the groups of every channel', requirement('CHAN-03'), async ({ api, dataset, verify, profile }) => {
    api.token('channelA');
    api.token('channelB');
    const channelGroups = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(profile, { groupIds: channelGroups })), [...LISTED, ...filtersHold({ groupIds: channelGroups }), listsExactly(channelGroups)]);
  });

  test('CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none', requirement('CHAN-04'), async ({ api, dataset, verify, profile }) => {
    const [a] = groupsOf(dataset, (g) => g.via === 'channelA');
    const [b] = groupsOf(dataset, (g) => g.via === 'channelB');
    const pairs = [[a, 'channelB'], [b, 'channelA']] as const;
    const spaces = await Promise.all([spaceOf(api, profile, a.id, 'channelA', verify), spaceOf(api, profile, b.id, 'channelB', verify)]);
    const queries = pairs.flatMap(([other, as], i): [ListQuery, typeof as, string, number | undefined][] => [
      [{ name: other.sent.Name }, as, other.id, 0],
      [{ assetSpaceId: spaces[i], groupIds: [other.id] }, as, other.id, 0],
      [{ groupType: 'AIGC', groupIds: [other.id] }, as, other.id, 0],
    ]);
    const answers = await together(queries.map(([query, as]) => () => api.call('ListAssetGroups', listBody(profile, { ...query, pageSize: profile.list.pageSize.maximum }), { as })));
    for (const [i, [query, as, id, totalCount]] of queries.entries()) {
      await test.step(`${as} ${JSON.stringify(Object.keys(query))}`, async () => verify(answers[i], [...filtersHold(query), refusedOrNoneOf([id], onlyThatChannel), ...(totalCount === 0 ? [refusedOrCountsNone(onlyThatChannel)] : [])]));
    }
  });
});
