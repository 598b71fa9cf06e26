import { CREATE_02, CREATE_05 } from './families/create';
import { test, requirement, groupsOf, LISTED } from './fixtures';
import { CREATING_ROLES, isGroup } from './dataset';
import { groupNamed, readOf, roleGroupsRead } from './dataset-needs';
import { recordBlocked as blocked, recordProfileMismatch } from '../facts/record';
import { createAnswered, createdWithId, distinctCreatedIds, filtersHold, itemMatchesSent, keepsEdgeWhitespace, noServerError, owned } from './checks';
import { ahead, askedOf } from './api';
import { lengthIn } from '../schemas/profile';

// Every test here reads the run's own groups, created once before the suites (suites/dataset-setup.ts).

test.describe('CREATE the create operation', () => {
  test('CREATE-01 CreateAssetGroup answers 200 with a non-empty Result.Id', requirement('CREATE-01'), async ({ dataset, verify }) => {
    test.skip(!!dataset.error, `the create phase itself failed: ${dataset.error}`);
    const judged = dataset.groups.filter((g) => g.judgedBy === 'CREATE-01');
    test.skip(judged.length === 0, 'not assessable: no create was sent');
    for (const group of judged) await verify(group.create, [...createAnswered(group.create), createdWithId]);
    // p0's namesake, where the phase sent one (a one-Id filter and whole-Name matching): refused or not, never a server error.
    for (const group of dataset.groups.filter(isGroup('namesake'))) await verify(group.create, [noServerError]);
  });

  test(
    'CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id',
    requirement('CREATE-02', CREATE_02),
    async ({ api, dataset, verify, profile }) => {
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
  );

  test('CREATE-03 Distinct creates get distinct Ids', requirement('CREATE-03'), async ({ dataset, judge }) => {
    const created = dataset.groups.filter((g) => g.id !== null);
    if (created.length < 2) blocked(test.info(), ['CREATE-01'], `only ${created.length} of the run's creates answered an Id`);
    await judge(
      created.map((g) => g.create),
      distinctCreatedIds,
    );
  });

  test("CREATE-04 ProjectName defaults to the profile's default when omitted", requirement('CREATE-04'), async ({ api, dataset, verify, profile }) => {
    const fallback = profile.create.defaults.ProjectName;
    test.skip(fallback === undefined, `profile "${profile.name}" names no default ProjectName`);
    const omitted = groupsOf(dataset, isGroup('whitespace'));
    // Read in the list of their role's groups that CREATE-02 judges too: one answer for both.
    for (const group of omitted) {
      const listed = readOf(await roleGroupsRead(api, profile, dataset, group.via), group.id);
      // Only the default is this requirement's: the other fields' round trip is CREATE-02's.
      await verify(listed, [...LISTED, itemMatchesSent(group.id, {}, { ProjectName: fallback })]);
    }
  });

  test(
    "CREATE-05 Values at the profile's bounds are accepted and come back unchanged",
    requirement('CREATE-05', CREATE_05),
    async ({ api, dataset, verify, profile }, testInfo) => {
      const edge = dataset.groups.find(isGroup('atBounds'));
      test.skip(!edge, 'not assessable: the create phase sent no create at the bounds');
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
  );

  test(
    'CREATE-06 Leading and trailing whitespace of a create field comes back as sent',
    requirement('CREATE-06'),
    async ({ api, dataset, verify, profile }) => {
      const group = groupNamed(dataset, 'whitespace');
      // Its role's read of its groups, which CREATE-02 judged: sent once per run. A value changed otherwise, or
      // a group not listed, is CREATE-02's finding and leaves nothing to judge here.
      const listed = readOf(await roleGroupsRead(api, profile, dataset, group.via), group.id);
      await verify(listed, [...LISTED, owned('CREATE-02', itemMatchesSent(group.id, group.sent, {})), keepsEdgeWhitespace(group.id, group.sent)]);
    },
  );
});
