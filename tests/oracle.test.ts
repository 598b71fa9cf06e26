/**
 * The run-wide oracle's rules (suites/oracle.ts), each on recorded exchanges: the reference server's answers pass every
 * rule, and one answer changed the way a deviation changes it fails that rule alone, for the requirement that owns it.
 */
import { expect, test } from '@playwright/test';
import type { Exchange } from '../client/exchange';
import { TOKEN_VARIABLES, type TokenRole } from '../config';
import { createdGroupOf, Findings, judgeAnswer, type CreatedGroup, type OracleContext } from '../suites/oracle';
import { context } from './checks/context';
import { oneFindingPerCheck, type Outcome } from '../reporters/verdict';
import { createdId, ref, withJson, withRequestBody, withResponse } from './checks/exchanges';

/** A recorded exchange as the kit's client records a request of one of its tokens (`Bearer <AG_TOKEN>`). */
function as(role: TokenRole, exchange: Exchange): Exchange {
  const copy = structuredClone(exchange);
  copy.request.headers.authorization = `Bearer <${TOKEN_VARIABLES[role]}>`;
  return copy;
}

const CREATES = ['create', 'create2', 'create3', 'createPadded'].map((key) => as('primary', ref(key)));

function oracle(created: CreatedGroup[] = CREATES.map((ex) => createdGroupOf(ex, 'primary')!), mismatch?: OracleContext['mismatch']): OracleContext {
  return { ...context(), created: new Map(created.map((group) => [group.id, group])), mismatch };
}

const found = (exchange: Exchange, ctx = oracle()) => judgeAnswer(exchange, ctx).map((f) => `${f.requirement} ${f.failure.check}`);

const primary = (key: string) => as('primary', ref(key));
const firstId = createdId(ref('create'));

test('every answer of the reference server passes every rule', () => {
  const keys = ['create', 'create2', 'create3', 'createPadded', 'createBad', 'all', 'byIds', 'page1', 'page2', 'pastEnd', 'pageSize0'];
  const more = ['pageSizeAboveMax', 'noSuchSpace', 'byType', 'wildcard', 'name.whole', 'name.leading', 'name.inner', 'malformed'];
  for (const key of [...keys, ...more]) expect(found(primary(key)), key).toEqual([]);
  expect(found(as('otherUser', ref('otherUserAll')))).toEqual([]);
  // A user's own group, created through another of its tokens: the channel tokens' user is the primary's.
  const viaChannel = oracle(CREATES.map((ex) => createdGroupOf(ex, 'channelA')!));
  for (const role of ['primary', 'channelA'] as const) expect(found(as(role, ref('byIds')), viaChannel), role).toEqual([]);
  expect(found(as('otherUser', ref('byIds')), oracle(CREATES.map((ex) => createdGroupOf(ex, 'otherUser')!)))).toEqual([]);
  expect(found(ref('noToken'))).toEqual([]);
});

const CASES: { rule: string; exchange: () => Exchange; ctx?: () => OracleContext; seen?: string }[] = [
  {
    rule: 'ENV-05 answeredWithJson',
    exchange: () => {
      const ex = withResponse(primary('malformed'), { body: '<!doctype html><title>400 Bad Request</title>' });
      delete ex.response!.json;
      ex.response!.jsonError = "Unexpected token '<'";
      return ex;
    },
  },
  { rule: 'ENV-01 envelopePresent', exchange: () => withJson(primary('byType'), (json) => delete json.ResponseMetadata) },
  { rule: 'VER-01 echoesVersion', exchange: () => withJson(primary('name.whole'), (json) => (json.ResponseMetadata.Version = '')) },
  { rule: 'VER-02 echoesAction', exchange: () => withJson(primary('page2'), (json) => (json.ResponseMetadata.Action = 'ListAssetGroupsResponse')) },
  { rule: 'ERR-03 documentedStatus', exchange: () => withResponse(primary('malformed'), { status: 422 }) },
  { rule: 'ERR-02 errorKindFitsStatus', exchange: () => withJson(primary('malformed'), (json) => (json.ResponseMetadata.Error.Code = 'AssetError')) },
  {
    rule: 'ERR-02 errorNotAsSuccess',
    exchange: () => withJson(primary('all'), (json) => (json.ResponseMetadata.Error = { Code: 'AssetBadRequest', Message: 'no' })),
  },
  // A group the run did not create: one it did would come back changed as well (CREATE-02's).
  { rule: 'LIST-03 everyItem', exchange: () => withJson(primary('byType'), (json) => (json.Result.Items[0].GroupType = 'VIDEO')), ctx: () => oracle([]) },
  { rule: 'LIST-02 everyItem', exchange: () => withRequestBody(primary('all'), { Filter: { AssetSpaceId: 'space-of-someone-else' } }) },
  { rule: 'LIST-05 everyItem', exchange: () => withRequestBody(primary('all'), { Filter: { Name: 'unit alpha' } }) },
  {
    rule: 'LIST-04 everyItem',
    exchange: () => withRequestBody(primary('all'), { Filter: { GroupIds: [firstId] } }),
  },
  { rule: 'PAGE-01 itemsWithinResultPageSize', exchange: () => withJson(primary('all'), (json) => (json.Result.PageSize = 1)) },
  { rule: 'PAGE-04 totalCoversPage', exchange: () => withJson(primary('all'), (json) => (json.Result.TotalCount = 1)) },
  { rule: 'PAGE-04 countOfWholePage', exchange: () => withJson(primary('byIds'), (json) => (json.Result.TotalCount = 7)) },
  { rule: 'SCHEMA-03 timestampsUtc', exchange: () => withJson(primary('all'), (json) => (json.Result.Items[0].CreateTime = '2026-11-28T13:49:50.389+01:00')) },
  { rule: 'CREATE-02 itemMatchesSent', exchange: () => withJson(primary('byIds'), (json) => (json.Result.Items[0].Title = 'Alpha&amp;')) },
  { rule: 'SCOPE-01 listsNoneOf', exchange: () => as('otherUser', ref('all')) },
  { rule: 'SCOPE-02 listsNoneOf', exchange: () => as('otherUser', ref('byIds')) },
  { rule: 'SCOPE-03 listsNoneOf', exchange: () => as('otherUser', ref('name.whole')) },
  { rule: 'SCOPE-04 listsNoneOf', exchange: () => as('otherUser', ref('byType')) },
  // The other way round: the primary user (or one of its channel tokens) shown the group the run created as the second user.
  {
    rule: 'SCOPE-02 listsNoneOf',
    seen: "by the primary, the second user's group",
    exchange: () => primary('byIds'),
    ctx: () => oracle(CREATES.map((ex) => createdGroupOf(ex, 'otherUser')!)),
  },
  {
    rule: 'SCOPE-01 listsNoneOf',
    seen: "by a channel token of the primary user, the second user's group",
    exchange: () => as('channelA', ref('all')),
    ctx: () => oracle(CREATES.map((ex) => createdGroupOf(ex, 'otherUser')!)),
  },
  { rule: 'CHAN-04 listsNoneOf', exchange: () => as('channelB', ref('byType')), ctx: () => oracle(CREATES.map((ex) => createdGroupOf(ex, 'channelA')!)) },
  {
    rule: 'CHAN-02 listsNoneOf',
    exchange: () => as('channelA', ref('all')),
    ctx: () => oracle(CREATES.map((ex) => createdGroupOf(ex, 'channelB')!)),
  },
];

