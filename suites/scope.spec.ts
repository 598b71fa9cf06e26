import { test, requirement, groupsOf, listBody } from './fixtures';
import { everyItem, isListResult, listsExactly, listsIncluding, listsNoneOf, totalCountIs } from './checks';

test.describe('SCOPE user scoping', () => {
  const notOtherUsers = 'The result covers only the groups of the current user.';

  test('SCOPE-01 The second user\'s list never shows the primary user\'s groups', requirement('SCOPE-01'), async ({ api, dataset, verify, kit }) => {
    api.token('otherUser');
    const profile = kit.context.profile;
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    const noRunNames = everyItem(`Name does not start with this run's prefix ${dataset.prefix}`, (item) => !String(item.Name).startsWith(dataset.prefix), notOtherUsers);
    // The plain first page: where a server that ignores the user would most likely show new groups.
    const plain = await api.call('ListAssetGroups', listBody(profile, { pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' });
    await verify(plain, [isListResult, listsNoneOf(mine, notOtherUsers), noRunNames]);
    if (profile.list.nameMatch === 'case-insensitive-substring') {
      const byPrefix = await api.call('ListAssetGroups', listBody(profile, { name: dataset.prefix, pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' });
      await verify(byPrefix, [isListResult, listsNoneOf(mine, notOtherUsers), noRunNames]);
    }
  });

  test('SCOPE-02 Filtering by another user\'s group Id finds nothing', requirement('SCOPE-02'), async ({ api, dataset, verify, kit }) => {
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: mine }), { as: 'otherUser' }), [isListResult, listsNoneOf(mine, notOtherUsers), totalCountIs(0)]);
  });

  test('SCOPE-03 Filtering by another user\'s exact group Name finds nothing', requirement('SCOPE-03'), async ({ api, dataset, verify, kit }) => {
    api.token('otherUser');
    const mine = groupsOf(dataset, () => true);
    for (const group of mine.slice(0, 2)) {
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { name: group.sent.Name }), { as: 'otherUser' }), [isListResult, listsNoneOf(mine.map((g) => g.id), notOtherUsers)]);
    }
  });
});

test.describe('CHAN channel scoping', () => {
  const onlyThatChannel = 'When the token is bound to a fixed channel, only that channel\'s groups are returned.';

  test('CHAN-01 A channel-bound token lists the groups created through it', requirement('CHAN-01'), async ({ api, dataset, verify, kit }) => {
    api.token('channelA');
    api.token('channelB');
    for (const role of ['channelA', 'channelB'] as const) {
      const own = groupsOf(dataset, (g) => g.via === role).map((g) => g.id);
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: own }), { as: role }), [isListResult, listsIncluding(own)]);
    }
  });

  test('CHAN-02 A channel-bound token never lists another channel\'s groups', requirement('CHAN-02'), async ({ api, dataset, verify, kit }) => {
    api.token('channelA');
    api.token('channelB');
    const all = groupsOf(dataset, () => true);
    for (const role of ['channelA', 'channelB'] as const) {
      const others = all.filter((g) => g.via !== role).map((g) => g.id);
      // Asked by Id for every run group: the other channel's, and those created without a channel.
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: all.map((g) => g.id) }), { as: role }), [isListResult, listsNoneOf(others, onlyThatChannel)]);
      if (kit.context.profile.list.nameMatch === 'case-insensitive-substring') {
        const byPrefix = await api.call('ListAssetGroups', listBody(kit.context.profile, { name: dataset.prefix, pageSize: kit.context.profile.list.pageSize.maximum }), { as: role });
        await verify(byPrefix, [isListResult, listsNoneOf(others, onlyThatChannel)]);
      }
    }
  });

  test('CHAN-03 An unbound token of the same user lists the groups of every channel', requirement('CHAN-03'), async ({ api, dataset, verify, kit }) => {
    api.token('channelA');
    api.token('channelB');
    const channelGroups = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: channelGroups })), [isListResult, listsExactly(channelGroups)]);
  });
});
