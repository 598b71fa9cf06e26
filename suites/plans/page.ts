/** PAGE's planned requests: paging values at and past their bounds, and pages of the run's groups. */
import fc from 'fast-check';
import { listBody } from '../list-body';
import { pagesOf } from '../dataset-needs';
import { type Dataset } from '../dataset';
import { type Profile } from '../../schemas/profile';
import { nthPage } from '../list-body';
import { type PlannedRequest, listRequest } from './plan';
import { read } from './reads';

// ---------------------------------------------------------------- PAGE

/** PAGE-07's edges of each paging field, each a list of its own. */
export function invalidPagings(profile: Profile): { what: string; number: unknown; size: unknown; planned: PlannedRequest }[] {
  const { pageNumber, pageSize } = profile.list;
  const invalid: [string, unknown, unknown][] = [
    [`${pageNumber.field} below its minimum`, pageNumber.minimum - 1, undefined],
    [`negative ${pageNumber.field}`, -1, undefined],
    [`fractional ${pageNumber.field}`, 1.5, undefined],
    [`${pageSize.field} below its minimum`, undefined, pageSize.minimum - 1],
    [`${pageSize.field} above its maximum`, undefined, pageSize.maximum + 1],
  ];
  // No numeral strings ("1"): "All fields are strings unless noted", and the paging fields' types are not shown.
  return invalid.map(([what, number, size]) => ({ what, number, size, planned: pagingRequest(profile, { pageNumber: number, pageSize: size }) }));
}

/** A list of nothing but paging values: shared by PAGE-07's two tests, which often draw the same edges (0, -1). */
export const pagingRequest = (profile: Profile, paging: { pageNumber?: unknown; pageSize?: unknown }): PlannedRequest => listRequest(listBody(profile, paging));

