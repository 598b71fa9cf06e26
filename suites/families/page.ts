/**
 * PAGE: paging. Pages of the run's own groups (their Ids, or a Name part only they share: pagedGroups), so a run costs
 * the same whatever else the target holds; then generated paging values, and a model of creates, lists and page walks.
 * Where no query lists the run's groups alone (a one-Id filter and whole-Name matching), what holds of any list is judged
 * on the user's whole list (pagesOf), and the walks and the page past the end on p0 and a second group of its very Name
 * (pagedGroups); where the target refused that one, not at all.
 */
import fc from 'fast-check';
import { countVerdicts, pagedGroups, pagesOf } from '../dataset-needs';
import { pagingAssessable } from '../judging';
import { checkProperty } from '../property';
import { modelRuns } from '../page-model';
import { listBody, nthPage, together } from '../api';
import {
  ERROR_BODY,
  LISTED,
  NOT_AS_SUCCESS,
  RESULT_READ,
  SHAPED,
  filtersHold,
  itemsAtMost,
  listedBy,
  owned,
  pagesPartition,
  pagingBounds,
  pagingEchoes,
  pastEndAnswer,
  tokenAccepted,
  totalAtMost,
  totalCountIs,
} from '../checks';
import {
  declarePlan,
  declareProperty,
  echoedPaging,
  firstPagesOfSizes,
  invalidPaging,
  invalidPagings,
  PAGE_SIZE,
  pagesWithin,
  pagingRequest,
  pastEnd,
  twoPages,
  withoutPaging,
  type PlanContext,
} from '../plans';
import { declareTest, type JudgeContext, type TestGroup } from '../declare';

const noPaging = (ctx: PlanContext) => !!ctx.dataset.profileMismatch?.paging;
const needs = ({ dataset }: JudgeContext) => pagingAssessable(dataset);

