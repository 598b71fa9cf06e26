/** PAGE: paging fields (PageNumber, PageSize, TotalCount), their bounds, and pages that partition a result. */
import type { Exchange } from '../../client/exchange';
import { invalidPagingFor, readPointer } from '../../schemas/profile';
import { parseJson } from '../../schemas/spec';
import { fail, idsAsked, idsOf, items, named, itemsOf, show, type Check, type CheckContext, type Failure, type MultiCheck } from './kit';

/**
 * PAGE-04: TotalCount counts every match. `atLeast`: the query is the user's whole list (pagesOf, not
 * confined to the run's groups), which holds these `expected` groups and whatever else the user has:
 * a count below theirs is the page's or another query's, never this one's.
 */
export function totalCountIs(expected: number, { atLeast = false, ids }: { atLeast?: boolean; ids?: readonly string[] } = {}): Check {
  return named('totalCountIs', (ex) => {
    const got = readPointer(ex.response?.json, '/Result/TotalCount');
    if (!(atLeast ? typeof got !== 'number' || got < expected : got !== expected)) return undefined;
    const failure = fail(
      'totalCountIs',
      `TotalCount ${show(got)} (Items on this page: ${items(ex)?.length})`,
      `TotalCount | integer | Number of matching groups: ${atLeast ? `at least the run's own ${expected}, which this list holds` : expected}`,
      'count every match of the query, not the items of the page',
    );
    // Fewer counted than the run's groups `ids` may be a snapshot that has not got them all yet (a replica, within their
    // visibility bound): the verify fixture judges the read sent again after the bound.
    return typeof got === 'number' && got < expected && ids?.length ? { ...failure, missing: [...ids] } : failure;
  });
}

/**
 * PAGE-04: a first page of a query by Ids (a string under list.idFilterTakes: one) with room to spare, that lists only groups
 * asked for, holds the whole result: its TotalCount is at most the number asked, and that number where it lists them all.
 * The phase's read of the run's groups is such a page: a count off there (COUNT(*) over a join with a row of NULLs) is the
 * count's own deviation, before any requirement reads one. A page listing a group not asked for is the Id filter's (LIST-04);
 * a page without room says nothing of the count: with the Id filter ignored, the groups it lists may all be asked for.
 */
export function countOfWholePage(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const { list } = ctx.profile;
  const ids = new Set(idsAsked(list, parseJson(ex.request.body)));
  const [total, size, number] = ['TotalCount', 'PageSize', 'PageNumber'].map((field) => readPointer(ex.response?.json, `/Result/${field}`));
  const listed = itemsOf(ex).map((item) => item.Id);
  if (!ids.size || typeof total !== 'number' || typeof size !== 'number' || number !== list.pageNumber.minimum || listed.length >= size) return undefined;
  if (!listed.every((id) => ids.has(id))) return undefined;
  const all = [...ids].every((id) => listed.includes(id as string));
  if (all ? total === ids.size : total <= ids.size) return undefined;
  return fail(
    countOfWholePage,
    `TotalCount ${total} on a first page that lists ${all ? 'all ' : `${listed.length} of the `}${ids.size} groups asked for by Id (PageSize ${size})`,
    'TotalCount | integer | Number of matching groups.',
    'count the groups the query matches: the same ones it lists',
  );
}

export function pagingEchoes(pageNumber: number, pageSize: number, fix = 'report the page number and page size the result was computed with'): Check {
  return named('pagingEchoes', (ex) => {
    const got = { PageNumber: readPointer(ex.response?.json, '/Result/PageNumber'), PageSize: readPointer(ex.response?.json, '/Result/PageSize') };
    if (got.PageNumber !== pageNumber || got.PageSize !== pageSize) {
      return fail(
        'pagingEchoes',
        `PageNumber ${show(got.PageNumber)}, PageSize ${show(got.PageSize)}`,
        `PageNumber ${pageNumber}, PageSize ${pageSize}: "Page number / Page size of this result"`,
        fix,
      );
    }
    return undefined;
  });
}

