/**
 * CREATE: the create operation. The family's declared tests and the plans of their requests that need no earlier answer.
 * Every test here reads the run's own groups, created once before the suites (suites/dataset-setup.ts).
 */
import { test } from '@playwright/test';
import type { Exchange } from '../../client/exchange';
import { recordBlocked as blocked, recordProfileMismatch } from '../../facts/record';
import { lengthIn } from '../../schemas/profile';
import { ahead, askedOf } from '../api';
import { createAnswered, createdWithId, distinctCreatedIds, filtersHold, itemMatchesSent, keepsEdgeWhitespace, LISTED, noServerError, owned } from '../checks';
import { CREATING_ROLES, isGroup, type Dataset, type GroupRecord } from '../dataset';
import { groupNamed, groupsOf, readOf, roleGroupsRead } from '../dataset-needs';
import { declareTest, type TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { roleReads } from '../plans/reads';

export const CREATE_02 = declarePlan('CREATE-02', ({ config, profile, dataset }) =>
  CREATING_ROLES.flatMap((role) => roleReads(config, profile, dataset, role)),
);
export const CREATE_05 = declarePlan('CREATE-05', ({ config, profile, dataset }) => roleReads(config, profile, dataset, 'primary', { bounds: true }));

const judgedBy01 = (dataset: Dataset) => dataset.groups.filter((g) => g.judgedBy === 'CREATE-01');
const created = (dataset: Dataset) => dataset.groups.filter((g) => g.id !== null);

export const CREATE_01_TEST = declareTest({
  id: 'CREATE-01',
  needs: ({ dataset }) => {
    test.skip(!!dataset.error, `the create phase itself failed: ${dataset.error}`);
    test.skip(judgedBy01(dataset).length === 0, 'not assessable: no create was sent');
  },
  judge: (_, { dataset }) => [
    ...judgedBy01(dataset).map((group) => ({ answer: group.create, steps: [...createAnswered(group.create), createdWithId] })),
    // p0's namesake, where the phase sent one (a one-Id filter and whole-Name matching), and the second user's group (a token of
    // that user may only read): refused or not, never a server error.
    ...dataset.groups.filter((g) => isGroup('namesake')(g) || isGroup('secondUser')(g)).map((group) => ({ answer: group.create, steps: [noServerError] })),
  ],
});

// Sends through roleGroupsRead and judges each role's read as it comes, where a later role's missing groups block only
// after the earlier roles' reads were judged: kept as it was.
export const CREATE_02_TEST = declareTest({
  id: 'CREATE-02',
  plans: [CREATE_02],
  run: async ({ api, dataset, verify, profile }) => {
    // One list per role; a role's missing groups block where its list is judged.
    const answers = await ahead(
      CREATING_ROLES.map((role) => async () => {
        const groups = groupsOf(dataset, (g) => g.via === role);
        return {
          groups,
          listed: groups.length ? await roleGroupsRead(api, profile, dataset, role) : undefined,
        };
      }),
    );
    for (const answer of answers) {
      const { groups, listed } = await answer;
      if (!listed) continue;
      // Only fields that were sent are compared: defaults are CREATE-04's business. One read, or under a one-Id filter one per group.
      for (const { query, exchange } of listed)
        await verify(exchange, [
          ...LISTED,
          ...filtersHold(query),
          ...groups.filter((g) => askedOf(query, [g.id]).length).map((g) => itemMatchesSent(g.id, g.sent, {})),
        ]);
    }
  },
});

export const CREATE_03_TEST = declareTest({
  id: 'CREATE-03',
  needs: ({ dataset }) => {
    const ids = created(dataset);
    if (ids.length < 2) blocked(test.info(), ['CREATE-01'], `only ${ids.length} of the run's creates answered an Id`);
  },
  judge: (_, { dataset }) => [{ answers: created(dataset).map((g) => g.create), together: distinctCreatedIds }],
});

export const CREATE_04_TEST = declareTest({
  id: 'CREATE-04',
  needs: ({ profile }) => {
    const fallback = profile.create.defaults.ProjectName;
    test.skip(fallback === undefined, `profile "${profile.name}" names no default ProjectName`);
  },
  // Read in the list of their role's groups that CREATE-02 judges too: one answer for both.
  run: async ({ api, profile, dataset }) => {
    const omitted = groupsOf(dataset, isGroup('whitespace'));
    const reads: { group: GroupRecord & { id: string }; listed: Exchange }[] = [];
    for (const group of omitted) reads.push({ group, listed: readOf(await roleGroupsRead(api, profile, dataset, group.via), group.id) });
    return reads;
  },
  // Only the default is this requirement's: the other fields' round trip is CREATE-02's.
  judge: (_, { profile }, reads) =>
    reads.map(({ group, listed }) => ({
      answer: listed,
      steps: [...LISTED, itemMatchesSent(group.id, {}, { ProjectName: profile.create.defaults.ProjectName })],
    })),
});

// Sends a create of its own where the bounds were refused, and records a profile mismatch between its judgements: kept as it was.
export const CREATE_05_TEST = declareTest({
  id: 'CREATE-05',
  plans: [CREATE_05],
  run: async ({ api, dataset, verify, profile, testInfo }) => {
    const edge = dataset.groups.find(isGroup('atBounds'));
    testInfo.skip(!edge, 'not assessable: the create phase sent no create at the bounds');
    const refused = (edge!.create.response?.status ?? 0) >= 400 && (edge!.create.response?.status ?? 0) < 500;
    if (refused) {
      // Refused at the bounds. With no length unit stated the values are ASCII, the same length in every unit:
      // the target's bounds are lower (a profile mismatch). In a stated unit, plain ASCII of the same lengths
      // tells lower bounds from a target that counts in another unit or mishandles the characters.
      const unit = profile.create.lengthUnit;
      const bounded = (field: string) => profile.create.maxLength[field] !== undefined;
      const ascii = Object.fromEntries(
        Object.entries(edge!.sent).map(([field, value]) => [
          field,
          !bounded(field) ? value : field === 'Name' ? `${dataset.prefix}ascii-`.padEnd(lengthIn(value, unit), 'a') : 'a'.repeat(lengthIn(value, unit)),
        ]),
      );
      const plain = unit === undefined ? edge!.create : (await api.create(ascii)).exchange;
      if ((plain.response?.status ?? 0) >= 400) {
        const hint = `values at the profile's maximum lengths were refused${unit ? ', even in plain ASCII' : ' (plain ASCII)'}: the target's bounds are lower; set create.maxLength`;
        recordProfileMismatch(testInfo, hint);
      }
    }
    // p0's create first, CREATE-01's: where that has no Id either (every create answered 201, say), this one's is the same deviation.
    const plain = dataset.groups.find(isGroup('plain'));
    if (plain) await verify(plain.create, [...createAnswered(plain.create), owned('CREATE-01', createdWithId)]);
    await verify(edge!.create, [...createAnswered(edge!.create), createdWithId]);
    const seen = groupNamed(dataset, 'atBounds', { bounds: true });
    // Among its role's groups, bounds included: the create-and-wait phase's last poll asked the same, so the run sends it at most once.
    const reads = await roleGroupsRead(api, profile, dataset, seen.via, { bounds: true });
    // In a stated unit the values are text of every plane, which p1 carries as ordinary values (CREATE-02's): where
    // that does not come back as sent, these are changed the same way, the round trip's one deviation, not the bounds'.
    const ordinary = dataset.groups.find((g) => isGroup('everyScript')(g) && g.via === seen.via && g.id !== null && g.visibleAfterMs !== null);
    if (profile.create.lengthUnit !== undefined && ordinary)
      await verify(readOf(reads, ordinary.id!), [...LISTED, owned('CREATE-02', itemMatchesSent(ordinary.id!, ordinary.sent, {}))]);
    await verify(readOf(reads, seen.id), [...LISTED, itemMatchesSent(seen.id, seen.sent, {})]);
  },
});

export const CREATE_06_TEST = declareTest({
  id: 'CREATE-06',
  // Its role's read of its groups, which CREATE-02 judged: sent once per run. A value changed otherwise, or
  // a group not listed, is CREATE-02's finding and leaves nothing to judge here.
  run: async ({ api, profile, dataset }) => {
    const group = groupNamed(dataset, 'whitespace');
    return { group, listed: readOf(await roleGroupsRead(api, profile, dataset, group.via), group.id) };
  },
  judge: (_, __, { group, listed }) => [
    { answer: listed, steps: [...LISTED, owned('CREATE-02', itemMatchesSent(group.id, group.sent, {})), keepsEdgeWhitespace(group.id, group.sent)] },
  ],
});

export const CREATE: readonly TestGroup[] = [
  {
    describe: 'CREATE the create operation',
    tests: [CREATE_01_TEST, CREATE_02_TEST, CREATE_03_TEST, CREATE_04_TEST, CREATE_05_TEST, CREATE_06_TEST],
  },
];
