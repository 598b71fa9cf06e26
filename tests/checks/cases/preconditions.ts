/**
 * The preconditions (suites/checks/preconditions.ts): what a test applies that other requirements own,
 * judged as a test applies them, in order, the first failure being the finding and its owner the
 * requirement it is reported under (cases of tests/checks/preconditions.test.ts).
 */
import * as PRE from '../../../suites/checks/preconditions';
import * as CREATE from '../../../suites/checks/create';
import type { Case } from '../case';
import { afterWarning, createdId, gatewayTimeout, recorded, ref, unanswered, withJson } from '../exchanges';

const refIds = ['create', 'create2', 'create3'].map((key) => createdId(ref(key)));
const space = (ref('byIds').response?.json as { Result: { Items: { AssetSpaceId: string }[] } }).Result.Items[0].AssetSpaceId;
const answeredOk = recorded('errorsAnsweredOk', 'unknownToken');
const unauthenticated = recorded('emptyListBodyUnauthenticated', 'all');
const noRegion = withJson(ref('all'), (json) => delete json.ResponseMetadata.Region);
const firstOfIgnored = createdId(recorded('groupIdsFilterIgnored', 'create'));

export const CASES: Case[] = [
  { check: 'envelopeOf', title: "a success's envelope", judge: PRE.envelopeOf(ref('all')), exchange: ref('all'), fails: false },
  {
    check: 'envelopeOf',
    title: "a success's gap is ENV-01's",
    judge: PRE.envelopeOf(noRegion),
    exchange: noRegion,
    fails: true,
    owner: 'ENV-01',
    expect: 'Region',
  },
  {
    check: 'envelopeOf',
    title: "an error's gap is ENV-02's",
    judge: PRE.envelopeOf(recorded('authEnvelopeWithoutRegion', 'noToken')),
    exchange: recorded('authEnvelopeWithoutRegion', 'noToken'),
    context: { successes: [ref('all')] },
    fails: true,
    owner: 'ENV-02',
  },

  { check: 'NOT_AS_SUCCESS', title: 'a 401 refusal', judge: PRE.NOT_AS_SUCCESS, exchange: ref('unknownToken'), fails: false },
  { check: 'NOT_AS_SUCCESS', title: "an error answered 200 is ERR-02's", judge: PRE.NOT_AS_SUCCESS, exchange: answeredOk, fails: true, owner: 'ERR-02' },

  { check: 'errorWith', title: "the reference's 401", judge: PRE.errorWith(401), exchange: ref('unknownToken'), fails: false },
  {
    check: 'errorWith',
    title: 'a success where 401 was due is the asker’s',
    judge: PRE.errorWith(401),
    exchange: ref('all'),
    fails: true,
    owner: undefined,
    expect: 'HTTP 401',
  },
  { check: 'errorWith', title: "an error answered 200 is ERR-02's", judge: PRE.errorWith(401), exchange: answeredOk, fails: true, owner: 'ERR-02' },
  {
    check: 'errorWith',
    title: "the table's other kind is ERR-02's",
    judge: PRE.errorWith(400),
    exchange: recorded('listBadRequestAsAssetError', 'pageSize0'),
    fails: true,
    owner: 'ERR-02',
  },

  { check: 'LISTED', title: 'a list page', judge: PRE.LISTED, exchange: ref('all'), fails: false },
  { check: 'LISTED', title: "a valid token refused is AUTH-05's", judge: PRE.LISTED, exchange: unauthenticated, fails: true, owner: 'AUTH-05' },
  { check: 'LISTED', title: 'a refused query is the asker’s', judge: PRE.LISTED, exchange: ref('pageSize0'), fails: true, owner: undefined },
  {
    check: 'LISTED',
    title: "no Result is ENV-06's",
    judge: PRE.LISTED,
    exchange: recorded('resultOmittedWhenUnfiltered', 'all'),
    fails: true,
    owner: 'ENV-06',
  },
  { check: 'LISTED', title: "Items null is SCHEMA-02's", judge: PRE.LISTED, exchange: recorded('goNilItems', 'noSuchSpace'), fails: true, owner: 'SCHEMA-02' },

  {
    check: 'LISTED',
    title: "the envelope after a warning is ENV-05's, not ENV-06's",
    judge: PRE.LISTED,
    exchange: afterWarning(ref('all')),
    fails: true,
    owner: 'ENV-05',
  },

  { check: 'RESULT_READ', title: 'a list page', judge: PRE.RESULT_READ, exchange: ref('all'), fails: false },
  {
    check: 'RESULT_READ',
    title: "a body that is not JSON is ENV-05's",
    judge: PRE.RESULT_READ,
    exchange: afterWarning(ref('create')),
    fails: true,
    owner: 'ENV-05',
  },
  {
    check: 'RESULT_READ',
    title: "no Result is ENV-06's",
    judge: PRE.RESULT_READ,
    exchange: recorded('resultOmittedWhenUnfiltered', 'all'),
    fails: true,
    owner: 'ENV-06',
  },

  { check: 'createAnswered', title: 'a create with Result', judge: PRE.createAnswered(ref('create')), exchange: ref('create'), fails: false },
  {
    check: 'createAnswered',
    title: "a gateway's HTML 504 is ENV-05's, not the create's",
    judge: [...PRE.createAnswered(gatewayTimeout(ref('create'))), CREATE.createdWithId],
    exchange: gatewayTimeout(ref('create')),
    fails: true,
    owner: 'ENV-05',
    expect: 'HTTP 504 with a body that is not JSON',
  },
  {
    check: 'createAnswered',
    title: "a 200 with a warning before the envelope is ENV-05's, not ENV-06's",
    judge: [...PRE.createAnswered(afterWarning(ref('create'))), CREATE.createdWithId],
    exchange: afterWarning(ref('create')),
    fails: true,
    owner: 'ENV-05',
  },
  {
    check: 'createAnswered',
    title: "no answer at all stays the create's own",
    judge: [...PRE.createAnswered(unanswered(ref('create'))), CREATE.createdWithId],
    exchange: unanswered(ref('create')),
    fails: true,
    owner: undefined,
  },
  {
    check: 'createAnswered',
    title: "an Id beside the envelope is ENV-06's",
    judge: PRE.createAnswered(recorded('createIdOutsideResult', 'create')),
    exchange: recorded('createIdOutsideResult', 'create'),
    fails: true,
    owner: 'ENV-06',
  },
  {
    check: 'createAnswered',
    title: 'a 201 is not read here',
    judge: PRE.createAnswered(recorded('createdWith201', 'create')),
    exchange: recorded('createdWith201', 'create'),
    fails: false,
  },

  { check: 'listedBy', title: 'a filtered list', judge: PRE.listedBy('LIST-02'), exchange: ref('noSuchSpace'), fails: false },
  { check: 'listedBy', title: "a refused filter is its owner's", judge: PRE.listedBy('LIST-02'), exchange: ref('pageSize0'), fails: true, owner: 'LIST-02' },
  {
    check: 'listedBy',
    title: "Items null is SCHEMA-02's",
    judge: PRE.listedBy('LIST-02'),
    exchange: recorded('goNilItems', 'noSuchSpace'),
    fails: true,
    owner: 'SCHEMA-02',
  },

  { check: 'succeeded', title: 'a 200', judge: PRE.succeeded('LIST-01'), exchange: ref('all'), fails: false },
  {
    check: 'succeeded',
    title: "an empty body refused 400 is the owner's",
    judge: PRE.succeeded('LIST-01'),
    exchange: recorded('emptyListBodyRefused', 'all'),
    fails: true,
    owner: 'LIST-01',
  },
  {
    check: 'succeeded',
    title: "a valid token refused is AUTH-05's",
    judge: PRE.succeeded('LIST-01'),
    exchange: unauthenticated,
    fails: true,
    owner: 'AUTH-05',
  },

  {
    check: 'filtersHold',
    title: 'every filter held',
    judge: PRE.filtersHold({ assetSpaceId: space, groupType: 'AIGC', groupIds: refIds, name: 'UNIT' }),
    exchange: ref('byIds'),
    fails: false,
  },
  {
    check: 'filtersHold',
    title: "the asset space filter ignored is LIST-02's",
    judge: PRE.filtersHold({ assetSpaceId: 'no-such-space' }),
    exchange: recorded('assetSpaceFilterIgnored', 'noSuchSpace'),
    fails: true,
    owner: 'LIST-02',
  },
  {
    check: 'filtersHold',
    title: "the type filter ignored is LIST-03's",
    judge: PRE.filtersHold({ groupType: 'OTHER' }),
    exchange: recorded('groupTypeFilterIgnored', 'byType'),
    fails: true,
    owner: 'LIST-03',
  },
  {
    check: 'filtersHold',
    title: "the Id filter ignored is LIST-04's",
    judge: PRE.filtersHold({ groupIds: [firstOfIgnored] }),
    exchange: recorded('groupIdsFilterIgnored', 'byIds'),
    fails: true,
    owner: 'LIST-04',
  },
  {
    check: 'filtersHold',
    title: "% as a wildcard is LIST-05's",
    judge: PRE.filtersHold({ name: '%' }),
    exchange: recorded('nameFilterLikeWildcards', 'wildcard'),
    fails: true,
    owner: 'LIST-05',
  },
  {
    check: 'filtersHold',
    title: "Items null is SCHEMA-02's",
    judge: PRE.filtersHold({}),
    exchange: recorded('goNilItems', 'noSuchSpace'),
    fails: true,
    owner: 'SCHEMA-02',
  },
];
