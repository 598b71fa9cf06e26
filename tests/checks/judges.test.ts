/**
 * The declared tests' pure judges (suites/declare.ts `judge`), on whole runs recorded by tests/checks/record-runs.ts:
 * no server, no Playwright run of the suites. Against the reference server every judge passes; against each mutant of
 * FAILS the named test's judge fails with the named check of its own, and every other recorded judge of that family
 * passes or fails only with a check the mutant's entry in reference/mutants.expected.yaml names.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import YAML from 'yaml';
import { loadConfig } from '../../config';
import { referenceTokenEnv } from '../../reference/config';
import { loadProfile } from '../../schemas/profile';
import { judgementsOf, titleOf, type DeclaredTest } from '../../suites/declare';
import type { Dataset } from '../../suites/dataset';
import { TEST_GROUPS } from '../../suites/families';
import type { Exchange } from '../../client/exchange';
import type { Judgement } from '../../facts/judgement';
import { RECORDED_RUN, RUN_SESSIONS } from './record-runs';
import { context } from './context';

/**
 * Per mutant session: a requirement one of whose pure judges must fail, and with which check of its own. Each mutant's
 * deviation shows on answers a pure judge reads (its plans' or the create-and-wait phase's).
 */
const FAILS: Record<string, { id: string; check: string }> = {
  requestIdHeaderOnly: { id: 'ENV-01', check: 'envelopePresent' },
  authEnvelopeWithoutRegion: { id: 'ENV-02', check: 'envelopePresent' },
  constantRequestId: { id: 'ENV-04', check: 'distinctRequestIds' },
  textPlainContentType: { id: 'ENV-05', check: 'jsonContentType' },
  resultOmittedWhenUnfiltered: { id: 'ENV-06', check: 'resultPresent' },
  gatewayServiceOnAuthErrors: { id: 'ENV-07', check: 'sameService' },
  missingAuthorizationIs400: { id: 'AUTH-01', check: 'statusIs(401)' },
  emptyBearerAccepted: { id: 'AUTH-02', check: 'statusIs(401)' },
  unknownTokenAccepted: { id: 'AUTH-04', check: 'statusIs(401)' },
  tokenCaseInsensitive: { id: 'AUTH-06', check: 'statusIs(401)' },
  errorBodyWithResult: { id: 'ERR-01', check: 'errorBodyShape' },
  badBody422: { id: 'ERR-03', check: 'documentedStatus' },
  createdWith201: { id: 'CREATE-01', check: 'createdWithId' },
  channelSequenceIds: { id: 'CREATE-03', check: 'distinctCreatedIds' },
  emptyListBodyRefused: { id: 'LIST-01', check: 'status200' },
  nameFilterLikeWildcards: { id: 'LIST-05', check: 'literalNameMatch' },
  nameFilterLowercasesStoredOnly: { id: 'LIST-07', check: 'nameMatch' },
  pageOneTooMany: { id: 'PAGE-01', check: 'itemsAtMost' },
  pageSizeClampedTo50: { id: 'PAGE-02', check: 'pagingEchoes' },
  defaultPageSize20: { id: 'PAGE-03', check: 'pagingEchoes' },
  totalCountOfPage: { id: 'PAGE-04', check: 'totalCountIs' },
  negativeOffsetClamped: { id: 'PAGE-07', check: 'pagingBounds' },
  createReturnsWholeGroup: { id: 'SCHEMA-01', check: 'resultOnlyId' },
  badEscapeCrashes: { id: 'INPUT-01', check: 'clientError' },
  nonObjectBodyAccepted: { id: 'INPUT-02', check: 'clientError' },
  unknownActionCrashes: { id: 'INPUT-05', check: 'clientError' },
  anySchemeAccepted: { id: 'AUTH-03', check: 'statusIs(401)' },
  emptyListBodyUnauthenticated: { id: 'AUTH-05', check: 'tokenAccepted' },
  anyVersionAccepted: { id: 'INPUT-06', check: 'clientError' },
  // The test of AUTH-01 with the kit's User-Agent and with none.
  authWaivedWithoutUserAgent: { id: 'AUTH-01', check: 'statusIs(401)' },
  rateLimitWithoutRetryAfter: { id: 'INPUT-08', check: 'retryAfterHeader' },
};

/** What each mutant fails in a whole run (reference/mutants.expected.yaml): a pure judge may fail with these checks alone. */
const EXPECTED = (
  YAML.parse(readFileSync(path.join(__dirname, '..', '..', 'reference', 'mutants.expected.yaml'), 'utf8')) as {
    mutants: Record<string, { checks: string[]; sometimes?: string[] }>;
  }
).mutants;

const recorded = (session: string) =>
  JSON.parse(gunzipSync(readFileSync(path.join(__dirname, 'runs', `${session}.json.gz`))).toString('utf8')) as {
    dataset: Dataset;
    answers: Record<string, Exchange[][]>;
  };
const config = loadConfig({ ...referenceTokenEnv(), ...RECORDED_RUN, AG_BASE_URL: 'http://127.0.0.1:9' });
const profile = loadProfile();
const declaredTests = TEST_GROUPS.flatMap((g) => g.tests) as DeclaredTest<undefined>[];

/** Every pure judge's judgements on a recorded run, by the test's title; the test's requirement beside. */
function judged(session: string): Map<string, { id: string; judgements: Judgement[] }> {
  const { dataset, answers } = recorded(session);
  const out = new Map<string, { id: string; judgements: Judgement[] }>();
  for (const t of declaredTests) {
    const title = titleOf(t);
    if (!t.judge || t.run || !answers[title]) continue;
    out.set(title, { id: t.id, judgements: judgementsOf(t.judge(answers[title], { config, profile, dataset }, undefined), t.id, context()) });
  }
  return out;
}

const failedChecks = (judgements: Judgement[]) =>
  judgements.filter((j) => j.kind === 'fail').map((j) => (j.kind === 'fail' ? (j.check?.name ?? j.checked.at(-1) ?? '') : ''));

test('every session the recorder records is judged here', () => {
  expect(RUN_SESSIONS.filter((s) => s !== 'reference').sort()).toEqual(Object.keys(FAILS).sort());
});

test('against the reference server every pure judge passes', () => {
  const all = judged('reference');
  expect(all.size, 'pure judges recorded').toBeGreaterThanOrEqual(30);
  for (const [title, { judgements }] of all)
    expect(
      judgements.filter((j) => j.kind !== 'pass'),
      title,
    ).toEqual([]);
});

for (const [session, { id, check }] of Object.entries(FAILS))
  test(`${session}: a pure judge of ${id} fails with ${check}, and no pure judge fails with a check the mutant's entry does not name`, () => {
    const all = [...judged(session)];
    const own = all.filter(([, j]) => j.id === id).flatMap(([, j]) => failedChecks(j.judgements));
    expect(own, `${id}'s judges`).toContain(check);
    const allowed = [...EXPECTED[session].checks, ...(EXPECTED[session].sometimes ?? [])];
    for (const [title, { judgements }] of all)
      expect(
        failedChecks(judgements).filter((c) => !allowed.includes(c)),
        title,
      ).toEqual([]);
  });
