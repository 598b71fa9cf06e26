import { test, requirement, groupsOf, LISTED, type Api } from './fixtures';
import { askedOf } from './api';
import { readAlone, type Dataset } from './dataset';
import type { Profile } from '../schemas/profile';
import {
  createdWithId,
  envelopeOf,
  filtersHold,
  listsIncluding,
  owned,
  resultOnlyId,
  RESULT_READ,
  succeeded,
  timestampsInProfileFormat,
  timestampsNearClock,
  timestampsUtc,
  updateNotBeforeCreate,
  validates,
  type Step,
} from './checks';

// Every test here reads the run's own groups, created once before the suites (suites/dataset-setup.ts).

/**
 * The run's primary groups, listed by their Ids: what SCHEMA-03, -04 and -05 each read, with the
 * preconditions that make the items theirs to judge (a list, the Id filter held, every group there).
 */
async function primaryGroupsListed(api: Api, dataset: Dataset, profile: Profile) {
  const groups = groupsOf(dataset, (g) => g.via === 'primary');
  const ids = groups.map((g) => g.id);
  // One read, or under a one-Id filter (list.idFilterTakes: one) one per group, each judged with its own preconditions.
  const reads = (await api.listByIds(profile, { groupIds: ids })).map(({ query, exchange }) => ({
    listed: exchange,
    listedAll: [...LISTED, ...filtersHold(query), owned('LIST-04', listsIncluding(askedOf(query, ids)))] as Step[],
  }));
  return { groups, reads };
}

test.describe('SCHEMA field types and formats', () => {
  test('SCHEMA-01 A CreateAssetGroup Result carries the Id alone', requirement('SCHEMA-01'), async ({ dataset, verify }) => {
    for (const group of groupsOf(dataset, () => true, { visible: false })) {
      // The rest of CreateAssetGroupResponse is owned by the preconditions (envelope, Result, a non-blank Id):
      // only what no other requirement judges is left to this one.
      await verify(group.create, [owned('CREATE-01', createdWithId), ...envelopeOf(group.create), ...RESULT_READ, resultOnlyId]);
    }
  });

  test(
    'SCHEMA-02 A ListAssetGroups success body and every item validate against the contract',
    requirement('SCHEMA-02'),
    async ({ api, dataset, verify, profile }) => {
      // Not through groupsOf: a list whose items the kit cannot recognise (Ids of another JSON type) blocks the
      // other tests by this requirement, which must then judge that list itself.
      const ids = dataset.groups.filter((g) => g.via === 'primary' && g.id !== null && !readAlone(g)).map((g) => g.id!);
      test.skip(ids.length === 0, 'not assessable: no create of the run answered an Id');
      const filtered = (await api.listByIds(profile, { groupIds: ids })).map((r) => [r.exchange, 'LIST-04'] as const);
      for (const [ex, owner] of [...filtered, [dataset.shared.emptyList, 'LIST-01'] as const]) {
        // Whether timestamps are UTC is SCHEMA-03's finding: the schema checks their form too.
        await verify(ex, [...succeeded(owner), ...RESULT_READ, ...envelopeOf(ex), owned('SCHEMA-03', timestampsUtc), validates('ListAssetGroupsResponse')]);
      }
    },
  );

  test('SCHEMA-03 CreateTime and UpdateTime are UTC timestamps', requirement('SCHEMA-03'), async ({ api, dataset, verify, profile, kit }) => {
    const { groups, reads } = await primaryGroupsListed(api, dataset, profile);
    // When the kit's own clock saw each create: a CreateTime hours away is local time under a UTC label.
    const windows = new Map(groups.map((g) => [g.id, { sentAt: g.createdAt - g.create.durationMs, answeredAt: g.createdAt }]));
    for (const { listed, listedAll } of reads)
      await verify(listed, [...listedAll, timestampsUtc, timestampsNearClock(windows, kit.config.clockSkewMs, Date.now())]);
  });

  test("SCHEMA-05 CreateTime and UpdateTime are in the profile's timestamp format", requirement('SCHEMA-05'), async ({ api, dataset, verify, profile }) => {
    const { reads } = await primaryGroupsListed(api, dataset, profile);
    for (const { listed, listedAll } of reads) await verify(listed, [...listedAll, owned('SCHEMA-03', timestampsUtc), timestampsInProfileFormat]);
  });

  test('SCHEMA-04 UpdateTime is not before CreateTime', requirement('SCHEMA-04'), async ({ api, dataset, verify, profile }) => {
    const { reads } = await primaryGroupsListed(api, dataset, profile);
    for (const { listed, listedAll } of reads) await verify(listed, [...listedAll, updateNotBeforeCreate]);
  });
});
