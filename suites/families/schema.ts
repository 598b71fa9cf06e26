/**
 * SCHEMA: field types and formats. Every test here reads the run's own groups, created once before the suites
 * (suites/dataset-setup.ts).
 */
import { test } from '@playwright/test';
import { askedOf, type Api } from '../api';
import { readAlone, type Dataset } from '../dataset';
import { groupsOf, pickGroups } from '../dataset-needs';
import type { Profile } from '../../schemas/profile';
import {
  LISTED,
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
} from '../checks';
import { declareTest, type JudgeContext, type TestGroup } from '../declare';

const primary = (dataset: Dataset) => groupsOf(dataset, (g) => g.via === 'primary');

/**
 * The run's primary groups, listed by their Ids: what SCHEMA-03, -04 and -05 each read, with the
 * preconditions that make the items theirs to judge (a list, the Id filter held, every group there).
 */
async function primaryGroupsListed(api: Api, dataset: Dataset, profile: Profile) {
  const groups = primary(dataset);
  const ids = groups.map((g) => g.id);
  // One read, or under a one-Id filter (list.idFilterTakes: one) one per group, each judged with its own preconditions.
  const reads = (await api.listByIds(profile, { groupIds: ids })).map(({ query, exchange }) => ({
    listed: exchange,
    listedAll: [...LISTED, ...filtersHold(query), owned('LIST-04', listsIncluding(askedOf(query, ids)))] as Step[],
  }));
  return { groups, reads };
}

// Every primary group created and listed, or the test is blocked by what kept one from it (groupsOf).
const primaryGroups = ({ dataset }: JudgeContext) => void primary(dataset);

// Not through groupsOf: a list whose items the kit cannot recognise (Ids of another JSON type) blocks the
// other tests by this requirement, which must then judge that list itself.
const unblockedIds = (dataset: Dataset) => dataset.groups.filter((g) => g.via === 'primary' && g.id !== null && !readAlone(g)).map((g) => g.id!);

export const SCHEMA_01_TEST = declareTest({
  id: 'SCHEMA-01',
  needs: ({ dataset }) => void groupsOf(dataset, () => true, { visible: false }),
  // The rest of CreateAssetGroupResponse is owned by the preconditions (envelope, Result, a non-blank Id):
  // only what no other requirement judges is left to this one.
  judge: (_, { dataset }) =>
    pickGroups(dataset, () => true).map((group) => ({
      answer: group.create,
      steps: [owned('CREATE-01', createdWithId), ...envelopeOf(group.create), ...RESULT_READ, resultOnlyId],
    })),
});

export const SCHEMA_02_TEST = declareTest({
  id: 'SCHEMA-02',
  needs: ({ dataset }) => test.skip(unblockedIds(dataset).length === 0, 'not assessable: no create of the run answered an Id'),
  run: async ({ api, dataset, profile }) => (await api.listByIds(profile, { groupIds: unblockedIds(dataset) })).map((r) => r.exchange),
  judge: (_, { dataset }, filtered) =>
    [...filtered.map((ex) => [ex, 'LIST-04'] as const), [dataset.shared.emptyList, 'LIST-01'] as const].map(([ex, owner]) => ({
      answer: ex,
      // Whether timestamps are UTC is SCHEMA-03's finding: the schema checks their form too.
      steps: [...succeeded(owner), ...RESULT_READ, ...envelopeOf(ex), owned('SCHEMA-03', timestampsUtc), validates('ListAssetGroupsResponse')],
    })),
});

export const SCHEMA_03_TEST = declareTest({
  id: 'SCHEMA-03',
  needs: primaryGroups,
  // The kit's clock, read once the lists are answered: no UpdateTime they hold is later (timestampsNearClock's latest).
  run: async ({ api, dataset, profile }) => ({ ...(await primaryGroupsListed(api, dataset, profile)), now: Date.now() }),
  judge: (_, { config }, { groups, reads, now }) => {
    // When the kit's own clock saw each create: a CreateTime hours away is local time under a UTC label.
    const windows = new Map(groups.map((g) => [g.id, { sentAt: g.createdAt - g.create.durationMs, answeredAt: g.createdAt }]));
    return reads.map(({ listed, listedAll }) => ({
      answer: listed,
      steps: [...listedAll, timestampsUtc, timestampsNearClock(windows, config.clockSkewMs, now)],
    }));
  },
});

export const SCHEMA_05_TEST = declareTest({
  id: 'SCHEMA-05',
  needs: primaryGroups,
  run: ({ api, dataset, profile }) => primaryGroupsListed(api, dataset, profile),
  judge: (_, __, { reads }) =>
    reads.map(({ listed, listedAll }) => ({ answer: listed, steps: [...listedAll, owned('SCHEMA-03', timestampsUtc), timestampsInProfileFormat] })),
});

export const SCHEMA_04_TEST = declareTest({
  id: 'SCHEMA-04',
  needs: primaryGroups,
  run: ({ api, dataset, profile }) => primaryGroupsListed(api, dataset, profile),
  judge: (_, __, { reads }) => reads.map(({ listed, listedAll }) => ({ answer: listed, steps: [...listedAll, updateNotBeforeCreate] })),
});

export const SCHEMA: readonly TestGroup[] = [
  {
    describe: 'SCHEMA field types and formats',
    tests: [SCHEMA_01_TEST, SCHEMA_02_TEST, SCHEMA_03_TEST, SCHEMA_05_TEST, SCHEMA_04_TEST],
  },
];
