import fc from 'fast-check';
import { test, requirement, listBody, LISTED, pagingAssessable } from './fixtures';
import { countsStand, pagedGroups } from './dataset-needs';
import { pagesOf } from './dataset-needs';
import { checkProperty } from './property';
import { modelRuns } from './page-model';
import {
  ERROR_BODY,
  NOT_AS_SUCCESS,
  SHAPED,
  filtersHold,
  itemsAtMost,
  listedBy,
  owned,
  pagesPartition,
  pagingBounds,
  pagingEchoes,
  pastEndAnswer,
  RESULT_READ,
  tokenAccepted,
  totalAtMost,
  totalCountIs,
} from './checks';
import { nthPage, together } from './api';
import {
  echoedPaging,
  firstPagesOfSizes,
  invalidPaging,
  invalidPagings,
  PAGE_01,
  PAGE_02,
  PAGE_02_PROPERTY,
  PAGE_03,
  PAGE_04,
  PAGE_06,
  PAGE_07,
  PAGE_07_PROPERTY,
  PAGE_SIZE,
  pagesWithin,
} from './plans';

// Pages of the run's own groups (their Ids, or a Name part only they share: pagedGroups), so a run costs the same whatever else the target holds;
// then generated paging values, and a model of creates, lists and page walks. Where no query lists the run's groups alone (a one-Id
// filter and whole-Name matching), what holds of any list is judged on the user's whole list (pagesOf), and the walks and the
// page past the end on p0 and a second group of its very Name (pagedGroups); where the target refused that one, not at all.

// Two tests of half the runs each, one per worker: the commands of a run depend on each other. First in the file: they are
// the suites' longest chains of requests, and the workers' loads even out when the longest tests start first.
test.describe('PAGE paging against a model', () => {
  for (const half of [0, 1] as const)
    test(
      `PAGE-05 Walking the pages of one query yields each group exactly once (model-based: lists agree with a simple model across creates, filters and pages; seed AG_SEED${half ? ' + 1' : ''})`,
      requirement('PAGE-05'),
      async ({ api, dataset, verify, judge, profile, kit }, testInfo) => {
        await modelRuns({ api, dataset, verify, judge, profile, kit }, testInfo, half);
      },
    );
});