export const PAGE_01 = declarePlan('PAGE-01', (ctx) => (noPaging(ctx) ? [] : firstPagesOfSizes(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_02 = declarePlan('PAGE-02', (ctx) => (noPaging(ctx) ? [] : pagesWithin(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_02_PROPERTY = declareProperty('PAGE-02 property', (ctx) => {
  if (noPaging(ctx)) return undefined;
  const { paging, planned, examples } = echoedPaging(ctx.profile, ctx.dataset);
  return { arbitraries: [paging], examples, request: planned };
});
export const PAGE_03 = declarePlan('PAGE-03', (ctx) => (noPaging(ctx) ? [] : withoutPaging(ctx.profile, ctx.dataset)));
export const PAGE_04 = declarePlan('PAGE-04', (ctx) => (noPaging(ctx) ? [] : twoPages(ctx.profile, ctx.dataset).map(({ planned }) => planned)));
export const PAGE_06 = declarePlan('PAGE-06', (ctx) => (noPaging(ctx) ? [] : pastEnd(ctx.profile, ctx.dataset)));
export const PAGE_07 = declarePlan('PAGE-07', (ctx) => (noPaging(ctx) ? [] : invalidPagings(ctx.profile).map(({ planned }) => planned)));
export const PAGE_07_PROPERTY = declareProperty('PAGE-07 property', (ctx) => {
  if (noPaging(ctx)) return undefined;
  const { body, examples } = invalidPaging(ctx.profile);
  return { arbitraries: [body], examples, request: (paging: Parameters<typeof pagingRequest>[1]) => pagingRequest(ctx.profile, paging) };
});

// Two tests of half the runs each, one per worker: the commands of a run depend on each other. They are the suites'
// longest chains of requests, declared first of all the suites (suites/0-chains.spec.ts, PAGE_CHAINS): Playwright hands
// tests to its workers in the order of their files' names, and a chain that starts first ends within the others' time.
const modelHalf = (half: 0 | 1) =>
  declareTest({
    id: 'PAGE-05',
    aside: `(model-based: lists agree with a simple model across creates, filters and pages; seed AG_SEED${half ? ' + 1' : ''})`,
    run: ({ testInfo, ...fixtures }) => modelRuns(fixtures, testInfo, half),
  });

export const PAGE_01_TEST = declareTest({
  id: 'PAGE-01',
  plans: [PAGE_01],
  needs,
  judge: ([answers], { profile, dataset }) => {
    const { query } = pagesOf(profile, dataset);
    return firstPagesOfSizes(profile, dataset).map(({ pageSize }, i) => ({
      answer: answers[i],
      steps: [...LISTED, ...filtersHold(query), itemsAtMost(pageSize)],
    }));
  },
});

export const PAGE_02_TEST = declareTest({
  id: 'PAGE-02',
  plans: [PAGE_02],
  needs,
  // The user's whole list holds at least the run's groups (pagesOf): these pages are within it too.
  judge: ([answers], { profile, dataset }) =>
    pagesWithin(profile, dataset).map(({ pageNumber, pageSize }, i) => ({ answer: answers[i], steps: [...LISTED, pagingEchoes(pageNumber, pageSize)] })),
});

export const PAGE_03_TEST = declareTest({
  id: 'PAGE-03',
  plans: [PAGE_03],
  needs,
  judge: ([filtered], { profile, dataset }) => {
    const { pageNumber, pageSize } = profile.list;
    const { filteredBy } = pagesOf(profile, dataset);
    // The defaults are not shown: a target whose echo is true to other defaults made another choice, which its profile states.
    const fix = `default to PageNumber ${pageNumber.default} and PageSize ${pageSize.default}, or state your defaults in your profile (list.pageNumber.default, list.pageSize.default; AG_PROFILE)`;
    const echoes = pagingEchoes(pageNumber.default, pageSize.default, fix);
    // Its plan is one read, where a query lists the run's groups alone; unconfined, that list would be the preflight's {}
    // again, whose one answer is judged last.
    return [
      ...filtered.map((answer) => ({ answer, steps: [...listedBy(filteredBy), echoes] })),
      { answer: dataset.shared.emptyList, steps: [...listedBy('LIST-01'), echoes] },
    ];
  },
});

export const PAGE_04_TEST = declareTest({
  id: 'PAGE-04',
  plans: [PAGE_04],
  needs,
  judge: ([pages], { profile, dataset }) => {
    const { ids, query, confined, filteredBy } = pagesOf(profile, dataset);
    // Unconfined (the user's whole list), the count is known only from below: at least the run's own groups, more than a page holds.
    const counted = confined
      ? [owned(filteredBy, totalAtMost(ids.length)), totalCountIs(ids.length, { ids })]
      : [totalCountIs(ids.length, { atLeast: true, ids })];
    // The phase's read of the run's groups first: a count off there is this requirement's, whatever the pages below show.
    return [...countVerdicts(dataset), ...pages.map((answer) => ({ answer, steps: [...LISTED, ...filtersHold(query), ...counted] }))];
  },
});

export const PAGE_05_TEST = declareTest({
  id: 'PAGE-05',
  needs,
  run: ({ api, profile, dataset }) => {
    const { ids, query } = pagedGroups(profile, dataset);
    // At least two pages: p0 and its namesake (pagedGroups) are walked one a page.
    const pageSize = ids.length > PAGE_SIZE ? PAGE_SIZE : 1;
    return together(
      Array.from(
        { length: Math.ceil(ids.length / pageSize) },
        (_, i) => () => api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: nthPage(profile, i + 1), pageSize })),
      ),
    );
  },
  judge: (_, { profile, dataset }, pages) => {
    const { ids, query } = pagedGroups(profile, dataset);
    const pageSize = ids.length > PAGE_SIZE ? PAGE_SIZE : 1;
    return [
      ...pages.map((answer) => ({ answer, steps: [...LISTED, ...filtersHold(query), owned('PAGE-01', itemsAtMost(pageSize))] })),
      { answers: pages, together: pagesPartition(ids) },
    ];
  },
});

export const PAGE_06_TEST = declareTest({
  id: 'PAGE-06',
  plans: [PAGE_06],
  needs,
  // Its plan where a query lists the run's groups alone; over pagedGroups' namesakes, its own request.
  run: async ({ api, profile, dataset }, [[planned]]) => {
    const { ids, query } = pagedGroups(profile, dataset);
    const lastPage = nthPage(profile, Math.ceil(ids.length / PAGE_SIZE));
    return planned ?? (await api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: lastPage + 1, pageSize: PAGE_SIZE })));
  },
  judge: (_, { profile, dataset }, answer) => {
    const { ids, query, filteredBy } = pagedGroups(profile, dataset);
    const lastPage = nthPage(profile, Math.ceil(ids.length / PAGE_SIZE));
    // Judged before anything that needs a 200: a refusal may be the profile's choice.
    const judged = pastEndAnswer(lastPage + 1, lastPage, ids.length);
    const refused = (answer.response?.status ?? 0) >= 400;
    const steps = refused
      ? [owned('AUTH-05', tokenAccepted), judged, ...ERROR_BODY]
      : [
          owned('AUTH-05', tokenAccepted),
          ...RESULT_READ,
          SHAPED,
          ...filtersHold(query),
          owned(filteredBy, totalAtMost(ids.length)),
          judged,
          owned('PAGE-04', totalCountIs(ids.length, { ids })),
        ];
    return [...countVerdicts(dataset), { answer, steps }];
  },
});

