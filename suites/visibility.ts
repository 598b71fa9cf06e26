import { test } from '@playwright/test';
import { recordBlocked as blocked } from '../facts/record';
import { listShape, owned, resultPresent, visibleInTime, type Failure } from './checks';
import type { TokenRole } from './config';
import { blockByCause, type Dataset } from './dataset';
import type { Exchange } from '../client/exchange';
import type { Judge, Verify } from './fixtures';

/**
 * The create-and-wait phase's record, judged: every group the roles created was listed to the token
 * it was created through within the timeout. The last polls are the evidence; polls the target
 * refused say nothing about lag, most likely that it does not know the profile's Id filter.
 */
export async function judgeVisibility(dataset: Dataset, judge: Judge, verify: Verify, ...roles: TokenRole[]): Promise<void> {
  const created = dataset.groups.filter((g): g is typeof g & { id: string } => g.id !== null && roles.includes(g.via));
  if (!created.length) blocked(test.info(), [...new Set(dataset.groups.filter((g) => roles.includes(g.via)).map((g) => g.judgedBy))], 'no create of the run answered an Id');
  // Groups listed under another Id type, or behind a page that starts late, are not late: that is another requirement's finding.
  if (dataset.unseenBecause && created.some((g) => g.visibleAfterMs === null)) blockByCause(dataset.unseenBecause);
  const polls = roles.map((role) => dataset.lastPolls[role]).filter((ex): ex is Exchange => !!ex);
  // A poll answered 200 whose items cannot be read says nothing about lag: its shape is ENV-06's and SCHEMA-02's finding.
  for (const poll of polls.filter((ex) => ex.response?.status === 200)) await verify(poll, [owned('ENV-06', resultPresent), owned('SCHEMA-02', listShape)]);
  await judge(polls, Object.defineProperty((exchanges: Exchange[]): Failure | undefined => {
    const failure = visibleInTime(created, dataset.visibilityTimeoutMs);
    const refused = exchanges.find((ex) => ex.response?.status !== 200);
    if (failure && refused) return { ...failure, profileMismatch: `the visibility poll, a list filtered by Id, was answered HTTP ${refused.response?.status ?? 'nothing'}: the target may not know the profile's field names; set list.filterField and list.filters.groupIds` };
    return failure;
  }, 'name', { value: 'visibleInTime' }));
}
