/** VIS's checks, judged on recorded exchanges (cases of tests/checks/vis.test.ts): the phase's record beside its last polls. */
import * as VIS from '../../../suites/checks/vis';
import type { Case } from '../case';
import { createdId, ref } from '../exchanges';

const id = createdId(ref('create'));
const TIMEOUT = 10_000;
const seen = [{ key: 'p1', id, visibleAfterMs: 40 }];
const never = [{ key: 'p1', id, visibleAfterMs: null }];

export const CASES: Case[] = [
  { check: 'visibleInTime', title: 'listed within the timeout', judge: VIS.visibleInTime(seen, TIMEOUT), exchanges: [ref('byIds')], fails: false },
  {
    check: 'visibleInTime',
    title: 'listed late, though no poll past the timeout missed it',
    judge: VIS.visibleInTime([{ key: 'p1', id, visibleAfterMs: TIMEOUT + 50, missedAtMs: TIMEOUT - 100 }], TIMEOUT),
    exchanges: [ref('byIds')],
    fails: false,
  },
  {
    check: 'visibleInTime',
    title: 'never listed',
    judge: VIS.visibleInTime(never, TIMEOUT),
    exchanges: [ref('otherUser')],
    fails: true,
    expect: `p1 (${id}) not listed within ${TIMEOUT} ms`,
    mismatch: false,
  },
  {
    check: 'visibleInTime',
    title: 'its polls refused (a profile mismatch)',
    judge: VIS.visibleInTime(never, TIMEOUT),
    exchanges: [ref('pageSize0')],
    fails: true,
    expect: 'the polls for them were refused',
    mismatch: true,
  },
  {
    check: 'visibleInTime',
    title: 'its polls, which sent a page size, refused: the paging fields named too',
    judge: VIS.visibleInTime(never, TIMEOUT),
    exchanges: [ref('pageSize0')],
    fails: true,
    expect: 'or list.pageSize.field and list.pageNumber.field',
    mismatch: true,
  },

  { check: 'staysVisible', title: 'the group asked for listed again', judge: VIS.staysVisible([id]), exchange: ref('byIds'), fails: false },
  { check: 'staysVisible', title: 'nothing lost', judge: VIS.staysVisible([]), exchange: ref('byIds'), fails: false },
  { check: 'staysVisible', title: 'a group lost', judge: VIS.staysVisible([id]), exchange: ref('otherUser'), fails: true, expect: `${id} listed before` },
];
