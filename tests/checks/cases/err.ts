/** ERR's checks, judged on recorded exchanges (cases of tests/checks/err.test.ts). */
import * as ERR from '../../../suites/checks/err';
import type { Case } from '../case';
import { recorded, ref, withJson } from '../exchanges';

const kindOmitted = recorded('errorKindOmittedOn400', 'malformed');
/** The reference's 401 with its error part beside the envelope, where another profile keeps it. */
const kindElsewhere = withJson(ref('noToken'), (json) => {
  json.Error = json.ResponseMetadata.Error;
  delete json.ResponseMetadata.Error;
});
const asAssetError = recorded('listBadRequestAsAssetError', 'pageSize0');
const headerOnlyError = recorded('requestIdHeaderOnly', 'noToken');

export const CASES: Case[] = [
  { check: 'statusIs', title: 'the status asked', judge: ERR.statusIs(400), exchange: ref('malformed'), fails: false },
  { check: 'statusIs', title: 'a 200 where 400 was due', judge: ERR.statusIs(400), exchange: ref('all'), fails: true, expect: 'HTTP 200' },

  { check: 'errorKindReadable', title: "a kind at the profile's pointer", judge: ERR.errorKindReadable, exchange: ref('malformed'), fails: false },
  { check: 'errorKindReadable', title: 'a success has no kind to read', judge: ERR.errorKindReadable, exchange: ref('all'), fails: false },
  {
    check: 'errorKindReadable',
    title: 'a 400 with no Code',
    judge: ERR.errorKindReadable,
    exchange: kindOmitted,
    fails: true,
    expect: 'no error kind',
    mismatch: false,
  },
  {
    check: 'errorKindReadable',
    title: 'a kind of the table elsewhere (a profile mismatch)',
    judge: ERR.errorKindReadable,
    exchange: kindElsewhere,
    fails: true,
    expect: 'set error.codePointer: /Error/Code',
    mismatch: true,
  },

  { check: 'errorBodyShape', title: "the reference's error body", judge: ERR.errorBodyShape, exchange: ref('malformed'), fails: false },
  { check: 'errorBodyShape', title: 'a success is not an error body', judge: ERR.errorBodyShape, exchange: ref('all'), fails: false },
  {
    check: 'errorBodyShape',
    title: "a kind outside the table is ERR-02's, not the shape's",
    judge: ERR.errorBodyShape,
    exchange: withJson(ref('malformed'), (json) => (json.ResponseMetadata.Error.Code = 'Unauthorized')),
    fails: false,
  },
  {
    check: 'errorBodyShape',
    title: 'a 400 with no Code',
    judge: ERR.errorBodyShape,
    exchange: kindOmitted,
    fails: true,
    expect: 'ErrorResponse',
    mismatch: false,
  },
  { check: 'errorBodyShape', title: 'a kind elsewhere (a profile mismatch)', judge: ERR.errorBodyShape, exchange: kindElsewhere, fails: true, mismatch: true },

  { check: 'errorNotAsSuccess', title: 'a 401 refusal', judge: ERR.errorNotAsSuccess, exchange: ref('unknownToken'), fails: false },
  { check: 'errorNotAsSuccess', title: 'a success', judge: ERR.errorNotAsSuccess, exchange: ref('all'), fails: false },
  {
    check: 'errorNotAsSuccess',
    title: 'an error answered 200',
    judge: ERR.errorNotAsSuccess,
    exchange: recorded('errorsAnsweredOk', 'unknownToken'),
    fails: true,
    expect: 'HTTP 200 with the error kind "TokenAuthError"',
  },

  { check: 'errorKindFitsStatus', title: "a list's 400 AssetBadRequest", judge: ERR.errorKindFitsStatus, exchange: ref('pageSize0'), fails: false },
  { check: 'errorKindFitsStatus', title: "a create's 400 AssetError", judge: ERR.errorKindFitsStatus, exchange: ref('createBad'), fails: false },
  {
    check: 'errorKindFitsStatus',
    title: "a list's 400 AssetError",
    judge: ERR.errorKindFitsStatus,
    exchange: asAssetError,
    fails: true,
    expect: 'AssetBadRequest',
  },

  { check: 'documentedStatus', title: 'a 400', judge: ERR.documentedStatus, exchange: ref('createBad'), fails: false },
  { check: 'documentedStatus', title: 'a 422', judge: ERR.documentedStatus, exchange: recorded('badBody422', 'arrayBody'), fails: true, expect: 'HTTP 422' },

  { check: 'ERROR_ENVELOPE', title: "a 401's envelope", judge: ERR.ERROR_ENVELOPE, exchange: ref('noToken'), fails: false },
  {
    check: 'ERROR_ENVELOPE',
    title: "a gap the run's success has too is ENV-01's",
    judge: ERR.ERROR_ENVELOPE,
    exchange: headerOnlyError,
    context: { successes: [recorded('requestIdHeaderOnly', 'all')] },
    fails: true,
    owner: 'ENV-01',
  },
  {
    check: 'ERROR_ENVELOPE',
    title: "a gap of errors alone is ENV-02's",
    judge: ERR.ERROR_ENVELOPE,
    exchange: recorded('authEnvelopeWithoutRegion', 'noToken'),
    context: { successes: [ref('all')] },
    fails: true,
    owner: 'ENV-02',
  },

  { check: 'ERROR_BODY', title: "the reference's 400", judge: ERR.ERROR_BODY, exchange: ref('malformed'), fails: false },
  {
    check: 'ERROR_BODY',
    title: "a body that is not JSON is ENV-05's",
    judge: ERR.ERROR_BODY,
    exchange: recorded('malformedJsonPlainText', 'malformed'),
    fails: true,
    owner: 'ENV-05',
  },
  { check: 'ERROR_BODY', title: "no kind is ERR-01's", judge: ERR.ERROR_BODY, exchange: kindOmitted, fails: true, owner: 'ERR-01' },
  { check: 'ERROR_BODY', title: "the table's other kind is ERR-02's", judge: ERR.ERROR_BODY, exchange: asAssetError, fails: true, owner: 'ERR-02' },
];