/**
 * PAGE-01: no more items than the page size asked for. Many more items under another PageSize in
 * the result means the target did not read the profile's page-size field at all: a mismatch.
 */
export function itemsAtMost(size: number): Check {
  return named('itemsAtMost', (ex, ctx) => {
    const list = items(ex) ?? [];
    if (list.length <= size) return undefined;
    const echoed = readPointer(ex.response?.json, '/Result/PageSize');
    const failure = fail(
      'itemsAtMost',
      `${list.length} items for a page size of ${size} (Result.PageSize ${show(echoed)})`,
      'PageSize | integer | Page size of this result.',
      'never return more items than the page size',
    );
    const field = ctx.profile.list.pageSize.field;
    return echoed !== size && typeof echoed === 'number' && list.length <= echoed
      ? {
          ...failure,
          profileMismatch: `the target answered ${list.length} items with PageSize ${echoed} to ${field}: ${size}; it seems not to read ${field}: set list.pageSize.field (and list.pageNumber.field)`,
        }
      : failure;
  });
}

/** PAGE-01, on any list answer: no more items than the PageSize the result itself states, whatever was asked. */
export function itemsWithinResultPageSize(ex: Exchange): Failure | undefined {
  const size = readPointer(ex.response?.json, '/Result/PageSize');
  const list = items(ex) ?? [];
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || list.length <= size) return undefined;
  return fail(
    itemsWithinResultPageSize,
    `${list.length} items on a page whose Result.PageSize is ${size}`,
    'PageSize | integer | Page size of this result.',
    'never return more items than the page size the result states',
  );
}

/** PAGE-04, on any list answer: TotalCount counts the matching groups, and the items of this page are among them. */
export function totalCoversPage(ex: Exchange): Failure | undefined {
  const total = readPointer(ex.response?.json, '/Result/TotalCount');
  const list = items(ex) ?? [];
  if (typeof total !== 'number' || total >= list.length) return undefined;
  return fail(
    totalCoversPage,
    `TotalCount ${total} on a page of ${list.length} items`,
    'TotalCount | integer | Number of matching groups.',
    'count every group the query matches: at least those the page lists',
  );
}

/**
 * PAGE-07: a paging value outside the profile's bounds is refused with 400 (the kind is ERR-02's).
 * A PageSize above the maximum is the one exception the profile may make: served as the maximum, and
 * said so in Result.PageSize (list.pageSize.aboveMaximum: clamp, as Django REST framework and Spring
 * Data do). Answers that show the other of the two choices are a mismatch naming that setting.
 */
