import { test, requirement, groupsOf, listBody, LISTED } from './fixtures';
import { judgeVisibility } from './visibility';
import { recordBlocked as blocked, recordLags, recordProfileMismatch, recordRetries } from '../facts/record';
import {
  createdWithId,
  distinctCreatedIds,
  envelopeOf,
  filtersHold,
  resultOnlyId,
  timestampsInProfileFormat,
  timestampsNearClock,
  itemMatchesSent,
  listsIncluding,
  owned,
  resultPresent,
  succeeded,
  timestampsUtc,
  updateNotBeforeCreate,
  validates,
} from './checks';
import { ahead } from './api';
import { lengthIn } from '../schemas/profile';

// Every test here reads the run's own groups, created once before the suites (suites/dataset.ts).


const ROLES = ['primary', 'channelA', 'channelB'] as const;

test.describe('CREATE the create operation', () => {
  test('CREATE-01 CreateAssetGroup answers 200 with a non-empty Result.Id', requirement('CREATE-01'), async ({ dataset, verify }) => {
    test.skip(!!dataset.error, `the create phase itself failed: ${dataset.error}`);
    const judged = dataset.groups.filter((g) => g.judgedBy === 'CREATE-01');
    test.skip(judged.length === 0, 'not assessable: no create was sent');
    for (const group of judged) await verify(group.create, [createdWithId]);
  });

  test('CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id', requirement('CREATE-02'), async ({ api, dataset, verify, profile }) => {
    // One list per role; a role's missing groups block where its list is judged.
    const answers = await ahead(ROLES.map((role) => async () => {
      const groups = groupsOf(dataset, (g) => g.via === role);
      return { groups, listed: groups.length ? await api.call('ListAssetGroups', listBody(profile, { groupIds: groups.map((g) => g.id), pageSize: profile.list.pageSize.maximum }), { as: role }) : undefined };
    }));
    for (const answer of answers) {
      const { groups, listed } = await answer;
      if (!listed) continue;
      // Only fields that were sent are compared: defaults are CREATE-04's business.
      await verify(listed, [...LISTED, ...filtersHold({ groupIds: groups.map((g) => g.id) }), ...groups.map((g) => itemMatchesSent(g.id, g.sent, {}))]);
    }
  });

  test('CREATE-03 Distinct creates get distinct Ids', requirement('CREATE-03'), async ({ dataset, judge }) => {
    const created = dataset.groups.filter((g) => g.id !== null);
    if (created.length < 2) blocked(test.info(), ['CREATE-01'], `only ${created.length} of the run's creates answered an Id`);
    await judge(created.map((g) => g.create), distinctCreatedIds);
  });

  test('CREATE-04 ProjectName defaults to the profile\'s default when omitted', requirement('CREATE-04'), async ({ api, dataset, verify, profile }) => {
    const fallback = profile.create.defaults.ProjectName;
    test.skip(fallback === undefined, `profile "${profile.name}" names no default ProjectName`);
    const omitted = groupsOf(dataset, (g) => g.via === 'primary' && g.sent.ProjectName === undefined);
    const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: omitted.map((g) => g.id) }));
    await verify(listed, [...LISTED, ...omitted.map((g) => itemMatchesSent(g.id, g.sent, { ProjectName: fallback }))]);
  });

  test('CREATE-05 Values at the profile\'s bounds are accepted and come back unchanged', requirement('CREATE-05'), async ({ api, dataset, verify, profile }, testInfo) => {
    const edge = dataset.groups.find((g) => g.judgedBy === 'CREATE-05');
    test.skip(!edge, 'not assessable: the create phase sent no create at the bounds');
    const refused = (edge!.create.response?.status ?? 0) >= 400 && (edge!.create.response?.status ?? 0) < 500;
    if (refused) {
      // Refused at the bounds. With no length unit stated the values are ASCII, the same length in every unit:
      // the target's bounds are lower (a profile mismatch). In a stated unit, plain ASCII of the same lengths
      // tells lower bounds from a target that counts in another unit or mishandles the characters.
      const unit = profile.create.lengthUnit;
      const bounded = (field: string) => profile.create.maxLength[field] !== undefined;
      const ascii = Object.fromEntries(Object.entries(edge!.sent).map(([field, value]) => [field, !bounded(field) ? value : field === 'Name' ? `${dataset.prefix}ascii-`.padEnd(lengthIn(value, unit), 'a') : 'a'.repeat(lengthIn(value, unit))]));
      const plain = unit === undefined ? edge!.create : (await api.create(ascii)).exchange;
      if ((plain.response?.status ?? 0) >= 400) {
        const hint = `values at the profile's maximum lengths were refused${unit ? ', even in plain ASCII' : ' (plain ASCII)'}: the target's bounds are lower; set create.maxLength`;
        recordProfileMismatch(testInfo, hint);
      }
    }
    await verify(edge!.create, [createdWithId]);
    const [seen] = groupsOf(dataset, (g) => g.judgedBy === 'CREATE-05', { bounds: true });
    const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: [seen.id] }));
    await verify(listed, [...LISTED, itemMatchesSent(seen.id, seen.sent, {})]);
  });
});

