/**
 * CHAN has no check of its own (suites/checks/chan.ts): a channel-bound token's answers are judged by
 * SCOPE's refusal-or-nothing checks against CHAN's sentence. These rows judge them on a token bound
 * to channel A, reaching for a group created through channel B (cases of tests/checks/chan.test.ts).
 */
import { ONLY_THAT_CHANNEL } from '../../../suites/checks/chan';
import * as SCOPE from '../../../suites/checks/scope';
import type { Case } from '../case';
import { createdId, recorded } from '../exchanges';

const ofB = (session: string) => [createdId(recorded(session, 'createB'))];

export const CASES: Case[] = [
  {
    check: 'refusedOrNoneOf',
    title: "channel A's list without channel B's group",
    judge: SCOPE.refusedOrNoneOf(ofB('channels'), ONLY_THAT_CHANNEL),
    exchange: recorded('channels', 'channelAll'),
    fails: false,
  },
  {
    check: 'refusedOrNoneOf',
    title: "channel B's group in channel A's list",
    judge: SCOPE.refusedOrNoneOf(ofB('channelIgnored'), ONLY_THAT_CHANNEL),
    exchange: recorded('channelIgnored', 'channelAll'),
    fails: true,
    expect: `Items include ${JSON.stringify(ofB('channelIgnored'))}`,
  },
  {
    check: 'refusedOrCountsNone',
    title: "channel B's group asked by Id through channel A, not counted",
    judge: SCOPE.refusedOrCountsNone(ONLY_THAT_CHANNEL),
    exchange: recorded('channels', 'channelById'),
    fails: false,
  },
  {
    check: 'refusedOrCountsNone',
    title: "channel B's group counted through channel A",
    judge: SCOPE.refusedOrCountsNone(ONLY_THAT_CHANNEL),
    exchange: recorded('totalCountIgnoresChannel', 'channelById'),
    fails: true,
    expect: 'TotalCount 1 with Items []',
  },
];
