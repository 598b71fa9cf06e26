/** INPUT's checks, judged on recorded exchanges (cases of tests/checks/input.test.ts). */
import * as INPUT from '../../../suites/checks/input';
import type { Case } from '../case';
import { recorded, ref, unanswered, withResponse } from '../exchanges';

const crash = recorded('badEscapeCrashes', 'badEscape');
const limited = recorded('rateLimited', 'create2');

export const CASES: Case[] = [
  { check: 'clientError', title: 'malformed JSON refused 400', judge: INPUT.clientError, exchange: ref('malformed'), fails: false },
  { check: 'clientError', title: 'a bad escape crashing', judge: INPUT.clientError, exchange: crash, fails: true, expect: 'HTTP 500' },
  { check: 'clientError', title: 'bad input accepted', judge: INPUT.clientError, exchange: ref('all'), fails: true, expect: 'HTTP 200' },

  { check: 'noServerError', title: 'a refusal', judge: INPUT.noServerError, exchange: ref('malformed'), fails: false },
  { check: 'noServerError', title: 'an acceptance', judge: INPUT.noServerError, exchange: ref('all'), fails: false },
  { check: 'noServerError', title: 'a bad escape crashing', judge: INPUT.noServerError, exchange: crash, fails: true, expect: 'HTTP 500' },
  { check: 'noServerError', title: 'no response', judge: INPUT.noServerError, exchange: unanswered(ref('malformed')), fails: true, expect: 'no response' },

  { check: 'retryAfterHeader', title: 'a 429 with Retry-After in seconds', judge: INPUT.retryAfterHeader, exchange: limited, fails: false },
  {
    check: 'retryAfterHeader',
    title: 'a 429 with Retry-After as an HTTP date',
    judge: INPUT.retryAfterHeader,
    exchange: withResponse(limited, { headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' } }),
    fails: false,
  },
  {
    check: 'retryAfterHeader',
    title: 'a 429 without Retry-After',
    judge: INPUT.retryAfterHeader,
    exchange: recorded('rateLimitWithoutRetryAfter', 'create'),
    fails: true,
    expect: 'Retry-After undefined',
  },
  {
    check: 'retryAfterHeader',
    title: 'a Retry-After that is neither',
    judge: INPUT.retryAfterHeader,
    exchange: withResponse(limited, { headers: { 'retry-after': 'soon' } }),
    fails: true,
    expect: 'Retry-After "soon"',
  },
];
