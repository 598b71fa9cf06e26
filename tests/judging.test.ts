/**
 * The routing of a failure, pure (suites/judging.ts judgeSteps, judgeTogether): which step decides, whose finding it is,
 * and which checks the test is said to have applied. Judged on the recorded exchanges of tests/checks/, with a real
 * context; no server and no kit run. What settle then does with each Judgement is the suites' (tests/flaky.test.ts, the
 * matrices).
 */
import { test, expect } from '@playwright/test';
import { fail, named, LISTED, pagesPartition, type Check } from '../suites/checks';
import { idsWithRoomToSpare, judgeSteps, judgeTogether } from '../suites/judging';
import { context } from './checks/context';
import { ref, withRequestBody, withResponse } from './checks/exchanges';

const ctx = context();
const list = ref('all');

test('an answer every step holds passes, and the test is said to have applied its own checks alone', () => {
  expect(judgeSteps(list, LISTED, 'LIST-01', ctx)).toEqual({ kind: 'pass', checked: ['status200'] });
});

test("the test's own check failing is the test's failure, with the check to judge a resent answer by", () => {
  const judgement = judgeSteps(withResponse(list, { status: 500 }), LISTED, 'LIST-01', ctx);
  expect(judgement).toMatchObject({ kind: 'fail', checked: ['status200'], failure: { check: 'status200' } });
  expect(judgement.kind === 'fail' && judgement.check?.name).toBe('status200');
});

test("a precondition another requirement owns failing is that requirement's finding, and comes before the test's own checks", () => {
  const judgement = judgeSteps(withResponse(list, { status: 401 }), LISTED, 'LIST-01', ctx);
  expect(judgement).toMatchObject({ kind: 'blocked', owner: 'AUTH-05', checked: [], failure: { check: 'tokenAccepted' } });
});

test('the first step that fails decides; a check that shows another profile makes a mismatch, whoever owns it', () => {
  const seen: string[] = [];
  const mismatch: Check = named('fieldNamedOtherwise', () => ({
    ...fail('fieldNamedOtherwise', 'Limit read', 'PageSize', 'name it'),
    profileMismatch: 'set list.pageSize.field',
  }));
  const later: Check = named('later', () => (seen.push('later'), fail('later', 'x', 'y', 'z')));
  const judgement = judgeSteps(list, [...LISTED, mismatch, later], 'PAGE-07', ctx);
  expect(judgement).toMatchObject({ kind: 'mismatch', checked: ['status200', 'fieldNamedOtherwise'], failure: { profileMismatch: 'set list.pageSize.field' } });
  expect(seen, 'no step after the one that decided is applied').toEqual([]);
});

test('without a requirement of its own, a plain check failing is still a failure, not a finding of nobody', () => {
  expect(judgeSteps(withResponse(list, { status: 500 }), LISTED, undefined, ctx)).toMatchObject({ kind: 'fail', failure: { check: 'status200' } });
});

test('several answers judged together pass or fail by one check, which is the one the test applied', () => {
  const page1 = ref('page1');
  const page2 = ref('page2');
  const ids = [
    ...new Set([page1, page2].flatMap((ex) => ((ex.response?.json as { Result: { Items: { Id: string }[] } }).Result.Items ?? []).map((i) => i.Id))),
  ];
  expect(ids.length, 'the recorded pages hold groups').toBeGreaterThan(1);
  expect(judgeTogether([page1, page2], pagesPartition(ids), ctx)).toEqual({ kind: 'pass', checked: ['pagesPartition'] });
  const judgement = judgeTogether([page1, page1], pagesPartition(ids), ctx);
  expect(judgement).toMatchObject({ kind: 'fail', checked: ['pagesPartition'], failure: { check: 'pagesPartition' } });
  expect(judgement.kind === 'fail' && judgement.check, 'no resend for answers judged together').toBeUndefined();
});

test("a group missing from a query by Ids is the Id filter's only on a first page with room to spare for every Id asked", () => {
  const asked = ['agp-1', 'agp-2', 'agp-3'];
  const body = (paging: Record<string, number>) => withRequestBody(list, { Filter: { GroupIds: asked }, ...paging });
  expect(idsWithRoomToSpare(ctx.profile, body({}))).toEqual(asked);
  expect(idsWithRoomToSpare(ctx.profile, body({ PageNumber: 1, PageSize: 4 }))).toEqual(asked);
  // Exactly as large as the Ids asked: a full page one item short (PAGE-05's) would read as a dropped Id.
  expect(idsWithRoomToSpare(ctx.profile, body({ PageNumber: 1, PageSize: 3 }))).toBeUndefined();
  expect(idsWithRoomToSpare(ctx.profile, body({ PageNumber: 2, PageSize: 10 }))).toBeUndefined();
  expect(idsWithRoomToSpare(ctx.profile, withRequestBody(list, {}))).toBeUndefined();
});
