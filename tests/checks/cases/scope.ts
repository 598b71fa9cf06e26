/** SCOPE's checks (CHAN's too: chan.ts holds no function), judged on recorded exchanges (cases of tests/checks/scope.test.ts). */
import * as SCOPE from '../../../suites/checks/scope';
import type { Case } from '../case';
import { createdId, recorded, ref, unanswered, withJson } from '../exchanges';

const threeOf = (session: string) => ['create', 'create2', 'create3'].map((key) => createdId(recorded(session, key)));
const WHY = 'A caller sees only their own groups.';
const leaking = 'unfilteredListIgnoresUser';

export const CASES: Case[] = [
  {
    check: 'refusedOrNoneOf',
    title: "another user's list without them",
    judge: SCOPE.refusedOrNoneOf(threeOf('reference'), WHY),
    exchange: ref('otherUserAll'),
    fails: false,
  },
  { check: 'refusedOrNoneOf', title: 'a 4xx refusal', judge: SCOPE.refusedOrNoneOf(threeOf('reference'), WHY), exchange: ref('noToken'), fails: false },
  {
    check: 'refusedOrNoneOf',
    title: "another user's groups listed",
    judge: SCOPE.refusedOrNoneOf(threeOf(leaking), WHY),
    exchange: recorded(leaking, 'otherUserAll'),
    fails: true,
    expect: 'Items include',
  },
  {
    check: 'refusedOrNoneOf',
    title: 'no response',
    judge: SCOPE.refusedOrNoneOf([], WHY),
    exchange: unanswered(ref('all')),
    fails: true,
    expect: 'no response',
  },

  { check: 'refusedOrCountsNone', title: 'none counted', judge: SCOPE.refusedOrCountsNone(WHY), exchange: ref('otherUser'), fails: false },
  {
    check: 'refusedOrCountsNone',
    title: "another user's groups counted",
    judge: SCOPE.refusedOrCountsNone(WHY),
    exchange: recorded('totalCountUnscoped', 'otherUser'),
    fails: true,
    expect: 'TotalCount 3 with Items []',
  },

  // The second user's own groups (the run's GROUPS.secondUser) are its to count, as many as the page lists of them.
  {
    check: 'refusedOrCountsNone',
    title: 'only its own listed groups counted',
    judge: SCOPE.refusedOrCountsNone(WHY, threeOf('reference')),
    exchange: ref('byIds'),
    fails: false,
  },
  {
    check: 'refusedOrCountsNone',
    title: 'one more than its own listed groups counted',
    judge: SCOPE.refusedOrCountsNone(WHY, threeOf('reference')),
    exchange: withJson(ref('byIds'), (json) => (json.Result.TotalCount += 1)),
    fails: true,
    expect: 'TotalCount 4',
  },

  {
    check: 'listsNoneOf',
    title: "another user's list without them",
    judge: SCOPE.listsNoneOf(threeOf('reference'), WHY),
    exchange: ref('otherUserAll'),
    fails: false,
  },
  {
    check: 'listsNoneOf',
    title: "another user's groups listed",
    judge: SCOPE.listsNoneOf(threeOf(leaking), WHY),
    exchange: recorded(leaking, 'otherUserAll'),
    fails: true,
    expect: 'Items include',
  },
];
