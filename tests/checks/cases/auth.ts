/** AUTH's checks, judged on recorded exchanges (cases of tests/checks/auth.test.ts). */
import * as AUTH from '../../../suites/checks/auth';
import type { Case } from '../case';
import { recorded, ref, unanswered } from '../exchanges';

const unknownIs403 = recorded('badTokenIs403', 'unknownToken');

export const CASES: Case[] = [
  { check: 'tokenAccepted', title: 'a list served', judge: AUTH.tokenAccepted, exchange: ref('all'), fails: false },
  { check: 'tokenAccepted', title: 'a refusal that is not 401 is not this check’s', judge: AUTH.tokenAccepted, exchange: ref('pageSize0'), fails: false },
  {
    check: 'tokenAccepted',
    title: 'a valid token refused 401 for an empty list body',
    judge: AUTH.tokenAccepted,
    exchange: recorded('emptyListBodyUnauthenticated', 'all'),
    fails: true,
    expect: 'HTTP 401',
  },
  { check: 'tokenAccepted', title: 'no response', judge: AUTH.tokenAccepted, exchange: unanswered(ref('all')), fails: true, expect: 'no response' },

  {
    check: 'unlikeUnknownToken',
    title: 'the 403 an unknown token got, seen again',
    judge: AUTH.unlikeUnknownToken(unknownIs403),
    exchange: unknownIs403,
    fails: true,
    expect: 'HTTP 403, as a token the target never issued got',
  },
  {
    check: 'unlikeUnknownToken',
    title: 'an unknown token answered 401',
    judge: AUTH.unlikeUnknownToken(ref('unknownToken')),
    exchange: ref('unknownToken'),
    fails: false,
  },
  {
    check: 'unlikeUnknownToken',
    title: 'another status than the unknown token’s',
    judge: AUTH.unlikeUnknownToken(unknownIs403),
    exchange: ref('noToken'),
    fails: false,
  },
];