test.describe('PAGE paging fields and invariants', () => {
  test('PAGE-01 A page holds at most PageSize items', requirement('PAGE-01', PAGE_01), async ({ plan, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { query } = pagesOf(profile, dataset);
    const pages = firstPagesOfSizes(profile, dataset);
    const answers = await plan.answers(PAGE_01);
    for (const [i, { pageSize }] of pages.entries()) await verify(answers[i], [...LISTED, ...filtersHold(query), itemsAtMost(pageSize)]);
  });

  test('PAGE-02 PageNumber and PageSize echo what was asked', requirement('PAGE-02', PAGE_02), async ({ plan, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    // The user's whole list holds at least the run's groups (pagesOf): these pages are within it too.
    const pagings = pagesWithin(profile, dataset);
    const answers = await plan.answers(PAGE_02);
    for (const [i, { pageNumber, pageSize }] of pagings.entries()) await verify(answers[i], [...LISTED, pagingEchoes(pageNumber, pageSize)]);
  });

  test("PAGE-03 Omitted paging values take the profile's defaults", requirement('PAGE-03', PAGE_03), async ({ plan, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { pageNumber, pageSize } = profile.list;
    const { filteredBy } = pagesOf(profile, dataset);
    // The defaults are not shown: a target whose echo is true to other defaults made another choice, which its profile states.
    const fix = `default to PageNumber ${pageNumber.default} and PageSize ${pageSize.default}, or state your defaults in your profile (list.pageNumber.default, list.pageSize.default; AG_PROFILE)`;
    // Its plan is one read, where a query lists the run's groups alone; unconfined, that list would be the preflight's {}
    // again, whose one answer is judged below.
    for (const filtered of await plan.answers(PAGE_03)) {
      await verify(filtered, [...listedBy(filteredBy), pagingEchoes(pageNumber.default, pageSize.default, fix)]);
    }
    await verify(dataset.shared.emptyList, [...listedBy('LIST-01'), pagingEchoes(pageNumber.default, pageSize.default, fix)]);
  });

  test(
    'PAGE-04 TotalCount is the number of matching groups, not the size of the page',
    requirement('PAGE-04', PAGE_04),
    async ({ plan, dataset, verify, profile }) => {
      pagingAssessable(dataset);
      const { ids, query, confined, filteredBy } = pagesOf(profile, dataset);
      // The phase's read of the run's groups first: a count off there is this requirement's, whatever the pages below show.
      await countsStand(dataset, verify);
      const pages = await plan.answers(PAGE_04);
      // Unconfined (the user's whole list), the count is known only from below: at least the run's own groups, more than a page holds.
      const counted = confined ? [owned(filteredBy, totalAtMost(ids.length)), totalCountIs(ids.length)] : [totalCountIs(ids.length, { atLeast: true })];
      for (const page of pages) await verify(page, [...LISTED, ...filtersHold(query), ...counted]);
    },
  );

  test('PAGE-05 Walking the pages of one query yields each group exactly once', requirement('PAGE-05'), async ({ api, dataset, verify, judge, profile }) => {
    pagingAssessable(dataset);
    const { ids, query } = pagedGroups(profile, dataset);
    // At least two pages: p0 and its namesake (pagedGroups) are walked one a page.
    const pageSize = ids.length > PAGE_SIZE ? PAGE_SIZE : 1;
    const pages = await together(
      Array.from(
        { length: Math.ceil(ids.length / pageSize) },
        (_, i) => () => api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: nthPage(profile, i + 1), pageSize })),
      ),
    );
    for (const page of pages) await verify(page, [...LISTED, ...filtersHold(query), owned('PAGE-01', itemsAtMost(pageSize))]);
    await judge(pages, pagesPartition(ids));
  });

  test('PAGE-06 A page past the end is answered as the profile says', requirement('PAGE-06', PAGE_06), async ({ api, plan, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { ids, query, filteredBy } = pagedGroups(profile, dataset);
    const lastPage = nthPage(profile, Math.ceil(ids.length / PAGE_SIZE));
    // Its plan where a query lists the run's groups alone; over pagedGroups' namesakes, its own request.
    const [planned] = await plan.answers(PAGE_06);
    const answer = planned ?? (await api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: lastPage + 1, pageSize: PAGE_SIZE })));
    // Judged before anything that needs a 200: a refusal may be the profile's choice.
    const judged = pastEndAnswer(lastPage + 1, lastPage, ids.length);
    await countsStand(dataset, verify);
    const refused = (answer.response?.status ?? 0) >= 400;
    await verify(
      answer,
      refused
        ? [owned('AUTH-05', tokenAccepted), judged, ...ERROR_BODY]
        : [
            owned('AUTH-05', tokenAccepted),
            ...RESULT_READ,
            SHAPED,
            ...filtersHold(query),
            owned(filteredBy, totalAtMost(ids.length)),
            judged,
            owned('PAGE-04', totalCountIs(ids.length)),
          ],
    );
  });

  test('PAGE-07 Invalid paging values get 400 AssetBadRequest', requirement('PAGE-07', PAGE_07), async ({ plan, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { pageSize } = profile.list;
    // Each shared with the property below, which often draws the same edges (0, -1): one answer judged by both.
    const invalid = invalidPagings(profile);
    const answers = await plan.ahead(PAGE_07);
    for (const [i, { what, number, size }] of invalid.entries()) {
      await test.step(what, async () => {
        const answer = await answers[i];
        const judged = pagingBounds(number === undefined ? 'pageSize' : 'pageNumber', number ?? size);
        // Where the profile clamps, a page size above the maximum is a valid list; otherwise every value here is refused,
        // and a 400 whose body or kind is wrong is ENV's and ERR's finding.
        const clamped = pageSize.aboveMaximum === 'clamp' && size === pageSize.maximum + 1;
        return verify(answer, [NOT_AS_SUCCESS, ...(clamped ? [owned('AUTH-05', tokenAccepted), judged, ...RESULT_READ, SHAPED] : [judged, ...ERROR_BODY])]);
      });
    }
  });
});

test.describe('PAGE paging values, generated', () => {
  test(
    'PAGE-07 Invalid paging values get 400 AssetBadRequest (property)',
    requirement('PAGE-07', PAGE_07_PROPERTY),
    async ({ plan, dataset, verify, kit, profile }, testInfo) => {
      pagingAssessable(dataset);
      const { body, examples } = invalidPaging(profile);
      const answer = (await plan.property(PAGE_07_PROPERTY))!;
      await checkProperty(
        testInfo,
        kit.config,
        fc.asyncProperty(body, async (paging) => {
          const [field, value] = 'pageNumber' in paging ? (['pageNumber', paging.pageNumber] as const) : (['pageSize', paging.pageSize] as const);
          await verify(await answer(paging), [NOT_AS_SUCCESS, pagingBounds(field, value), ...ERROR_BODY]);
        }),
        { examples, mismatchesLast: true },
      );
    },
  );

  test(
    'PAGE-02 PageNumber and PageSize echo what was asked (property)',
    requirement('PAGE-02', PAGE_02_PROPERTY),
    async ({ plan, dataset, verify, kit, profile }, testInfo) => {
      pagingAssessable(dataset);
      const { paging, examples } = echoedPaging(profile, dataset);
      const answer = (await plan.property(PAGE_02_PROPERTY))!;
      await checkProperty(
        testInfo,
        kit.config,
        fc.asyncProperty(paging, async ({ number, size }) => {
          await verify(await answer({ number, size }), [...LISTED, pagingEchoes(number, size)]);
        }),
        { examples },
      );
    },
  );
});
