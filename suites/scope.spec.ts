import { test, requirement, groupsOf, listBody } from './fixtures';
import { everyItem, isListResult, listsExactly, listsIncluding, listsNoneOf, totalCountIs } from './checks';
import { ahead, together } from './api';

// Requests that do not depend on each other's answers are sent a few at a time through
// ahead()/together() (so a slow target's latency overlaps instead of adding up) and judged one by
// one in the order they were listed: the same requests, the same checks, in the same order.

test.describe('SCOPE user scoping', () => {
  const notOtherUsers = 'The result covers only the groups of the current user.';

  test('SCOPE-01 The second user\'s list never shows the primary user\'s groups', requirement('SCOPE-01'), async ({ api, dataset, verify, kit }) => {
    api.token('otherUser');
    const profile = kit.context.profile;
    const mine = groupsOf(dataset, () => true).map((g) => g.id);
    const noRunNames = everyItem(`Name does not start with this run's prefix ${dataset.prefix}`, (item) => !String(item.Name).startsWith(dataset.prefix), notOtherUsers);
    // The plain first page: where a server that ignores the user would most likely show new groups.
    const [plain, byPrefix] = await together([
      () => api.call('ListAssetGroups', listBody(profile, { pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' }),
      ...(profile.list.nameMatch === 'case-insensitive-substring' ? [() => api.call('ListAssetGroups', listBody(profile, { name: dataset.prefix, pageSize: profile.list.pageSize.maximum }), { as: 'otherUser' })] : []),
    ]);
    await verify(plain, [isListResult, listsNoneOf(mine, notOtherUsers), noRunNames]);
    if (byPrefix) {
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
    const answers = await together(mine.slice(0, 2).map((group) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { name: group.sent.Name }), { as: 'otherUser' })));
    for (const answer of answers) {
      await verify(answer, [isListResult, listsNoneOf(mine.map((g) => g.id), notOtherUsers)]);
    }
  });
});

test.describe('CHAN channel scoping', () => {
  const onlyThatChannel = 'When the token is bound to a fixed channel, only that channel\'s groups are returned.';

  test('CHAN-01 A channel-bound token lists the groups created through it', requirement('CHAN-01'), async ({ api, dataset, verify, kit }) => {
    api.token('channelA');
    api.token('channelB');
    // A role's missing groups (groupsOf throws) surface where its list is judged.
    const answers = await ahead((['channelA', 'channelB'] as const).map((role) => async () => {
      const own = groupsOf(dataset, (g) => g.via === role).map((g) => g.id);
      return { own, listed: await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: own }), { as: role }) };
    }));
    for (const answer of answers) {
      const { own, listed } = await answer;
      await verify(listed, [isListResult, listsIncluding(own)]);
    }
  });

  test('CHAN-02 A channel-bound token never lists another channel\'s groups', requirement('CHAN-02'), async ({ api, dataset, verify, kit }) => {
    api.token('channelA');
    api.token('channelB');
    const all = groupsOf(dataset, () => true);
    const roles = ['channelA', 'channelB'] as const;
    const bySubstring = kit.context.profile.list.nameMatch === 'case-insensitive-substring';
    const answers = await together(roles.flatMap((role) => [
      // Asked by Id for every run group: the other channel's, and those created without a channel.
      () => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: all.map((g) => g.id) }), { as: role }),
      ...(bySubstring ? [() => api.call('ListAssetGroups', listBody(kit.context.profile, { name: dataset.prefix, pageSize: kit.context.profile.list.pageSize.maximum }), { as: role })] : []),
    ]));
    for (const role of roles) {
      const others = all.filter((g) => g.via !== role).map((g) => g.id);
      await verify(answers.shift()!, [isListResult, listsNoneOf(others, onlyThatChannel)]);
      if (bySubstring) {
        await verify(answers.shift()!, [isListResult, listsNoneOf(others, onlyThatChannel)]);
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
