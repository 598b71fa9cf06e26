import { test, expect, requirement, groupsOf, listBody } from './fixtures';
import {
  createdWithId,
  isListResult,
  itemMatchesSent,
  listsIncluding,
  timestampsUtc,
  updateNotBeforeCreate,
  validates,
} from './checks';
import { ahead, together } from './api';

// Every test here reads the run's own groups, created once before the suites (suites/dataset.ts).
// Requests that do not depend on each other's answers are sent a few at a time through
// ahead()/together() (so a slow target's latency overlaps instead of adding up) and judged one by
// one in the order they were listed: the same requests, the same checks, in the same order.

test.describe('CREATE the create operation', () => {
  test('CREATE-01 CreateAssetGroup answers 200 with a non-empty Result.Id', requirement('CREATE-01'), async ({ dataset, verify }) => {
    expect(dataset.error, 'the create phase itself failed').toBeUndefined();
    expect(dataset.groups.length).toBeGreaterThan(0);
    for (const group of dataset.groups) await verify(group.create, [createdWithId]);
  });

  test('CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id', requirement('CREATE-02'), async ({ api, dataset, verify, kit }) => {
    const roles = ['primary', 'channelA', 'channelB'] as const;
    // One list per role; a role's missing groups (groupsOf throws) surface where its list is judged.
    const answers = await ahead(roles.map((role) => async () => {
      const groups = groupsOf(dataset, (g) => g.via === role);
      return { groups, listed: groups.length ? await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: groups.map((g) => g.id), pageSize: kit.context.profile.list.pageSize.maximum }), { as: role }) : undefined };
    }));
    for (const answer of answers) {
      const { groups, listed } = await answer;
      if (!listed) continue;
      await verify(listed, [isListResult]);
      // Only fields that were sent are compared: defaults are CREATE-04's business.
      for (const group of groups) await verify(listed, [itemMatchesSent(group.id, group.sent, {})]);
    }
  });

  test('CREATE-03 Distinct creates get distinct Ids', requirement('CREATE-03'), async ({ dataset }) => {
    const ids = groupsOf(dataset, () => true, { visible: false }).map((g) => g.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i), `Ids repeat across ${ids.length} creates`).toEqual([]);
  });

  test('CREATE-04 ProjectName defaults to the profile\'s default when omitted', requirement('CREATE-04'), async ({ api, dataset, verify, kit }) => {
    const fallback = kit.context.profile.create.defaults.ProjectName;
    test.skip(fallback === undefined, `profile "${kit.context.profile.name}" names no default ProjectName`);
    const omitted = groupsOf(dataset, (g) => g.via === 'primary' && g.sent.ProjectName === undefined);
    expect(omitted.length, 'the dataset plans one group without ProjectName').toBeGreaterThan(0);
    const listed = await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: omitted.map((g) => g.id) }));
    await verify(listed, [isListResult]);
    for (const group of omitted) await verify(listed, [itemMatchesSent(group.id, group.sent, { ProjectName: fallback })]);
  });
});

test.describe('VIS eventual visibility of created groups', () => {
  test('VIS-01 Every created group becomes visible within the visibility timeout', requirement('VIS-01'), async ({ dataset }, testInfo) => {
    const created = groupsOf(dataset, () => true, { visible: false });
    const lags = created.map((g) => ({ key: g.key, via: g.via, id: g.id, visibleAfterMs: g.visibleAfterMs }));
    await testInfo.attach('visibility-lags', { body: JSON.stringify({ timeoutMs: dataset.visibilityTimeoutMs, polls: dataset.polls, lags }, null, 2), contentType: 'application/json' });
    // The create phase's own 429/503 retries, for the reports' counts.
    await testInfo.attach('retries', { body: JSON.stringify(dataset.retries), contentType: 'application/json' });
    const late = created.filter((g) => g.visibleAfterMs === null || g.visibleAfterMs > dataset.visibilityTimeoutMs);
    if (late.length) {
      await testInfo.attach('evidence', { body: JSON.stringify({ lastPolls: dataset.lastPolls }, null, 2), contentType: 'application/json' });
    }
    expect(late.map((g) => `${g.key} (${g.id}, created through ${g.via})`), `groups not listed within AG_VISIBILITY_TIMEOUT_MS=${dataset.visibilityTimeoutMs} ms of their create`).toEqual([]);
  });

  test('VIS-02 A group that became visible stays visible', requirement('VIS-02'), async ({ api, dataset, verify, kit }) => {
    // Several reads in a row: a snapshot that drops groups now and then shows it only on repetition.
    // The rounds stay one after another; within a round the roles' reads (each with its own token) go together.
    for (let round = 0; round < 3; round++) {
      const answers = await ahead((['primary', 'channelA', 'channelB'] as const).map((role) => async () => {
        const groups = groupsOf(dataset, (g) => g.via === role);
        if (!groups.length) return undefined;
        const ids = groups.map((g) => g.id);
        return { ids, listed: await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageSize: kit.context.profile.list.pageSize.maximum }), { as: role }) };
      }));
      for (const answer of answers) {
        const read = await answer;
        if (!read) continue;
        await verify(read.listed, [isListResult, listsIncluding(read.ids)]);
      }
    }
  });
});

test.describe('SCHEMA field types and formats', () => {
  test('SCHEMA-01 A CreateAssetGroup success body validates against the contract', requirement('SCHEMA-01'), async ({ dataset, verify }) => {
    for (const group of groupsOf(dataset, () => true, { visible: false })) await verify(group.create, [createdWithId, validates('CreateAssetGroupResponse')]);
  });

  test('SCHEMA-02 A ListAssetGroups success body and every item validate against the contract', requirement('SCHEMA-02'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const [filtered, unfiltered] = await together([() => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids })), () => api.call('ListAssetGroups', {})]);
    await verify(filtered, [isListResult, validates('ListAssetGroupsResponse')]);
    await verify(unfiltered, [isListResult, validates('ListAssetGroupsResponse')]);
  });

  test('SCHEMA-03 CreateTime and UpdateTime are UTC timestamps in the profile\'s format', requirement('SCHEMA-03'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids })), [isListResult, listsIncluding(ids), timestampsUtc]);
  });

  test('SCHEMA-04 UpdateTime is not before CreateTime', requirement('SCHEMA-04'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids })), [isListResult, listsIncluding(ids), updateNotBeforeCreate]);
  });
});
