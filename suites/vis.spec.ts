import { test, requirement, LISTED } from './fixtures';
import { judgeVisibility } from './dataset-needs';
import { recordLags, recordRetries } from '../facts/record';
import { staysVisible } from './checks';
import { plannedTogether, visibilityRound, VISIBILITY_ROUNDS } from './plans';
import { VIS_02 } from './families/vis';

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

  test('VIS-02 A group that became visible stays visible', requirement('VIS-02', VIS_02), async ({ api, dataset, verify, profile }) => {
    // Several reads in a row: a snapshot that drops groups now and then shows it only on repetition. Each round asks every
    // creating token for its groups; the runner may have sent them, round after round (suites/plans/).
    for (let round = 1; round <= VISIBILITY_ROUNDS; round++) {
      const reads = visibilityRound(profile, dataset, round);
      const answers = await plannedTogether(
        api,
        reads.map(({ planned }) => planned),
      );
      // Every group asked for was listed to this token before (groupsOf): one missing now, after its visibility bound, is lost.
      for (const [i, exchange] of answers.entries())
        await verify(exchange, [...LISTED, staysVisible(reads[i].query.groupIds!, 'missing from this read of them by their Ids')]);
    }
  });
});
