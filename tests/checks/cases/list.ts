/** LIST's checks, judged on recorded exchanges (cases of tests/checks/list.test.ts). */
import * as LIST from '../../../suites/checks/list';
import type { Case } from '../case';
import { createdId, recorded, ref } from '../exchanges';
import { NAME_PROBE_KEYS, NAME_PROBES } from '../sent';

/** The Ids of the three groups a session created. */
const threeOf = (session: string) => ['create', 'create2', 'create3'].map((key) => createdId(recorded(session, key)));
const refIds = threeOf('reference');
const firstOnly = threeOf('idFilterFirstOnly');
const probesOf = (session: string) => NAME_PROBE_KEYS.map((key) => recorded(session, key));
const lowercasedStored = 'nameFilterLowercasesStoredOnly';
const aigc = LIST.everyItem('GroupType = AIGC', (item) => item.GroupType === 'AIGC', 'filtering by group type');

export const CASES: Case[] = [
  { check: 'totalAtMost', title: 'three asked, three counted', judge: LIST.totalAtMost(3), exchange: ref('byIds'), fails: false },
  {
    check: 'totalAtMost',
    title: 'the Id filter ignored',
    judge: LIST.totalAtMost(1),
    exchange: recorded('groupIdsFilterIgnored', 'byIds'),
    fails: true,
    expect: 'TotalCount 3 for a query by 1 Ids',
  },

  { check: 'refusedOrEmpty', title: 'an empty list', judge: LIST.refusedOrEmpty, exchange: ref('noSuchSpace'), fails: false },
  { check: 'refusedOrEmpty', title: 'a 4xx refusal', judge: LIST.refusedOrEmpty, exchange: ref('pageSize0'), fails: false },
  {
    check: 'refusedOrEmpty',
    title: 'the asset space filter ignored',
    judge: LIST.refusedOrEmpty,
    exchange: recorded('assetSpaceFilterIgnored', 'noSuchSpace'),
    fails: true,
    expect: 'TotalCount 3',
  },
  { check: 'refusedOrEmpty', title: 'Items null', judge: LIST.refusedOrEmpty, exchange: recorded('goNilItems', 'noSuchSpace'), fails: true },

  { check: 'listsExactly', title: 'the three asked for', judge: LIST.listsExactly(refIds), exchange: ref('byIds'), fails: false },
  {
    check: 'listsExactly',
    title: 'only the first Id honoured',
    judge: LIST.listsExactly(firstOnly),
    exchange: recorded('idFilterFirstOnly', 'byIds'),
    fails: true,
    expect: `missing ${JSON.stringify(firstOnly.slice(1))}`,
  },
  {
    check: 'listsExactly',
    title: 'groups not asked for',
    judge: LIST.listsExactly(threeOf('groupIdsFilterIgnored').slice(0, 1)),
    exchange: recorded('groupIdsFilterIgnored', 'byIds'),
    fails: true,
    expect: 'unexpected',
  },

  { check: 'listsIncluding', title: 'the unfiltered list holds them', judge: LIST.listsIncluding(refIds), exchange: ref('all'), fails: false },
  {
    check: 'listsIncluding',
    title: 'only the first Id honoured',
    judge: LIST.listsIncluding(firstOnly),
    exchange: recorded('idFilterFirstOnly', 'byIds'),
    fails: true,
    expect: 'missing',
  },

  { check: 'everyItem', title: 'every item of the type asked', judge: aigc, exchange: ref('byType'), fails: false },
  {
    check: 'everyItem',
    title: 'the type filter ignored',
    judge: LIST.everyItem('GroupType = OTHER', (item) => item.GroupType === 'OTHER', 'filtering by group type'),
    exchange: recorded('groupTypeFilterIgnored', 'byType'),
    fails: true,
    expect: '3 item(s) where GroupType = OTHER does not hold',
  },

  { check: 'literalNameMatch', title: '% matches no Name', judge: LIST.literalNameMatch('%'), exchange: ref('wildcard'), fails: false },
  { check: 'literalNameMatch', title: 'a refusal', judge: LIST.literalNameMatch('%'), exchange: ref('pageSize0'), fails: false },
  {
    check: 'literalNameMatch',
    title: '% as a LIKE wildcard',
    judge: LIST.literalNameMatch('%'),
    exchange: recorded('nameFilterLikeWildcards', 'wildcard'),
    fails: true,
    expect: 'whose Name does not contain "%"',
  },

  {
    check: 'nameMatch',
    title: 'case-insensitive substring, as profiled',
    judge: LIST.nameMatch(refIds[0], NAME_PROBES),
    exchanges: probesOf('reference'),
    fails: false,
  },
  {
    check: 'nameMatch',
    title: 'case-sensitive answers under a case-insensitive profile (a profile mismatch)',
    judge: LIST.nameMatch(threeOf(lowercasedStored)[0], NAME_PROBES),
    exchanges: probesOf(lowercasedStored),
    fails: true,
    expect: 'set list.nameMatch: substring',
    mismatch: true,
  },
  {
    check: 'nameMatch',
    title: 'the same answers where the profile says substring',
    judge: LIST.nameMatch(threeOf(lowercasedStored)[0], NAME_PROBES),
    exchanges: probesOf(lowercasedStored),
    context: { profile: { list: { nameMatch: 'substring' } } },
    fails: false,
  },
  {
    check: 'nameMatch',
    title: 'a probe refused',
    judge: LIST.nameMatch(refIds[0], NAME_PROBES),
    exchanges: [...probesOf('reference').slice(0, 5), ref('pageSize0')],
    fails: true,
    expect: 'HTTP 400 for the name filter',
    mismatch: false,
  },

  { check: 'idFilterHoldsAll', title: 'every Id asked listed', judge: LIST.idFilterHoldsAll(refIds), exchange: ref('byIds'), fails: false },
  {
    check: 'idFilterHoldsAll',
    title: 'only the first Id honoured',
    judge: LIST.idFilterHoldsAll(firstOnly),
    exchange: recorded('idFilterFirstOnly', 'byIds'),
    fails: true,
    expect: 'a query by 3 Ids, each listed before, listed 1',
  },
];
