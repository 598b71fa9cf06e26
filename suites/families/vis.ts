/**
 * VIS: eventual visibility. The family's declared tests and the plans of their requests that need no earlier answer.
 * VIS-01 judges the create-and-wait phase's record (suites/dataset-setup.ts); VIS-02 reads the run's groups again.
 */
import { recordLags, recordRetries } from '../../facts/record';
import { LISTED, staysVisible } from '../checks';
import { judgeVisibility } from '../dataset-needs';
import { polled } from '../dataset';
import { declareTest, type TestGroup } from '../declare';
import { declarePlan, plannedTogether, sendOwn } from '../plans';
import { VISIBILITY_ROUNDS, visibilityRound, type VisibilityRead } from '../plans/reads';
import { listBody, together, type Api } from '../api';
import type { Exchange } from '../../client/exchange';
import type { Profile } from '../../schemas/profile';

// Every round but the last, which the test sends itself (below).
export const VIS_02 = declarePlan('VIS-02', ({ profile, dataset }) =>
  Array.from({ length: VISIBILITY_ROUNDS - 1 }, (_, i) => visibilityRound(profile, dataset, i + 1).map(({ planned }) => planned)).flat(),
);

// Records the phase's lags and retries for the reports, then judges through judgeVisibility (CHAN-01's too), which blocks and judges as it goes.
export const VIS_01_TEST = declareTest({
  id: 'VIS-01',
  run: async ({ dataset, judge, verify, testInfo }) => {
    const created = dataset.groups.filter((g): g is typeof g & { id: string } => g.id !== null && polled(g));
    const lags = created.map((g) => ({ key: g.key, via: g.via, id: g.id, visibleAfterMs: g.visibleAfterMs }));
    await recordLags(testInfo, { timeoutMs: dataset.visibilityTimeoutMs, polls: dataset.polls, lags });
    // The create phase's own 429/503 retries, for the reports' counts.
    await recordRetries(testInfo, dataset.retries);
    // Groups created through a channel-bound token are CHAN-01's to judge: whether that token lists them.
    await judgeVisibility(dataset, judge, verify, 'primary');
  },
});

// Each round is judged once the one before it has been: a group lost between two rounds is lost after having been seen again.
export const VIS_02_TEST = declareTest({
  id: 'VIS-02',
  plans: [VIS_02],
  run: async ({ api, dataset, verify, profile }) => {
    // Several reads in a row: a snapshot that drops groups now and then shows it only on repetition. Each round asks every
    // creating token for its groups; the runner may have sent them, round after round, once the phase saw them (suites/plans/).
    // The last round is this test's own: VIS is the last family Playwright hands out, so it goes among the run's last requests,
    // and reads the run's oldest groups again seconds after the others, at the end of the run.
    for (let round = 1; round <= VISIBILITY_ROUNDS; round++) {
      const reads = visibilityRound(profile, dataset, round);
      const planned = reads.map(({ planned }) => planned);
      const answers = round < VISIBILITY_ROUNDS ? await plannedTogether(api, planned) : await together(planned.map((p) => () => sendOwn(api, p)));
      // Every group asked for was listed to this token before (groupsOf): one missing now, after its visibility bound, is lost.
      for (const [i, exchange] of answers.entries())
        await verify(await ownAgainIfRefused(api, profile, reads[i], exchange), [
          ...LISTED,
          staysVisible(reads[i].expected, 'missing from this read of them by their Ids'),
        ]);
    }
  },
});

/**
 * A read that also asked for the second user's group and was refused with a 4xx, which a server may answer to a filter
 * naming a group the caller may not see (the spec documents 400 and 403 for lists): the same read of the token's own
 * groups alone, sent once more, is what this test judges. The refusal is the run-wide oracle's to judge, as every answer.
 */
async function ownAgainIfRefused(api: Api, profile: Profile, read: VisibilityRead, exchange: Exchange): Promise<Exchange> {
  const status = exchange.response?.status ?? 0;
  if (read.expected.length === read.query.groupIds!.length || status < 400 || status >= 500) return exchange;
  return api.call('ListAssetGroups', listBody(profile, { ...read.query, groupIds: read.expected }), { as: read.role, fresh: true });
}

export const VIS: readonly TestGroup[] = [{ describe: 'VIS eventual visibility of created groups', tests: [VIS_01_TEST, VIS_02_TEST] }];