/** The smallest double above a positive n: a fraction that prints as n with 15 significant digits (Perl's). */
function nextAbove(n: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

type Paging = { pageNumber: unknown } | { pageSize: unknown };

/** PAGE-07's property: a list with one paging value out of its bounds, and the examples every run tries. */
export function invalidPaging(profile: Profile): { body: fc.Arbitrary<Paging>; examples: [Paging][] } {
  const { pageNumber, pageSize } = profile.list;
  const badNumber = fc.oneof(
    fc.integer({ min: -1_000, max: pageNumber.minimum - 1 }),
    fc.double({ min: pageNumber.minimum, max: 1_000, noNaN: true, noInteger: true }),
  );
  // Above the maximum is not invalid where the profile clamps: PAGE-07's own test judges that case.
  const badSize = fc.oneof(
    fc.integer({ min: -1_000, max: pageSize.minimum - 1 }),
    ...(pageSize.aboveMaximum === 'refuse' ? [fc.integer({ min: pageSize.maximum + 1, max: 1_000_000 })] : []),
    fc.double({ min: pageSize.minimum, max: pageSize.maximum, noNaN: true, noInteger: true }),
  );
  const body = fc.oneof(
    badNumber.map((n): Paging => ({ pageNumber: n as unknown })),
    badSize.map((s): Paging => ({ pageSize: s as unknown })),
  );
  // Every run also tries the fraction just above a valid PageSize and PageNumber (1.0000000000000002): Perl prints it as 1, so a
  // Dancer2 server built blind from the spec served that PageSize as 1 and, the PageNumber passed to SQLite's OFFSET,
  // answered 500. The generated doubles come that close only by chance. The size first: another profile's choice, which
  // must not hide the 500 (mismatchesLast).
  const justAbove = (n: number) => nextAbove(Math.max(1, n));
  const size = justAbove(pageSize.minimum);
  const examples: [Paging][] = [[{ pageNumber: justAbove(pageNumber.minimum) }]];
  if (size < pageSize.maximum) examples.unshift([{ pageSize: size }]);
  // The edges PAGE-07's own test sends (invalidPagings) are in the property's domain: runs of it too, each answer sent
  // once and judged by both. fast-check counts examples among numRuns, so it draws that many fewer (cost to the target).
  for (const { number, size: bad } of invalidPagings(profile))
    if (number !== undefined) examples.push([{ pageNumber: number }]);
    else if (pageSize.aboveMaximum === 'refuse' || (bad as number) <= pageSize.maximum) examples.push([{ pageSize: bad }]);
  return { body, examples };
}

/** PAGE-02's property: pages within the run's groups (a page past the end is PAGE-06's, list.pageNumber.pastEnd), and the list of each. */
export function echoedPaging(
  profile: Profile,
  dataset: Dataset,
): {
  paging: fc.Arbitrary<{ number: number; size: number }>;
  planned: (p: { number: number; size: number }) => PlannedRequest;
  examples: [{ number: number; size: number }][];
} {
  const { pageNumber, pageSize } = profile.list;
  const { ids, query } = pagesOf(profile, dataset);
  // Page n of size s is within while (n-1)*s < the groups.
  const lastWithin = (size: number) => Math.max(pageNumber.minimum, Math.ceil(ids.length / size) - 1 + pageNumber.minimum);
  const paging = fc
    .integer({ min: pageSize.minimum, max: pageSize.maximum })
    .chain((size) => fc.record({ number: fc.integer({ min: pageNumber.minimum, max: lastWithin(size) }), size: fc.constant(size) }));
  // The pages PAGE-01, PAGE-02 and PAGE-04 read of the same query are in the property's domain: runs of it too, each
  // answer sent once and judged by all. fast-check counts examples among numRuns, so it draws that many fewer.
  const fixed = [...firstPagesOfSizes(profile, dataset), ...pagesWithin(profile, dataset), ...twoPages(profile, dataset)]
    .map(({ pageNumber: number, pageSize: size }) => ({ number, size }))
    .filter(({ number, size }) => size >= pageSize.minimum && size <= pageSize.maximum && number <= lastWithin(size));
  const examples = [...new Map(fixed.map((p) => [JSON.stringify(p), [p] as [typeof p]])).values()];
  return { paging, examples, planned: ({ number, size }) => listRequest(listBody(profile, { ...query, pageNumber: number, pageSize: size })) };
}

/** The run's primary groups, paged two at a time: enough for three pages, the last one short. */
export const PAGE_SIZE = 2;

/** A page of the run's groups (pagesOf) and its request. */
type Page = { pageNumber: number; pageSize: number; planned: PlannedRequest };

/** These pages of the run's groups (pagesOf), each [n-th page, page size]. */
function pagesOfRun(profile: Profile, dataset: Dataset, pagings: [n: number, pageSize: number][]): Page[] {
  const { query } = pagesOf(profile, dataset);
  return pagings.map(([n, pageSize]) => {
    const pageNumber = nthPage(profile, n);
    return { pageNumber, pageSize, planned: read(profile, { ...query, pageNumber, pageSize }) };
  });
}

/** PAGE-01's: the first page of the run's groups (pagesOf) of size 1 and of PAGE_SIZE. */
export const firstPagesOfSizes = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [1, 1],
    [1, PAGE_SIZE],
  ]);

/** PAGE-02's: pages within the result (what a page past the end says is PAGE-06's, the profile's list.pageNumber.pastEnd). */
export const pagesWithin = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [2, PAGE_SIZE],
    [1, profile.list.pageSize.maximum],
    [2, 3],
  ]);

/** PAGE-03's: the run's groups with no paging values, where a query lists them alone (else the preflight's {} is judged). */
export function withoutPaging(profile: Profile, dataset: Dataset): PlannedRequest[] {
  const { query, confined } = pagesOf(profile, dataset);
  return confined ? [read(profile, query)] : [];
}

/** PAGE-06's page past the end of the run's groups, where a query lists them alone (pagedGroups' namesakes otherwise: the test's own). */
export function pastEnd(profile: Profile, dataset: Dataset): PlannedRequest[] {
  const { ids, query, confined } = pagesOf(profile, dataset);
  return confined ? [read(profile, { ...query, pageNumber: nthPage(profile, Math.ceil(ids.length / PAGE_SIZE)) + 1, pageSize: PAGE_SIZE })] : [];
}

/** PAGE-04's: pages 1 and 2 of PAGE_SIZE. */
export const twoPages = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [1, PAGE_SIZE],
    [2, PAGE_SIZE],
  ]);