test.describe('VIS eventual visibility of created groups', () => {
  test('VIS-01 Every created group becomes visible within the visibility timeout', requirement('VIS-01'), async ({ dataset, judge, verify }, testInfo) => {
    const created = dataset.groups.filter((g): g is typeof g & { id: string } => g.id !== null);
    const lags = created.map((g) => ({ key: g.key, via: g.via, id: g.id, visibleAfterMs: g.visibleAfterMs }));
    await recordLags(testInfo, { timeoutMs: dataset.visibilityTimeoutMs, polls: dataset.polls, lags });
    // The create phase's own 429/503 retries, for the reports' counts.
    await recordRetries(testInfo, dataset.retries);
    // Groups created through a channel-bound token are CHAN-01's to judge: whether that token lists them.
    await judgeVisibility(dataset, judge, verify, 'primary');
  });

  test('VIS-02 A group that became visible stays visible', requirement('VIS-02'), async ({ api, dataset, verify, profile }) => {
    // Several reads in a row: a snapshot that drops groups now and then shows it only on repetition.
    for (let round = 0; round < 3; round++) {
      const answers = await ahead(ROLES.map((role) => async () => {
        const groups = groupsOf(dataset, (g) => g.via === role);
        if (!groups.length) return undefined;
        const ids = groups.map((g) => g.id);
        return { ids, listed: await api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageSize: profile.list.pageSize.maximum }), { as: role }) };
      }));
      for (const answer of answers) {
        const read = await answer;
        if (read) await verify(read.listed, [...LISTED, listsIncluding(read.ids)]);
      }
    }
  });
});

test.describe('SCHEMA field types and formats', () => {
  test('SCHEMA-01 A CreateAssetGroup Result carries the Id alone', requirement('SCHEMA-01'), async ({ dataset, verify }) => {
    for (const group of groupsOf(dataset, () => true, { visible: false })) {
      // The rest of CreateAssetGroupResponse is owned by the preconditions (envelope, Result, a non-blank Id):
      // only what no other requirement judges is left to this one.
      await verify(group.create, [owned('CREATE-01', createdWithId), envelopeOf(group.create), owned('ENV-06', resultPresent), resultOnlyId]);
    }
  });

  test('SCHEMA-02 A ListAssetGroups success body and every item validate against the contract', requirement('SCHEMA-02'), async ({ api, dataset, verify, profile }) => {
    // Not through groupsOf: a list whose items the kit cannot recognise (Ids of another JSON type) blocks the
    // other tests by this requirement, which must then judge that list itself.
    const ids = dataset.groups.filter((g) => g.via === 'primary' && g.id !== null && g.judgedBy !== 'CREATE-05').map((g) => g.id!);
    test.skip(ids.length === 0, 'not assessable: no create of the run answered an Id');
    const [filtered, unfiltered] = [await api.call('ListAssetGroups', listBody(profile, { groupIds: ids })), dataset.shared.emptyList];
    for (const [ex, owner] of [[filtered, 'LIST-04'], [unfiltered, 'LIST-01']] as const) {
      // Whether timestamps are UTC is SCHEMA-03's finding: the schema checks their form too.
      await verify(ex, [...succeeded(owner), owned('ENV-06', resultPresent), envelopeOf(ex), owned('SCHEMA-03', timestampsUtc), validates('ListAssetGroupsResponse')]);
    }
  });

  test('SCHEMA-03 CreateTime and UpdateTime are UTC timestamps', requirement('SCHEMA-03'), async ({ api, dataset, verify, profile, kit }) => {
    const groups = groupsOf(dataset, (g) => g.via === 'primary');
    const ids = groups.map((g) => g.id);
    // When the kit's own clock saw each create: a CreateTime hours away is local time under a UTC label.
    const windows = new Map(groups.map((g) => [g.id, { sentAt: g.createdAt - g.create.durationMs, answeredAt: g.createdAt }]));
    const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids }));
    await verify(listed, [...LISTED, ...filtersHold({ groupIds: ids }), owned('LIST-04', listsIncluding(ids)), timestampsUtc, timestampsNearClock(windows, kit.config.clockSkewMs, Date.now())]);
  });

  test('SCHEMA-05 CreateTime and UpdateTime are in the profile\'s timestamp format', requirement('SCHEMA-05'), async ({ api, dataset, verify, profile }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids }));
    await verify(listed, [...LISTED, ...filtersHold({ groupIds: ids }), owned('LIST-04', listsIncluding(ids)), owned('SCHEMA-03', timestampsUtc), timestampsInProfileFormat]);
  });

  test('SCHEMA-04 UpdateTime is not before CreateTime', requirement('SCHEMA-04'), async ({ api, dataset, verify, profile }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(profile, { groupIds: ids })), [...LISTED, ...filtersHold({ groupIds: ids }), owned('LIST-04', listsIncluding(ids)), updateNotBeforeCreate]);
  });
});
