/**
 * The declared tests' pure judges (suites/declare.ts `judge`), on whole runs recorded by tests/checks/record-runs.ts:
 * no server, no Playwright run of the suites. Against the reference server every judge passes; against each mutant of
 * FAILS the named test's judge fails with the named check of its own, and every other recorded judge of that family
 * passes or fails only with a check the mutant's entry in reference/mutants.expected.yaml names.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
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

/** Per mutant session: the test (by its title) whose judge must fail, and with which check. */
const FAILS: Record<string, { title: string; check: string }> = {
  pageOneTooMany: { title: 'PAGE-01 A page holds at most PageSize items', check: 'itemsAtMost' },
  pageSizeClampedTo50: { title: 'PAGE-02 PageNumber and PageSize echo what was asked', check: 'pagingEchoes' },
  defaultPageSize20: { title: "PAGE-03 Omitted paging values take the profile's defaults", check: 'pagingEchoes' },
  totalCountOfPage: { title: 'PAGE-04 TotalCount is the number of matching groups, not the size of the page', check: 'totalCountIs' },
  negativeOffsetClamped: { title: 'PAGE-07 Invalid paging values get 400 AssetBadRequest', check: 'pagingBounds' },
};

const recorded = (session: string) =>
  JSON.parse(readFileSync(path.join(__dirname, 'runs', `${session}.json`), 'utf8')) as { dataset: Dataset; answers: Record<string, Exchange[][]> };
const config = loadConfig({ ...referenceTokenEnv(), ...RECORDED_RUN, AG_BASE_URL: 'http://127.0.0.1:9' });
const profile = loadProfile();
const declaredTests = TEST_GROUPS.flatMap((g) => g.tests) as DeclaredTest<undefined>[];

function judged(session: string): Map<string, Judgement[]> {
  const { dataset, answers } = recorded(session);
  const out = new Map<string, Judgement[]>();
  for (const t of declaredTests) {
    const title = titleOf(t);
    if (!t.judge || t.run || !answers[title]) continue;
    out.set(title, judgementsOf(t.judge(answers[title], { config, profile, dataset }, undefined), t.id, context()));
  }
  return out;
}

const failedChecks = (judgements: Judgement[]) => judgements.filter((j) => j.kind === 'fail').map((j) => (j.kind === 'fail' ? (j.check?.name ?? '') : ''));

test('every session the recorder records is judged here', () => {
  expect(RUN_SESSIONS.filter((s) => s !== 'reference').sort()).toEqual(Object.keys(FAILS).sort());
});

test('against the reference server every recorded judge passes', () => {
  const all = judged('reference');
  expect(all.size, 'judges recorded').toBeGreaterThanOrEqual(5);
  for (const [title, judgements] of all)
    expect(
      judgements.filter((j) => j.kind !== 'pass'),
      title,
    ).toEqual([]);
});

for (const [session, { title, check }] of Object.entries(FAILS))
  test(`${session}: ${title.split(' ')[0]}'s judge fails with ${check}, and no other judge fails with a check of its own that is not ${check}`, () => {
    const all = judged(session);
    expect(failedChecks(all.get(title) ?? []), title).toContain(check);
    for (const [other, judgements] of all)
      if (other !== title)
        expect(
          failedChecks(judgements).filter((c) => c !== check),
          other,
        ).toEqual([]);
  });