for (const { rule, exchange, ctx, seen } of CASES) {
  test(`${rule}${seen ? ` (${seen})` : ''}: an answer that breaks it is that requirement's finding, and no other's`, () => {
    expect(found(exchange(), ctx?.() ?? oracle())).toEqual([rule]);
  });
}

test('answers the spec says nothing of are not judged: an unknown Action, another Version, a 429 or 503', () => {
  expect(judgeAnswer(primary('unknownAction'), oracle())).toEqual([]);
  expect(judgeAnswer(primary('otherVersion'), oracle())).toEqual([]);
  for (const status of [429, 503]) expect(judgeAnswer(withResponse(primary('all'), { status, body: '<html>busy</html>' }), oracle())).toEqual([]);
});

test('a filter or paging the target showed it reads otherwise is not judged (the phase named the setting)', () => {
  const ignored = withRequestBody(primary('all'), { Filter: { AssetSpaceId: 'space-of-someone-else' } });
  expect(found(ignored, oracle(undefined, { profileMismatch: { filters: { assetSpaceId: 'set list.filters.assetSpaceId' } } }))).toEqual([]);
  const paging = withJson(primary('all'), (json) => (json.Result.PageSize = 1));
  expect(found(paging, oracle(undefined, { profileMismatch: { paging: 'set list.pageSize.field' } }))).toEqual([]);
  const counted = withJson(primary('byIds'), (json) => (json.Result.TotalCount = 7));
  expect(found(counted, oracle(undefined, { profileMismatch: { idFilter: 'set list.filters.groupIds' } }))).toEqual([]);
});

test('only creates answered 200 with an Id, of string values that are well-formed Unicode, enter the model', () => {
  expect(createdGroupOf(primary('create'), 'primary')).toMatchObject({ id: firstId, via: 'primary', sent: { Name: 'unit alpha', Title: 'Alpha' } });
  expect(createdGroupOf(primary('createBad'), 'primary')).toBeUndefined();
  expect(createdGroupOf(withRequestBody(primary('create'), { Name: 'x\ud800', GroupType: 'AIGC' }), 'primary')).toBeUndefined();
  expect(createdGroupOf(withRequestBody(primary('create'), { Name: 7, GroupType: 'AIGC' }), 'primary')).toBeUndefined();
  expect(createdGroupOf(primary('create'), null)).toBeUndefined();
});

test('one deviation met on many answers is one finding with their count', () => {
  const findings = new Findings();
  const ctx = oracle();
  for (const key of ['name.whole', 'name.leading', 'name.inner']) {
    const ex = withJson(primary(key), (json) => (json.ResponseMetadata.Version = ''));
    findings.add(ex, judgeAnswer(ex, ctx));
  }
  const distinct = findings.distinct();
  expect(distinct.map(({ finding, count }) => [finding.requirement, finding.failure.check, count])).toEqual([['VER-01', 'echoesVersion', 3]]);
});

test('in the verdict, the findings of one check met by several tests are one outcome: the answers summed, a few of the evidence kept', () => {
  const finding = (noticedIn: string, received: string, answers: number): Outcome => ({
    requirement: 'VER-01',
    title: noticedIn,
    file: 'suites/x.spec.ts',
    status: 'failed',
    durationMs: 0,
    checks: ['echoesVersion'],
    failures: [{ check: 'echoesVersion', received, documented: 'd', fix: 'f', answers }],
    noticedIn,
  });
  const own: Outcome = { ...finding('VER-01 own', 'x', 1), noticedIn: undefined };
  const merged = oneFindingPerCheck([own, finding('LIST-05 a', 'Version ""', 3), finding('LIST-07 b', 'Version ""', 2), finding('LIST-05 a', 'Version ""', 1)]);
  expect(merged.length).toBe(2);
  expect(merged[1].failures.map((f) => [f.received, f.answers])).toEqual([
    ['Version ""', 6],
    ['Version ""', 2],
  ]);
});
