import { test, requirement, groupsOf, LISTED } from './fixtures';
import { CREATING_ROLES, itemsOf, judgeVisibility } from './dataset';
import { recordLags, recordRetries } from '../facts/record';
import { staysVisible } from './checks';
import { ahead } from './api';

// VIS-01 judges the create-and-wait phase's record (suites/dataset-setup.ts); VIS-02 reads the run's groups again.

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
      const answers = await ahead(
        CREATING_ROLES.map((role) => async () => {
          const groups = groupsOf(dataset, (g) => g.via === role);
          if (!groups.length) return undefined;
          // One read of the role's groups, or under a one-Id filter (list.idFilterTakes: one) one per group.
          return api.listByIds(profile, { groupIds: groups.map((g) => g.id), pageSize: profile.list.pageSize.maximum }, { as: role, fresh: true });
        }),
      );
      for (const answer of answers) {
        for (const { query, exchange } of (await answer) ?? []) {
          // Every group asked for was listed to this token before (groupsOf): one missing now is lost, not filtered out.
          const listed = new Set(itemsOf(exchange).map((item) => item.Id));
          await verify(exchange, [
            ...LISTED,
            staysVisible(
              query.groupIds!.filter((id) => !listed.has(id)),
              'missing from this read of them by their Ids',
            ),
          ]);
        }
      }
    }
  });
});
