/** ENV's checks, judged on recorded exchanges (cases of tests/checks/env.test.ts). */
import * as ENV from '../../../suites/checks/env';
import type { Case } from '../case';
import { afterWarning, gatewayTimeout, recorded, ref, unanswered, withBodyText, withJson, withResponse } from '../exchanges';

const plainText = recorded('malformedJsonPlainText', 'malformed');
const headerOnlySuccess = recorded('requestIdHeaderOnly', 'all');
const headerOnlyError = recorded('requestIdHeaderOnly', 'noToken');

export const CASES: Case[] = [
  { check: 'answeredWithJson', title: 'a JSON answer', judge: ENV.answeredWithJson, exchange: ref('all'), fails: false },
  { check: 'answeredWithJson', title: 'plain words under a JSON type', judge: ENV.answeredWithJson, exchange: plainText, fails: true, expect: 'not JSON' },
  {
    check: 'answeredWithJson',
    title: 'no response at all',
    judge: ENV.answeredWithJson,
    exchange: unanswered(ref('all')),
    fails: true,
    expect: 'no HTTP response',
  },
  {
    check: 'answeredWithJson',
    title: 'a PHP warning printed before the envelope',
    judge: ENV.answeredWithJson,
    exchange: afterWarning(ref('all')),
    fails: true,
    expect: 'HTTP 200 with 87 characters before the JSON: "\\nDeprecated: Creation of dynamic property',
  },
  {
    check: 'answeredWithJson',
    title: 'a byte order mark before the envelope',
    judge: ENV.answeredWithJson,
    exchange: withBodyText(ref('malformed'), `\ufeff${ref('malformed').response!.body}`),
    fails: true,
    expect: 'HTTP 400 with 1 character before the JSON',
  },
  {
    check: 'answeredWithJson',
    title: "a gateway's HTML 504",
    judge: ENV.answeredWithJson,
    exchange: gatewayTimeout(ref('create')),
    fails: true,
    expect: 'HTTP 504 with a body that is not JSON',
  },
  { check: 'JSON_ANSWER', title: 'a JSON answer', judge: ENV.JSON_ANSWER, exchange: ref('malformed'), fails: false },
  {
    check: 'JSON_ANSWER',
    title: "the envelope after a warning is ENV-05's",
    judge: ENV.JSON_ANSWER,
    exchange: afterWarning(ref('create')),
    fails: true,
    owner: 'ENV-05',
    expect: 'characters before the JSON',
  },
  { check: 'JSON_ANSWER', title: "a body that is not JSON is ENV-05's", judge: ENV.JSON_ANSWER, exchange: plainText, fails: true, owner: 'ENV-05' },

  { check: 'jsonContentType', title: 'application/json', judge: ENV.jsonContentType, exchange: ref('all'), fails: false },
  {
    check: 'jsonContentType',
    title: 'a +json media type',
    judge: ENV.jsonContentType,
    exchange: withResponse(ref('malformed'), { headers: { 'content-type': 'application/problem+json' } }),
    fails: false,
  },
  {
    check: 'jsonContentType',
    title: 'text/plain',
    judge: ENV.jsonContentType,
    exchange: recorded('textPlainContentType', 'all'),
    fails: true,
    expect: 'text/plain',
  },
  {
    check: 'jsonContentType',
    title: 'no Content-Type',
    judge: ENV.jsonContentType,
    exchange: withResponse(ref('all'), { headers: { 'content-type': undefined } }),
    fails: true,
    expect: '(none)',
  },

  { check: 'envelopePresent', title: "a 401's full envelope", judge: ENV.envelopePresent, exchange: ref('noToken'), fails: false },
  {
    check: 'envelopePresent',
    title: 'a 401 without Region',
    judge: ENV.envelopePresent,
    exchange: recorded('authEnvelopeWithoutRegion', 'noToken'),
    fails: true,
    expect: 'Region missing',
  },
  {
    check: 'envelopePresent',
    title: 'no ResponseMetadata',
    judge: ENV.envelopePresent,
    exchange: withJson(ref('all'), (json) => delete json.ResponseMetadata),
    fails: true,
    expect: 'ResponseMetadata absent',
  },
  { check: 'envelopePresent', title: 'a body that is not JSON', judge: ENV.envelopePresent, exchange: plainText, fails: true, expect: 'not JSON' },

  {
    check: 'envelopeLikeSuccess',
    title: "an error lacking RequestId as the run's success does",
    judge: ENV.envelopeLikeSuccess,
    exchange: headerOnlyError,
    context: { successes: [headerOnlySuccess] },
    fails: true,
    expect: 'RequestId missing',
  },
  {
    check: 'envelopeLikeSuccess',
    title: "an error's gap that the run's success does not have (ENV-02's)",
    judge: ENV.envelopeLikeSuccess,
    exchange: headerOnlyError,
    context: { successes: [ref('all')] },
    fails: false,
  },
  { check: 'envelopeLikeSuccess', title: 'before the phase saw a success', judge: ENV.envelopeLikeSuccess, exchange: headerOnlyError, fails: false },

  { check: 'requestIdNonEmpty', title: 'a RequestId', judge: ENV.requestIdNonEmpty, exchange: ref('all'), fails: false },
  {
    check: 'requestIdNonEmpty',
    title: 'an empty RequestId',
    judge: ENV.requestIdNonEmpty,
    exchange: recorded('emptyRequestId', 'all'),
    fails: true,
    expect: 'RequestId ""',
  },

  { check: 'resultPresent', title: 'a list with Result', judge: ENV.resultPresent, exchange: ref('all'), fails: false },
  {
    check: 'resultPresent',
    title: 'an unfiltered list without Result',
    judge: ENV.resultPresent,
    exchange: recorded('resultOmittedWhenUnfiltered', 'all'),
    fails: true,
    expect: 'Result absent',
  },
  {
    check: 'resultPresent',
    title: 'a create with its Id beside the envelope',
    judge: ENV.resultPresent,
    exchange: recorded('createIdOutsideResult', 'create'),
    fails: true,
  },

  { check: 'status200', title: 'a 200', judge: ENV.status200, exchange: ref('all'), fails: false },
  {
    check: 'status200',
    title: 'a 201 create',
    judge: ENV.status200,
    exchange: recorded('createdWith201', 'create'),
    fails: true,
    expect: 'HTTP 201',
    mismatch: false,
  },
  {
    check: 'status200',
    title: "a list query in the profile's terms refused with 400 (a profile mismatch)",
    judge: ENV.status200,
    exchange: ref('pageSize0'),
    fails: true,
    expect: 'list.filterField',
    mismatch: true,
  },
  { check: 'status200', title: 'no response', judge: ENV.status200, exchange: unanswered(ref('all')), fails: true, expect: 'no response' },

  { check: 'distinctRequestIds', title: 'two answers, two RequestIds', judge: ENV.distinctRequestIds, exchanges: [ref('all'), ref('noToken')], fails: false },
  {
    check: 'distinctRequestIds',
    title: 'one RequestId for every answer',
    judge: ENV.distinctRequestIds,
    exchanges: [recorded('constantRequestId', 'all'), recorded('constantRequestId', 'noToken')],
    fails: true,
    expect: 'repeated across 2 responses',
  },

  { check: 'sameService', title: 'one Service name', judge: ENV.sameService, exchanges: [ref('all'), ref('noToken')], fails: false },
  {
    check: 'sameService',
    title: "the gateway's name on 401s",
    judge: ENV.sameService,
    exchanges: [recorded('gatewayServiceOnAuthErrors', 'all'), recorded('gatewayServiceOnAuthErrors', 'noToken')],
    fails: true,
    expect: '"api-gateway" (HTTP 401)',
  },
];