export const PAGE_07_TEST = declareTest({
  id: 'PAGE-07',
  plans: [PAGE_07],
  needs,
  // Each shared with the property below, which often draws the same edges (0, -1): one answer judged by both.
  judge: ([answers], { profile }) =>
    invalidPagings(profile).map(({ what, number, size }, i) => {
      const judged = pagingBounds(number === undefined ? 'pageSize' : 'pageNumber', number ?? size);
      // Where the profile clamps, a page size above the maximum is a valid list; otherwise every value here is refused,
      // and a 400 whose body or kind is wrong is ENV's and ERR's finding.
      const clamped = profile.list.pageSize.aboveMaximum === 'clamp' && size === profile.list.pageSize.maximum + 1;
      return {
        answer: answers[i],
        step: what,
        steps: [NOT_AS_SUCCESS, ...(clamped ? [owned('AUTH-05', tokenAccepted), judged, ...RESULT_READ, SHAPED] : [judged, ...ERROR_BODY])],
      };
    }),
});

export const PAGE_07_PROPERTY_TEST = declareTest({
  id: 'PAGE-07',
  aside: '(property)',
  plans: [PAGE_07_PROPERTY],
  needs,
  run: async ({ plan, verify, kit, profile, testInfo }) => {
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
});

export const PAGE_02_PROPERTY_TEST = declareTest({
  id: 'PAGE-02',
  aside: '(property)',
  plans: [PAGE_02_PROPERTY],
  needs,
  run: async ({ plan, verify, kit, profile, dataset, testInfo }) => {
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
});

/** The long chains of the PAGE family: suites/0-chains.spec.ts declares them before every other test. */
export const PAGE_CHAINS: readonly TestGroup[] = [{ describe: 'PAGE paging against a model', tests: [modelHalf(0), modelHalf(1)] }];

export const PAGE: readonly TestGroup[] = [
  {
    describe: 'PAGE paging fields and invariants',
    tests: [PAGE_01_TEST, PAGE_02_TEST, PAGE_03_TEST, PAGE_04_TEST, PAGE_05_TEST, PAGE_06_TEST, PAGE_07_TEST],
  },
  { describe: 'PAGE paging values, generated', tests: [PAGE_07_PROPERTY_TEST, PAGE_02_PROPERTY_TEST] },
];