export function pagingBounds(field: 'pageNumber' | 'pageSize', value: unknown): Check {
  return named('pagingBounds', (ex, ctx) => {
    const { pageSize, pageNumber } = ctx.profile.list;
    const invalidPaging = invalidPagingFor(ctx.profile.list, value);
    // A fraction has a setting of its own: Jackson reads 1.5 as 1 where Bean Validation still refuses 0.
    const setting = typeof value === 'number' && !Number.isInteger(value) ? 'list.fractionalPaging' : 'list.invalidPaging';
    const status = ex.response?.status;
    const echoed = readPointer(ex.response?.json, '/Result/PageSize');
    const aboveMaximum = field === 'pageSize' && typeof value === 'number' && Number.isInteger(value) && value > pageSize.maximum;
    const clamped = status === 200 && echoed === pageSize.maximum && (items(ex)?.length ?? 0) <= pageSize.maximum;
    const clamps = aboveMaximum && pageSize.aboveMaximum === 'clamp';
    // Below the minimum or a fraction, served as a valid page that the answer states (list.invalidPaging: adjust).
    const number = readPointer(ex.response?.json, '/Result/PageNumber');
    const adjusted =
      !aboveMaximum &&
      status === 200 &&
      Number.isInteger(number) &&
      (number as number) >= pageNumber.minimum &&
      Number.isInteger(echoed) &&
      (echoed as number) >= pageSize.minimum &&
      (echoed as number) <= pageSize.maximum &&
      (items(ex)?.length ?? Infinity) <= (echoed as number);
    if (clamps ? clamped : status === 400 || (adjusted && invalidPaging === 'adjust')) return undefined;
    const received = ex.response
      ? `HTTP ${status} for ${ctx.profile.list[field].field}: ${show(value)}${status === 200 ? ` (Result.PageSize ${show(echoed)}, ${items(ex)?.length ?? '?'} items)` : ''}`
      : `no response: ${ex.networkError}`;
    const failure = clamps
      ? fail(
          'pagingBounds',
          received,
          `${pageSize.field} ${show(value)} served as ${pageSize.maximum}, and Result.PageSize ${pageSize.maximum} (profile "${ctx.profile.name}": list.pageSize.aboveMaximum clamp)`,
          'serve a page size above the maximum as the maximum and say so in Result.PageSize',
        )
      : fail(
          'pagingBounds',
          received,
          `HTTP 400: ${ctx.profile.list[field].field} ${show(value)} is outside the profile's bounds (profile "${ctx.profile.name}")`,
          'refuse paging values outside the bounds with 400 AssetBadRequest, or state your bounds in your profile',
        );
    if (aboveMaximum && !clamps && clamped)
      return {
        ...failure,
        profileMismatch: `a ${pageSize.field} of ${value} was served as ${pageSize.maximum} (Result.PageSize ${pageSize.maximum}): the target clamps; set list.pageSize.aboveMaximum: clamp`,
      };
    if (clamps && status === 400)
      return {
        ...failure,
        profileMismatch: `a ${pageSize.field} of ${value} was refused with HTTP 400: the target refuses rather than clamps; set list.pageSize.aboveMaximum: refuse`,
      };
    if (adjusted)
      return {
        ...failure,
        profileMismatch: `a ${ctx.profile.list[field].field} of ${show(value)} was served as PageNumber ${number}, PageSize ${echoed}, as the answer says: the target adjusts paging values rather than refusing them (the spec shows no bounds); set ${setting}: adjust`,
      };
    return failure;
  });
}

/**
 * PAGE-06: a page past the end is answered as the profile says: empty (Items [], TotalCount kept),
 * the last page with its own true PageNumber ("PageNumber | integer | Page number of this result"),
 * or refused with a 4xx. Another of these three is another profile's choice; anything else fails.
 */
export function pastEndAnswer(asked: number, lastPage: number, total: number): Check {
  return named('pastEndAnswer', (ex, ctx) => {
    const status = ex.response?.status ?? 0;
    const list = items(ex);
    const number = readPointer(ex.response?.json, '/Result/PageNumber');
    const observed =
      status >= 400 && status < 500
        ? 'refuse'
        : status === 200 && list?.length === 0
          ? 'empty'
          : status === 200 && list && list.length > 0 && number === lastPage
            ? 'last'
            : undefined;
    const expected = ctx.profile.list.pageNumber.pastEnd;
    if (observed === expected) return undefined;
    const failure = fail(
      'pastEndAnswer',
      ex.response
        ? `page ${asked} (past the last page, ${lastPage}, of ${total} matches): HTTP ${status}, ${list ? `${list.length} items` : 'no Items'}, Result.PageNumber ${show(number)}`
        : `no response: ${ex.networkError}`,
      `profile "${ctx.profile.name}": list.pageNumber.pastEnd ${expected}${expected === 'last' ? ` (the last page, Result.PageNumber ${lastPage})` : ''}; PageNumber | integer | Page number of this result.`,
      'answer a page past the end with an empty page, or with the last page and its own PageNumber, or refuse it; never another page under the number asked',
    );
    return observed
      ? {
          ...failure,
          profileMismatch: `a page past the end was answered ${observed === 'refuse' ? `HTTP ${status}` : observed === 'last' ? `with the last page (Result.PageNumber ${lastPage})` : 'with an empty page'}; set list.pageNumber.pastEnd: ${observed}`,
        }
      : failure;
  });
}

