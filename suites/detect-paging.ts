/**
 * Does the target read the profile's paging fields, and count pages from where the profile does? Detected by the
 * create-and-wait phase (suites/dataset-setup.ts) with pages of size 1 over the run's groups; where a field goes unread,
 * the names this family of APIs uses are tried, so that the mismatch names the setting that fits.
 */
import { Api, listBody, nthPage, type ListQuery } from './api';
import type { Exchange } from '../client/exchange';
import { itemsOf, show } from './checks';
import { FIELD_NAME_CANDIDATES, readPointer, type Profile } from '../schemas/profile';
import { confinedQuery, primaryNamePart } from './dataset-queries';
import type { Dataset } from './dataset';
import { seenPrimary } from './detect';

/**
 * Pages of size 1 over the run's visible primary groups (or the user's whole list, which holds them:
 * pagesOf): does the target read the profile's paging fields at all? A first page holding more than one, or a second page holding the first page's group
 * under another PageNumber than the second's, shows it does not. And does it count pages from where the
 * profile does? A page before the profile's first, served with its items under that very PageNumber,
 * shows a target that counts from 0 (Spring Data's Pageable). Either way the paging requirements are
 * then not assessable, with the settings that fit.
 */
export async function detectPaging(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  if (seen.length < 2) return;
  const { pageNumber, pageSize } = profile.list;
  // The suites' paged query (pagesOf): the Ids, or under a one-Id filter the Name part the primary groups share, or where
  // the Name filter matches whole Names the user's whole list, which holds them and maybe more.
  const confined = confinedQuery(profile, seen, primaryNamePart(dataset));
  const query = confined ?? {};
  const before = pageNumber.minimum - 1;
  const [first, second, earlier] = await Promise.all([
    ...[1, 2].map((n) => api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: nthPage(profile, n), pageSize: 1 }))),
    // The page before the first, of the same query: a target that clamps a negative offset to 0 (SQLite) serves the first page's group there.
    api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: before, pageSize: 1 })),
  ]);
  const held = itemsOf(first).length;
  const echoed = readPointer(first.response?.json, '/Result/PageSize');
  const ids = (ex: Exchange) => itemsOf(ex).map((item) => item.Id);
  if (held > 1 && echoed !== 1) {
    // The spec names no paging request field: under another name this family's APIs use, one may take effect.
    const size = await pagingFieldNamed(api, profile, query, 'pageSize');
    const sizeField = size?.name;
    const numberField = size && (await pagingFieldNamed(api, profile, query, 'pageNumber', size.name, size.firstId))?.name;
    (dataset.profileMismatch ??= {}).paging = sizeField
      ? `a page asked with ${pageSize.field}: 1 held ${held} items, and with ${sizeField}: 1 one: the target reads the page size as ${sizeField}; set list.pageSize.field: ${sizeField}${numberField ? ` and list.pageNumber.field: ${numberField}` : ''}`
      : `a page asked with ${pageSize.field}: 1 held ${held} items and Result.PageSize ${show(echoed)}, and so under every other name the kit knows (${otherNames(profile, 'pageSize').join(', ')}): the target seems not to read ${pageSize.field} (and ${pageNumber.field}); set list.pageSize.field and list.pageNumber.field`;
    return;
  }
  const number = readPointer(second.response?.json, '/Result/PageNumber');
  if (held === 1 && JSON.stringify(ids(first)) === JSON.stringify(ids(second)) && number !== nthPage(profile, 2)) {
    const numberField = (await pagingFieldNamed(api, profile, query, 'pageNumber', pageSize.field, ids(first)[0]))?.name;
    (dataset.profileMismatch ??= {}).paging = numberField
      ? `pages asked with ${pageNumber.field}: ${nthPage(profile, 1)} and ${nthPage(profile, 2)} held the same group, and with ${numberField}: ${nthPage(profile, 2)} another: the target reads the page number as ${numberField}; set list.pageNumber.field: ${numberField}`
      : `pages asked with ${pageNumber.field}: ${nthPage(profile, 1)} and ${nthPage(profile, 2)} held the same group, and the second said Result.PageNumber ${show(number)}: the target seems not to read ${pageNumber.field}; set list.pageNumber.field`;
    return;
  }
  // Another group than the first page's, under the PageNumber asked: a page of its own. One that only echoes the number
  // over the first page's group (an offset below 0 clamped) is an invalid value served, PAGE-07's finding.
  const earlierIds = ids(earlier);
  if (
    earlier.response?.status === 200 &&
    readPointer(earlier.response.json, '/Result/PageNumber') === before &&
    earlierIds.length === 1 &&
    held === 1 &&
    earlierIds[0] !== ids(first)[0] &&
    (!confined || seen.includes(earlierIds[0] as string))
  ) {
    const defaultToo = readPointer(dataset.shared.emptyList.response?.json, '/Result/PageNumber') === before ? ` and list.pageNumber.default: ${before}` : '';
    (dataset.profileMismatch ??= {}).paging =
      `${pageNumber.field}: ${before} of size 1 was served with Result.PageNumber ${before} and another group than ${pageNumber.field}: ${pageNumber.minimum}: the target counts pages from ${before}, not ${pageNumber.minimum}; set list.pageNumber.minimum: ${before}${defaultToo}`;
  }
}

/** The paging names APIs of this family use (FIELD_NAME_CANDIDATES), but the profile's own. */
const otherNames = (profile: Profile, key: 'pageSize' | 'pageNumber'): string[] =>
  FIELD_NAME_CANDIDATES[key].filter((name) => name !== profile.list[key].field);

/**
 * The first other name of a paging field under which the target pages: a page of size 1 holding one item (pageSize), or,
 * with the page size under `sizeField`, the second page of size 1 holding another group than the first (pageNumber).
 * Sent at the top level of the body, where the profile puts its paging fields. Only where the phase saw the profile's
 * name go unread: each name one request, all at once.
 */
async function pagingFieldNamed(
  api: Api,
  profile: Profile,
  query: ListQuery,
  key: 'pageSize' | 'pageNumber',
  sizeField = profile.list.pageSize.field,
  firstId?: unknown,
): Promise<{ name: string; firstId: unknown } | undefined> {
  const { pageNumber, pageSize } = profile.list;
  const base = listBody(profile, query);
  delete base[pageSize.field];
  delete base[pageNumber.field];
  const names = otherNames(profile, key).filter((name) => name !== sizeField);
  const answers = await Promise.all(
    names.map((name) => api.call('ListAssetGroups', key === 'pageSize' ? { ...base, [name]: 1 } : { ...base, [sizeField]: 1, [name]: nthPage(profile, 2) })),
  );
  const fits = (ex: Exchange) =>
    ex.response?.status === 200 && itemsOf(ex).length === 1 && (key === 'pageSize' || (firstId !== undefined && itemsOf(ex)[0].Id !== firstId));
  const i = answers.findIndex(fits);
  return i < 0 ? undefined : { name: names[i], firstId: itemsOf(answers[i])[0].Id };
}
