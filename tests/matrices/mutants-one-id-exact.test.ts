/**
 * The mutants of the paging requirements under a one-Id filter and whole-Name matching (list.idFilterTakes: one,
 * list.nameMatch: exact), where only a Name two of the run's groups share lists them alone; and servers with no
 * deviation that keep Names unique, or refuse a page past the end (tests/matrices/mutant-tests.ts declares the mutants' tests).
 */
import { test, expect } from '@playwright/test';
import { MUTANTS } from '../../reference/mutants';
import { ApiError, defaultHooks, type ReferenceHooks } from '../../reference/server';
import { badRequest } from '../../reference/behaviour-base';
import { PROFILE_VARIANTS } from '../../reference/profile-variants';
import { profileFromOverride } from '../../schemas/profile';
import { inBatches } from '../helpers/suite-run';
import type { SuiteRun } from '../helpers/suite-run-read';
import { expectComplete, expectFailsExactly, mustFindings } from '../helpers/suite-run-expect';
import { mutantTest, ranWith } from './mutant-tests';

/**
 * A one-Id filter and a Name filter that matches whole Names (Sinatra, Fastify and Mojolicious servers built blind
 * from the spec): only a Name two of the run's groups share lists them and nothing else, so the phase creates a second
 * group of p0's very Name, and the paging tests page through the two (suites/dataset.ts, pagesOf). The mutants of
 * the paging requirements must still fail exactly them, and a server with no deviation fails nothing and is conformant.
 * Whether Names are unique is not shown: a server that refuses the second one leaves the walks and the page past
 * the end unjudged, and fails nothing; one that answers it with a server error fails CREATE-01.
 */
const ONE_ID_EXACT_MUTANTS = [
  'pageOneTooMany',
  'pageSizeClampedTo50',
  'defaultPageSize20',
  'pagingEchoesZeroWhenOmitted',
  'totalCountOfPage',
  'pagesOverlapByOne',
  'pastEndShowsLastPage',
  'pagesSkipOne',
  'pagesShortByOne',
];
/** The tests that cannot be judged without two groups of one Name: every walk of pages, and a page past the end. */
const WALKS = ['PAGE-05', 'PAGE-05', 'PAGE-05', 'PAGE-06'];

/** A server that keeps Names unique, answering a second create of a Name it has seen with `answer`. */
function namesOnce(answer: (name: string) => ApiError): Partial<ReferenceHooks> {
  const seen = new Set<string>();
  return {
    validateCreate: (body, ctx) => {
      const input = defaultHooks.validateCreate(body, ctx);
      if (input instanceof ApiError) return input;
      if (seen.has(input.Name)) return answer(input.Name);
      seen.add(input.Name);
      return input;
    },
  };
}

type OneIdExactItem =
  | { kind: 'reference' | 'pastEndRefused' }
  | { kind: 'mutant'; mutant: (typeof MUTANTS)[number] }
  | { kind: 'namesRefused' | 'namesFail'; hooks: () => Partial<ReferenceHooks> };