/**
 * PAGE-05: the pages of one query, walked from the first, hold each expected group exactly once and
 * nothing else. Items beyond the expected ones are the filter's business; what is judged here is
 * that pages neither overlap nor leave gaps.
 */
export function pagesPartition(expected: string[]): MultiCheck {
  return named('pagesPartition', (pages: Exchange[]) => {
    const seen = pages.flatMap(idsOf).filter((id) => expected.includes(id as string));
    const repeated = [...new Set(seen.filter((id, i) => seen.indexOf(id) !== i))];
    const missing = expected.filter((id) => !seen.includes(id));
    if (repeated.length || missing.length) {
      return {
        ...fail(
          'pagesPartition',
          `pages 1..${pages.length}: ${pages.map((p, i) => `page ${i + 1} ${show(idsOf(p))}`).join('; ')}${repeated.length ? `; on two pages: ${show(repeated)}` : ''}${missing.length ? `; on no page: ${show(missing)}` : ''}`,
          `each of ${show(expected)} on exactly one page`,
          'page through one stable order of the matches: page n holds matches (n-1)*PageSize+1 .. n*PageSize',
        ),
        ...(repeated.length ? {} : { missing }),
      };
    }
    return undefined;
  });
}

/** PAGE-05 in the model-based test: a page before the end holds min(PageSize, TotalCount - offset) items, a full page or the last one. */
export function modelCount(pageNumber: number, pageSize: number): Check {
  return named('modelCount', (ex, ctx) => {
    const t = readPointer(ex.response?.json, '/Result/TotalCount') as number;
    // Pages count from the profile's first page number (list.pageNumber.minimum: 1, or 0).
    const offset = (pageNumber - ctx.profile.list.pageNumber.minimum) * pageSize;
    if (offset >= t) return undefined;
    const expected = Math.max(0, Math.min(pageSize, t - offset));
    const onPage = itemsOf(ex).length;
    if (onPage === expected) return undefined;
    return {
      check: 'modelCount',
      received: `${onPage} items on page ${pageNumber} with TotalCount ${t}`,
      documented: `page ${pageNumber} of size ${pageSize} holds min(PageSize, TotalCount - offset) = ${expected} items`,
      fix: 'page through exactly the matching groups',
    };
  });
}

/**
 * PAGE-05, read from the create-and-wait phase's last poll: a first page with room for every group asked
 * for that holds fewer of the matches than it has room for starts late, and hides groups that are there.
 */
export function firstPageHoldsMatches(pending: string[]): (ex: Exchange) => Failure | undefined {
  return named('firstPageHoldsMatches', (ex) => {
    const listed = itemsOf(ex);
    const total = readPointer(ex.response?.json, '/Result/TotalCount');
    const asked = pending.filter((id) => ex.request.body.includes(JSON.stringify(id))).length;
    if (!(typeof total === 'number' && total > listed.length && listed.length < asked)) return undefined;
    return fail(
      'firstPageHoldsMatches',
      `the first page of a query by ${asked} Ids, with room for all, held ${listed.length} items with TotalCount ${total}`,
      'page 1 holds the first matches: PageNumber | integer | Page number of this result.',
      'start page n at offset (n - 1) * PageSize',
    );
  });
}

/**
 * PAGE-04 in the model-based test: TotalCount lies between the groups asked for
 * that were seen before and all those asked for, since pending ones may or may not count yet.
 */
export function modelTotal(seen: readonly string[], asked: number): Check {
  return named('modelTotal', (ex) => {
    const t = readPointer(ex.response?.json, '/Result/TotalCount');
    if (typeof t === 'number' && t >= seen.length && t <= asked) return undefined;
    return {
      check: 'modelTotal',
      received: `TotalCount ${JSON.stringify(t)}`,
      documented: `TotalCount between ${seen.length} (groups asked for and seen before) and ${asked} (all asked for)`,
      fix: 'count exactly the matching groups',
      // Fewer than seen before may be a snapshot that lacks them yet (a replica), as in totalCountIs.
      ...(typeof t === 'number' && t < seen.length ? { missing: [...seen] } : {}),
    };
  });
}
