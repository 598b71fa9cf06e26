/** PAGE's checks, judged on recorded exchanges (cases of tests/checks/page.test.ts). */
import * as PAGE from '../../../suites/checks/page';
import type { Case } from '../case';
import { createdId, recorded, ref, withJson } from '../exchanges';
import { PAGE_SIZE } from '../sent';

const threeOf = (session: string) => ['create', 'create2', 'create3'].map((key) => createdId(recorded(session, key)));
const refIds = threeOf('reference');
const CLAMP = { list: { pageSize: { aboveMaximum: 'clamp' } } };

export const CASES: Case[] = [
  { check: 'totalCountIs', title: 'every match counted on page 1 of 2', judge: PAGE.totalCountIs(3), exchange: ref('page1'), fails: false },
  {
    check: 'totalCountIs',
    title: 'the page’s items counted',
    judge: PAGE.totalCountIs(3),
    exchange: recorded('totalCountOfPage', 'page1'),
    fails: true,
    expect: 'TotalCount 2',
  },
  {
    check: 'totalCountIs',
    title: "at least the run's own, in the user's whole list",
    judge: PAGE.totalCountIs(3, { atLeast: true }),
    exchange: ref('all'),
    fails: false,
  },
  {
    check: 'totalCountIs',
    title: 'fewer than the run’s own',
    judge: PAGE.totalCountIs(5, { atLeast: true }),
    exchange: ref('all'),
    fails: true,
    expect: 'at least',
  },

  { check: 'countOfWholePage', title: 'a whole first page counted', judge: PAGE.countOfWholePage, exchange: ref('byIds'), fails: false },
  { check: 'countOfWholePage', title: 'a page of a larger result says nothing', judge: PAGE.countOfWholePage, exchange: ref('page1'), fails: false },
  {
    check: 'countOfWholePage',
    title: 'one too many',
    judge: PAGE.countOfWholePage,
    exchange: recorded('totalCountPlusOne', 'byIds'),
    fails: true,
    expect: 'TotalCount 4 on a first page that lists all 3 groups',
  },
  {
    check: 'countOfWholePage',
    title: 'more than the Ids asked for, on a first page with room that lists some of them',
    judge: PAGE.countOfWholePage,
    exchange: withJson(ref('byIds'), (json) => {
      json.Result.Items.pop();
      json.Result.TotalCount = 7;
    }),
    fails: true,
    expect: 'TotalCount 7 on a first page that lists 2 of the 3 groups',
  },
  {
    check: 'countOfWholePage',
    title: "a page listing a group not asked for is the Id filter's, not the count's",
    judge: PAGE.countOfWholePage,
    exchange: withJson(ref('byIds'), (json) => {
      json.Result.Items[0].Id = 'agp-not-asked';
      json.Result.TotalCount = 7;
    }),
    fails: false,
  },

  {
    check: 'itemsWithinResultPageSize',
    title: 'a full page of the size it states',
    judge: PAGE.itemsWithinResultPageSize,
    exchange: ref('page1'),
    fails: false,
  },
  {
    check: 'itemsWithinResultPageSize',
    title: 'more items than the page size it states',
    judge: PAGE.itemsWithinResultPageSize,
    exchange: withJson(ref('all'), (json) => (json.Result.PageSize = 1)),
    fails: true,
    expect: 'whose Result.PageSize is 1',
  },

  { check: 'totalCoversPage', title: 'a count of the whole result', judge: PAGE.totalCoversPage, exchange: ref('page1'), fails: false },
  {
    check: 'totalCoversPage',
    title: 'a count below the items on the page',
    judge: PAGE.totalCoversPage,
    exchange: withJson(ref('all'), (json) => (json.Result.TotalCount = 0)),
    fails: true,
    expect: 'TotalCount 0 on a page of',
  },

  { check: 'pagingEchoes', title: 'the defaults echoed', judge: PAGE.pagingEchoes(1, 10), exchange: ref('all'), fails: false },
  {
    check: 'pagingEchoes',
    title: 'zeros echoed for omitted paging',
    judge: PAGE.pagingEchoes(1, 10),
    exchange: recorded('pagingEchoesZeroWhenOmitted', 'all'),
    fails: true,
    expect: 'PageNumber 0, PageSize 0',
  },

  { check: 'itemsAtMost', title: 'a full page', judge: PAGE.itemsAtMost(PAGE_SIZE), exchange: ref('page1'), fails: false },
  {
    check: 'itemsAtMost',
    title: 'one item too many',
    judge: PAGE.itemsAtMost(PAGE_SIZE),
    exchange: recorded('pageOneTooMany', 'page1'),
    fails: true,
    expect: '3 items for a page size of 2',
    mismatch: false,
  },
  {
    check: 'itemsAtMost',
    title: 'a page of another size, as echoed (a profile mismatch)',
    judge: PAGE.itemsAtMost(PAGE_SIZE),
    exchange: ref('byIds'),
    fails: true,
    expect: 'set list.pageSize.field',
    mismatch: true,
  },

  { check: 'pagingBounds', title: 'PageSize 0 refused', judge: PAGE.pagingBounds('pageSize', 0), exchange: ref('pageSize0'), fails: false },
  {
    check: 'pagingBounds',
    title: 'PageSize 0 served as asked',
    judge: PAGE.pagingBounds('pageSize', 0),
    exchange: recorded('pagingNotValidated', 'pageSize0'),
    fails: true,
    expect: 'HTTP 200 for PageSize: 0',
    mismatch: false,
  },
  { check: 'pagingBounds', title: 'PageSize 101 refused', judge: PAGE.pagingBounds('pageSize', 101), exchange: ref('pageSizeAboveMax'), fails: false },
  {
    check: 'pagingBounds',
    title: 'PageSize 101 refused where the profile clamps (a profile mismatch)',
    judge: PAGE.pagingBounds('pageSize', 101),
    exchange: ref('pageSizeAboveMax'),
    context: { profile: CLAMP },
    fails: true,
    expect: 'set list.pageSize.aboveMaximum: refuse',
    mismatch: true,
  },
  {
    check: 'pagingBounds',
    title: 'PageSize 101 served as 100 where the profile clamps',
    judge: PAGE.pagingBounds('pageSize', 101),
    exchange: withJson(ref('byIds'), (json) => (json.Result.PageSize = 100)),
    context: { profile: CLAMP },
    fails: false,
  },

  { check: 'pastEndAnswer', title: 'an empty page', judge: PAGE.pastEndAnswer(3, 2, 3), exchange: ref('pastEnd'), fails: false },
  {
    check: 'pastEndAnswer',
    title: 'the last page under the number asked',
    judge: PAGE.pastEndAnswer(3, 2, 3),
    exchange: recorded('pastEndShowsLastPage', 'pastEnd'),
    fails: true,
    expect: 'HTTP 200, 1 items, Result.PageNumber 3',
    mismatch: false,
  },
  {
    check: 'pastEndAnswer',
    title: 'the last page with its own number (a profile mismatch)',
    judge: PAGE.pastEndAnswer(3, 2, 3),
    exchange: withJson(recorded('pastEndShowsLastPage', 'pastEnd'), (json) => (json.Result.PageNumber = 2)),
    fails: true,
    expect: 'set list.pageNumber.pastEnd: last',
    mismatch: true,
  },
  {
    check: 'pastEndAnswer',
    title: 'the last page with its own number, as profiled',
    judge: PAGE.pastEndAnswer(3, 2, 3),
    exchange: withJson(recorded('pastEndShowsLastPage', 'pastEnd'), (json) => (json.Result.PageNumber = 2)),
    context: { profile: { list: { pageNumber: { pastEnd: 'last' } } } },
    fails: false,
  },

  { check: 'pagesPartition', title: 'two pages, each group once', judge: PAGE.pagesPartition(refIds), exchanges: [ref('page1'), ref('page2')], fails: false },
  {
    check: 'pagesPartition',
    title: 'pages overlapping by one',
    judge: PAGE.pagesPartition(threeOf('pagesOverlapByOne')),
    exchanges: [recorded('pagesOverlapByOne', 'page1'), recorded('pagesOverlapByOne', 'page2')],
    fails: true,
    expect: 'on two pages',
  },

  { check: 'modelCount', title: 'a full first page', judge: PAGE.modelCount(1, PAGE_SIZE), exchange: ref('page1'), fails: false },
  { check: 'modelCount', title: 'the last, shorter page', judge: PAGE.modelCount(2, PAGE_SIZE), exchange: ref('page2'), fails: false },
  {
    check: 'modelCount',
    title: 'a page one short',
    judge: PAGE.modelCount(1, PAGE_SIZE),
    exchange: recorded('pagesShortByOne', 'page1'),
    fails: true,
    expect: '1 items on page 1 with TotalCount 3',
  },

  {
    check: 'firstPageHoldsMatches',
    title: 'a first page holding every match',
    judge: PAGE.firstPageHoldsMatches(refIds),
    exchange: ref('byIds'),
    fails: false,
  },
  {
    check: 'firstPageHoldsMatches',
    title: 'a first page starting a page late',
    judge: PAGE.firstPageHoldsMatches(threeOf('offsetTimesPageSize')),
    exchange: recorded('offsetTimesPageSize', 'byIds'),
    fails: true,
    expect: 'held 0 items with TotalCount 3',
  },

  { check: 'modelTotal', title: 'all asked counted', judge: PAGE.modelTotal(refIds.slice(0, 3), 3), exchange: ref('byIds'), fails: false },
  {
    check: 'modelTotal',
    title: 'one more than asked',
    judge: PAGE.modelTotal(refIds.slice(0, 3), 3),
    exchange: recorded('totalCountPlusOne', 'byIds'),
    fails: true,
    expect: 'TotalCount 4',
  },
];