test.describe('mutants under a one-Id filter and whole-Name matching', () => {
  test.setTimeout(180_000);
  const oneId = PROFILE_VARIANTS.find((v) => v.name === 'oneIdFilter')!.profile as { list: Record<string, unknown> };
  const kitProfile = { ...oneId, name: 'oneIdExactName', list: { ...oneId.list, nameMatch: 'exact' } };
  const server = { profile: profileFromOverride(kitProfile, 'oneIdExactName') };
  // Tests not judged for want of a query, not because a requirement they build on failed (blocked: a mutant's doing).
  const skippedOf = (run: SuiteRun) =>
    ranWith('oneIdExactName', run)
      .tests.filter((t) => t.status === 'skipped' && t.requirement !== 'INPUT-08' && !t.blockedBy.length)
      .map((t) => t.requirement)
      .sort();
  const judgedAll = (run: SuiteRun) => {
    expect(skippedOf(run), "with p0's namesake, the walks and the page past the end are judged too: nothing is left unjudged").toEqual([]);
    return run;
  };
  const items: OneIdExactItem[] = [
    { kind: 'reference' },
    ...ONE_ID_EXACT_MUTANTS.map((name) => ({ kind: 'mutant' as const, mutant: MUTANTS.find((m) => m.name === name)! })),
    { kind: 'namesRefused', hooks: () => namesOnce((name) => badRequest('CreateAssetGroup', `an asset group named ${name} exists`)) },
    { kind: 'namesFail', hooks: () => namesOnce(() => new ApiError(500, 'AssetError', 'UNIQUE constraint failed: asset_groups.name')) },
    // A page past the end refused, judged by a profile that says otherwise: what discover drafts for such a server,
    // since no list it can make there has a last page it knows (it keeps list.pageNumber.pastEnd at the reference's).
    { kind: 'pastEndRefused' },
  ];
  const pastEndRefused = {
    profile: profileFromOverride({ ...kitProfile, list: { ...kitProfile.list, pageNumber: { pastEnd: 'refuse' } } }, 'oneIdExactNamePastEndRefused'),
  };
  inBatches(
    items,
    (item) => ({
      label: `exact-${item.kind === 'mutant' ? item.mutant.name : item.kind}`,
      hooks: item.kind === 'mutant' ? item.mutant.hooks : 'hooks' in item ? item.hooks() : {},
      server: item.kind === 'pastEndRefused' ? pastEndRefused : server,
    }),
    (item, runOf) => {
      const under = 'under list.idFilterTakes: one and list.nameMatch: exact';
      if (item.kind === 'mutant') return mutantTest(item.mutant, async () => judgedAll(await runOf()), under);
      if (item.kind === 'reference')
        return test(`the unmodified reference server ${under} fails nothing and is conformant, its walks judged`, async () => {
          const run = judgedAll(await runOf());
          expectComplete(run);
          expect(run.fails, 'requirements failed by the unmodified reference server').toEqual([]);
          expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('conformant');
        });
      if (item.kind === 'pastEndRefused')
        return test(`a server that refuses a page past the end ${under}, judged by list.pageNumber.pastEnd: empty, fails no MUST; PAGE-06 names the setting`, async () => {
          // Pages of what holds of any list are asked within the user's whole list, never past the end of two groups.
          const run = await runOf();
          expectComplete(run);
          expect(mustFindings(run), 'another answer to a page past the end is a profile choice').toEqual({ failed: [], attributed: [] });
          // PAGE-02 and PAGE-04 too: their second pages lie within the user's whole list, not past the end of p0 and its namesake.
          expect(skippedOf(run), 'only the page past the end is left to the profile').toEqual(['PAGE-06']);
          const pastEnd = run.tests.find((t) => t.requirement === 'PAGE-06')!;
          expect(`${pastEnd.status} ${pastEnd.profileMismatch ?? pastEnd.error}`).toContain('list.pageNumber.pastEnd');
        });
      if (item.kind === 'namesRefused')
        return test(`a server that keeps Names unique (a second create of one Name refused with 400) ${under} fails nothing; only the walks go unjudged, saying why`, async () => {
          const run = await runOf();
          expectComplete(run);
          expect(skippedOf(run), 'not assessable without two groups of one Name').toEqual(WALKS);
          expect(run.fails, 'unique Names are a choice the spec leaves open').toEqual([]);
          const walk = run.tests.find((t) => t.requirement === 'PAGE-05' && t.status === 'skipped')!;
          expect(walk.skipReason).toContain("a second group of p0's Name was not created (create answered HTTP 400): the target may keep Names unique");
          expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('incomplete');
        });
      test(`a server that answers a second create of one Name with 500 ${under} fails CREATE-01 alone`, async () => {
        const run = await runOf();
        expectComplete(run);
        expectFailsExactly(run, ['CREATE-01']);
        expect(run.checks).toEqual(['noServerError']);
        expect(skippedOf(run)).toEqual(WALKS);
        expect(run.verdict).toBe('non-conformant');
      });
    },
    { kitProfile },
  );
});
