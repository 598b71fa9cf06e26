import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, idsOf, items, named, owned, show, type Check, type CheckContext, type Failure, type Item, type Step } from './kit';
import { resultPresent, status200 } from './envelope';
import { tokenAccepted } from './errors';

// CREATE, LIST, PAGE, SCOPE, CHAN and SCHEMA: what a create answered and what a list holds.

export function createdWithId(ex: Exchange): Failure | undefined {
  const id = readPointer(ex.response?.json, '/Result/Id');
  if (ex.response?.status !== 200 || typeof id !== 'string' || id.trim() === '') {
    return fail(createdWithId, ex.response ? `HTTP ${ex.response.status}, Result.Id ${show(id)}` : `no response: ${ex.networkError}`, 'Success: HTTP 200, JSON envelope with Result = { Id: string <group_id> }.', 'answer a valid create with 200 and the new group\'s logical Id in Result.Id');
  }
  return undefined;
}

/** SCHEMA-01: the create's Result carries the Id alone ("It is the only field returned by create."). */
export function resultOnlyId(ex: Exchange): Failure | undefined {
  const result = readPointer(ex.response?.json, '/Result');
  const extra = typeof result === 'object' && result !== null ? Object.keys(result).filter((key) => key !== 'Id') : [];
  if (extra.length) return fail(resultOnlyId, `Result carries ${show(extra)} beside Id`, 'Assigned by the service. It is the only field returned by create.', 'return only the new group\'s Id from CreateAssetGroup');
  return undefined;
}

/**
 * A list answer the asking requirement can read: the 200 is its own finding (the query was
 * accepted); a missing Result is ENV-06's and an Items that is not an array is SCHEMA-02's.
 */
export const LISTED: Step[] = [owned('AUTH-05', tokenAccepted), status200, owned('ENV-06', resultPresent), owned('SCHEMA-02', listShape)];
/** LISTED where the 200 itself is another requirement's (the query of a filter that requirement owns). */
export const listedBy = (owner: string): Step[] => [...succeeded(owner), owned('ENV-06', resultPresent), owned('SCHEMA-02', listShape)];

/** A success as its owner's to give: the token accepted (AUTH-05's), then the 200 (the owner's). */
export const succeeded = (owner: string): Step[] => [owned('AUTH-05', tokenAccepted), owned(owner, status200)];

/** No more matches counted than groups asked for by Id: more means the Id filter let others in (LIST-04's). */
export function totalAtMost(n: number): Check {
  return named('totalAtMost', (ex) => {
    const total = readPointer(ex.response?.json, '/Result/TotalCount');
    if (typeof total !== 'number' || total <= n) return undefined;
    return fail('totalAtMost', `TotalCount ${total} for a query by ${n} Ids`, `at most the ${n} groups asked for match`, 'apply the Id filter before counting');
  });
}

/** The filters of a list query, in the kit's terms (suites/list-body.ts turns them into the profile's field names). */
export interface FilterQuery {
  assetSpaceId?: string;
  groupType?: string;
  groupIds?: string[];
  name?: string;
}

/**
 * What each filter of a query promises about every item, owned by that filter's requirement: a
 * test that uses filters to reach for something else (a scope boundary, a page) judges its own
 * point only where the filters themselves held.
 */
export function filtersHold(query: FilterQuery): Step[] {
  // Items that cannot be read, or a TotalCount that is not a number, are SCHEMA-02's, whatever was asked.
  const steps: Step[] = [owned('SCHEMA-02', listShape)];
  if (query.assetSpaceId !== undefined) steps.push(owned('LIST-02', everyItem(`AssetSpaceId = ${query.assetSpaceId}`, (item) => item.AssetSpaceId === query.assetSpaceId, 'filtering by asset space')));
  if (query.groupType !== undefined) steps.push(owned('LIST-03', everyItem(`GroupType = ${query.groupType}`, (item) => item.GroupType === query.groupType, 'filtering by group type')));
  if (query.groupIds !== undefined) steps.push(owned('LIST-04', everyItem('Id is one of those asked for', (item) => query.groupIds!.includes(item.Id as string), 'filtering by logical ID')));
  // Every nameMatch setting's matches contain the query, ignoring case: exact and prefix matches are substrings too.
  if (query.name !== undefined) steps.push(owned('LIST-05', everyItem(`Name contains ${JSON.stringify(query.name)}`, (item) => typeof item.Name === 'string' && item.Name.toLowerCase().includes(query.name!.toLowerCase()), 'filtering by name')));
  return steps;
}

/**
 * For queries that reach for what the caller may not see: a refusal (any 4xx: the spec documents
 * 400 and 403 for lists) finds nothing, and so does a list without those groups.
 */
export function refusedOrNoneOf(forbidden: string[], why: string): Check {
  return named('refusedOrNoneOf', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    if (status !== 200 || !items(ex)) return fail('refusedOrNoneOf', ex.response ? `HTTP ${status}: ${show(ex.response.json ?? ex.response.body.slice(0, 200))}` : `no response: ${ex.networkError}`, `${why} (a list without them, or a 4xx refusal)`, 'answer a list scoped to the caller, or refuse the query');
    const leaked = idsOf(ex).filter((id) => forbidden.includes(id as string));
    if (leaked.length) return fail('refusedOrNoneOf', `Items include ${show(leaked)}`, why, 'filter results by the caller\'s user and the token\'s channel before any other filter');
    return undefined;
  });
}

/** A query that names only groups the caller may not see counts none of them: a refusal, or TotalCount 0. */
export function refusedOrCountsNone(why: string): Check {
  return named('refusedOrCountsNone', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    const total = readPointer(ex.response?.json, '/Result/TotalCount');
    if (total === 0) return undefined;
    return fail('refusedOrCountsNone', `TotalCount ${show(total)} with Items ${show(idsOf(ex))}`, `${why} TotalCount 0: nothing the caller may not see is counted`, 'count only the groups the caller may see');
  });
}

/** For unusual filter values (a space or type no group has): an empty list or a 4xx refusal both conform. */
export function refusedOrEmpty(ex: Exchange): Failure | undefined {
  const status = ex.response?.status ?? 0;
  if (status >= 400 && status < 500) return undefined;
  const list = items(ex);
  const total = readPointer(ex.response?.json, '/Result/TotalCount');
  if (status === 200 && list && list.length === 0 && total === 0) return undefined;
  return fail(refusedOrEmpty, ex.response ? `HTTP ${status}, Items ${show(idsOf(ex))}, TotalCount ${show(total)}` : `no response: ${ex.networkError}`, 'a filter value no group has matches nothing: Items [] and TotalCount 0 (or the query is refused with a 4xx)', 'apply the filter; a value that matches nothing gives an empty page');
}

/** The page holds exactly these Ids (in any order; no order is documented). */
export function listsExactly(expected: string[]): Check {
  return named('listsExactly', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    const extra = got.filter((id) => !expected.includes(id as string));
    if (missing.length || extra.length || got.length !== expected.length) {
      if (missing.length && !extra.length) return { ...fail('listsExactly', `Items Ids ${show(got)}; missing ${show(missing)}`, `exactly ${show(expected)}`, 'list every group of the caller that matches the filters'), missing };
      return fail('listsExactly', `Items Ids ${show(got)}${missing.length ? `; missing ${show(missing)}` : ''}${extra.length ? `; unexpected ${show(extra)}` : ''}`, `exactly ${show(expected)}`, 'apply every filter of the request, and only those, to the caller\'s groups');
    }
    return undefined;
  });
}

export function listsIncluding(expected: string[]): Check {
  return named('listsIncluding', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    if (missing.length) return { ...fail('listsIncluding', `Items Ids ${show(got)}; missing ${show(missing)}`, `includes ${show(expected)}`, 'list every group of the caller that matches the filters'), missing };
    return undefined;
  });
}

export function listsNoneOf(forbidden: string[], why: string): Check {
  return named('listsNoneOf', (ex) => {
    const leaked = idsOf(ex).filter((id) => forbidden.includes(id as string));
    if (leaked.length) return fail('listsNoneOf', `Items include ${show(leaked)}`, why, 'filter results by the caller\'s user and the token\'s channel before any other filter');
    return undefined;
  });
}

export function everyItem(description: string, predicate: (item: Item) => boolean, documented: string): Check {
  return named('everyItem', (ex) => {
    const bad = (items(ex) ?? []).filter((item) => !predicate(item));
    if (bad.length) return fail('everyItem', `${bad.length} item(s) where ${description} does not hold, e.g. ${show(bad[0])}`, documented, 'return only groups that match every filter sent');
    return undefined;
  });
}

export function totalCountIs(expected: number): Check {
  return named('totalCountIs', (ex) => {
    const got = readPointer(ex.response?.json, '/Result/TotalCount');
    if (got !== expected) return fail('totalCountIs', `TotalCount ${show(got)} (Items on this page: ${items(ex)?.length})`, `TotalCount | integer | Number of matching groups: ${expected}`, 'count every match of the query, not the items of the page');
    return undefined;
  });
}

export function pagingEchoes(pageNumber: number, pageSize: number): Check {
  return named('pagingEchoes', (ex) => {
    const got = { PageNumber: readPointer(ex.response?.json, '/Result/PageNumber'), PageSize: readPointer(ex.response?.json, '/Result/PageSize') };
    if (got.PageNumber !== pageNumber || got.PageSize !== pageSize) {
      return fail('pagingEchoes', `PageNumber ${show(got.PageNumber)}, PageSize ${show(got.PageSize)}`, `PageNumber ${pageNumber}, PageSize ${pageSize}: "Page number / Page size of this result"`, 'report the page number and page size the result was computed with');
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
    const failure = fail('itemsAtMost', `${list.length} items for a page size of ${size} (Result.PageSize ${show(echoed)})`, 'PageSize | integer | Page size of this result.', 'never return more items than the page size');
    const field = ctx.profile.list.pageSize.field;
    return echoed !== size && typeof echoed === 'number' && list.length <= echoed ? { ...failure, profileMismatch: `the target answered ${list.length} items with PageSize ${echoed} to ${field}: ${size}; it seems not to read ${field}: set list.pageSize.field (and list.pageNumber.field)` } : failure;
  });
}

/** For probes that must not widen a match (wildcards): a refusal, or items whose Name contains the query as written. */
export function literalNameMatch(query: string): Check {
  return named('literalNameMatch', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    const bad = (items(ex) ?? []).filter((item) => typeof item?.Name !== 'string' || !item.Name.toLowerCase().includes(query.toLowerCase()));
    if (status === 200 && items(ex) && !bad.length) return undefined;
    return fail('literalNameMatch', status === 200 ? `${bad.length} item(s) whose Name does not contain ${show(query)}, e.g. ${show(bad[0]?.Name)}` : `HTTP ${status}`, `filtering by name: ${show(query)} is matched as written (no wildcards)`, 'escape LIKE/glob/regex metacharacters of the name filter');
  });
}

/** The list item of a created group carries back every field that was sent, unchanged. */
export function itemMatchesSent(id: string, sent: Record<string, string>, defaults: Record<string, string>): Check {
  return named('itemMatchesSent', (ex) => {
    const item = (items(ex) ?? []).find((candidate) => candidate?.Id === id);
    if (!item) return { ...fail('itemMatchesSent', `no item with Id ${id} in ${show(idsOf(ex))}`, 'the created group is listed by its Id', 'list created groups once they are in the snapshot'), missing: [id] };
    const expected = { ...defaults, ...sent };
    const changed = Object.entries(expected).filter(([field, value]) => item[field] !== value);
    if (changed.length) {
      return fail('itemMatchesSent', changed.map(([field, value]) => `${field} ${show(item[field])} (sent ${show(value)})`).join('; '), 'Name, Title, Description, GroupType, ProjectName: create request; list item', 'store and return the create fields exactly as sent (no trimming, re-encoding or truncation)');
    }
    return undefined;
  });
}

/** SCHEMA-03: the spec's own words, "ISO 8601 UTC timestamp": any form that denotes UTC (Z, +00:00, +0000, any fraction). */
export function timestampsUtc(ex: Exchange, ctx: CheckContext): Failure | undefined {
  for (const item of items(ex) ?? []) {
    for (const field of ['CreateTime', 'UpdateTime']) {
      const result = ctx.validate('Timestamp', item?.[field]);
      if (!result.valid) return fail(timestampsUtc, `${field} ${show(item?.[field])} of ${show(item?.Id)}: not an ISO 8601 timestamp in UTC`, 'CreateTime | string, ISO 8601 UTC timestamp <timestamp>', 'write timestamps in UTC: 2024-01-01T12:00:00Z, or with a zero offset (+00:00)');
    }
  }
  return undefined;
}

/** SCHEMA-05: the profile's narrower timestamp form (reference: RFC 3339 with Z). A warning: the spec allows any UTC form. */
export function timestampsInProfileFormat(ex: Exchange, ctx: CheckContext): Failure | undefined {
  for (const item of items(ex) ?? []) {
    for (const field of ['CreateTime', 'UpdateTime']) {
      if (!ctx.validate('Timestamp', item?.[field]).valid) continue; // not UTC at all: SCHEMA-03's
      if (!ctx.validate('ProfileTimestamp', item?.[field]).valid) {
        return fail(timestampsInProfileFormat, `${field} ${show(item?.[field])} of ${show(item?.Id)}`, `profile "${ctx.profile.name}": timestamps.format ${ctx.profile.timestamps.format}`, 'write RFC 3339 with Z (2024-01-01T12:00:00Z), or state your format in your profile (timestamps.format: iso8601-utc)');
      }
    }
  }
  return undefined;
}

/** When the kit sent each of its creates and when the answer came, by the kit's clock (epoch ms). */
export interface CreateWindow {
  sentAt: number;
  answeredAt: number;
}

/**
 * SCHEMA-03: a timestamp labelled UTC is UTC. A CreateTime hours away from when the kit's own clock
 * saw the create is local time under a UTC label (a host in UTC+8 writing `Z`); the skew allowed for
 * two clocks is AG_CLOCK_SKEW_MS.
 */
export function timestampsNearClock(windows: Map<string, CreateWindow>, skewMs: number, now: number): Check {
  return named('timestampsNearClock', (ex) => {
    for (const item of items(ex) ?? []) {
      const window = windows.get(item?.Id as string);
      if (!window) continue;
      for (const [field, latest] of [['CreateTime', window.answeredAt], ['UpdateTime', now]] as const) {
        const at = Date.parse(String(item?.[field]));
        if (Number.isNaN(at)) continue; // the form is timestampsUtc's
        const off = at < window.sentAt - skewMs ? at - window.sentAt : at > latest + skewMs ? at - latest : 0;
        if (off === 0) continue;
        const hours = off / 3_600_000;
        const whole = Math.abs(hours - Math.round(hours * 4) / 4) < 0.05 && Math.abs(hours) >= 0.25 ? ` (${Math.round(hours * 4) / 4} h: local time of UTC${hours > 0 ? '+' : '-'}${Math.abs(Math.round(hours * 4) / 4)} labelled as UTC?)` : '';
        return fail('timestampsNearClock', `${field} ${show(item?.[field])} of ${show(item?.Id)} is ${Math.round(Math.abs(off) / 1000)} s ${off > 0 ? 'ahead of' : 'behind'} the kit's clock at the create${whole}`, 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.', `write the time in UTC; the kit allows ${Math.round(skewMs / 1000)} s of clock skew (AG_CLOCK_SKEW_MS)`);
      }
    }
    return undefined;
  });
}

export function updateNotBeforeCreate(ex: Exchange): Failure | undefined {
  for (const item of items(ex) ?? []) {
    const created = Date.parse(String(item?.CreateTime));
    const updated = Date.parse(String(item?.UpdateTime));
    if (!(updated >= created)) return fail(updateNotBeforeCreate, `CreateTime ${show(item?.CreateTime)}, UpdateTime ${show(item?.UpdateTime)} for ${show(item?.Id)}`, 'UpdateTime is set by the service at or after CreateTime', 'set UpdateTime to the creation time on create');
  }
  return undefined;
}

/**
 * SCHEMA-02's precondition on every list answer the kit reads: a 200 whose Items is not an array, or
 * whose TotalCount, PageNumber or PageSize is not an integer, cannot be judged by any other check.
 * Other statuses are not this check's business.
 */
export function listShape(ex: Exchange): Failure | undefined {
  if (ex.response?.status !== 200 || readPointer(ex.response.json, '/Result') === undefined) return undefined;
  if (!items(ex)) return fail(listShape, `Result.Items ${show(readPointer(ex.response.json, '/Result/Items'))}`, 'Items | array of asset group (an empty page is [])', 'answer Result.Items as an array, [] when nothing matches (not null)');
  const bad = ['TotalCount', 'PageNumber', 'PageSize'].filter((field) => !Number.isInteger(readPointer(ex.response!.json, `/Result/${field}`)));
  if (bad.length) return fail(listShape, bad.map((field) => `Result.${field} ${show(readPointer(ex.response!.json, `/Result/${field}`))}`).join(', '), 'TotalCount, PageNumber, PageSize | integer', 'write the paging fields as JSON integers');
  // Every item carries the asset-group table's nine fields as strings: an omitted empty one (Go's omitempty) or an Id
  // of another JSON type is found here once, not as a changed value by every requirement that reads the item.
  for (const item of items(ex)!) {
    const wrong = typeof item === 'object' && item !== null ? ITEM_FIELDS.filter((field) => typeof item[field] !== 'string') : ['the item itself'];
    if (wrong.length) return fail(listShape, `item ${show(item)}: ${wrong.join(', ')} ${wrong.length > 1 ? 'are' : 'is'} not ${wrong.length > 1 ? 'strings' : 'a string'}`, 'Items | array of asset group | Fields as in the asset-group table (Id, AssetSpaceId, Name, GroupType, ProjectName, CreateTime, UpdateTime, Title, Description).', 'write every field of a list item, as a string, empty ones included');
  }
  return undefined;
}

/** The asset-group table's fields; "All fields are strings unless noted." */
const ITEM_FIELDS = ['Id', 'AssetSpaceId', 'Name', 'Title', 'Description', 'GroupType', 'ProjectName', 'CreateTime', 'UpdateTime'];
export const SHAPED: Step = owned('SCHEMA-02', listShape);

/**
 * PAGE-07: a paging value outside the profile's bounds is refused with 400 (the kind is ERR-02's).
 * A PageSize above the maximum is the one exception the profile may make: served as the maximum, and
 * said so in Result.PageSize (list.pageSize.aboveMaximum: clamp, as Django REST framework and Spring
 * Data do). Answers that show the other of the two choices are a mismatch naming that setting.
 */
export function pagingBounds(field: 'pageNumber' | 'pageSize', value: unknown): Check {
  return named('pagingBounds', (ex, ctx) => {
    const { pageSize } = ctx.profile.list;
    const status = ex.response?.status;
    const echoed = readPointer(ex.response?.json, '/Result/PageSize');
    const aboveMaximum = field === 'pageSize' && typeof value === 'number' && Number.isInteger(value) && value > pageSize.maximum;
    const clamped = status === 200 && echoed === pageSize.maximum && (items(ex)?.length ?? 0) <= pageSize.maximum;
    const clamps = aboveMaximum && pageSize.aboveMaximum === 'clamp';
    if (clamps ? clamped : status === 400) return undefined;
    const received = ex.response ? `HTTP ${status} for ${ctx.profile.list[field].field}: ${show(value)}${status === 200 ? ` (Result.PageSize ${show(echoed)}, ${items(ex)?.length ?? '?'} items)` : ''}` : `no response: ${ex.networkError}`;
    const failure = clamps
      ? fail('pagingBounds', received, `${pageSize.field} ${show(value)} served as ${pageSize.maximum}, and Result.PageSize ${pageSize.maximum} (profile "${ctx.profile.name}": list.pageSize.aboveMaximum clamp)`, 'serve a page size above the maximum as the maximum and say so in Result.PageSize')
      : fail('pagingBounds', received, `HTTP 400: ${ctx.profile.list[field].field} ${show(value)} is outside the profile's bounds (profile "${ctx.profile.name}")`, 'refuse paging values outside the bounds with 400 AssetBadRequest, or state your bounds in your profile');
    if (aboveMaximum && !clamps && clamped) return { ...failure, profileMismatch: `a ${pageSize.field} of ${value} was served as ${pageSize.maximum} (Result.PageSize ${pageSize.maximum}): the target clamps; set list.pageSize.aboveMaximum: clamp` };
    if (clamps && status === 400) return { ...failure, profileMismatch: `a ${pageSize.field} of ${value} was refused with HTTP 400: the target refuses rather than clamps; set list.pageSize.aboveMaximum: refuse` };
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
    const observed = status >= 400 && status < 500 ? 'refuse' : status === 200 && list?.length === 0 ? 'empty' : status === 200 && list && list.length > 0 && number === lastPage ? 'last' : undefined;
    const expected = ctx.profile.list.pageNumber.pastEnd;
    if (observed === expected) return undefined;
    const failure = fail('pastEndAnswer', ex.response ? `page ${asked} (past the last page, ${lastPage}, of ${total} matches): HTTP ${status}, ${list ? `${list.length} items` : 'no Items'}, Result.PageNumber ${show(number)}` : `no response: ${ex.networkError}`, `profile "${ctx.profile.name}": list.pageNumber.pastEnd ${expected}${expected === 'last' ? ` (the last page, Result.PageNumber ${lastPage})` : ''}; PageNumber | integer | Page number of this result.`, 'answer a page past the end with an empty page, or with the last page and its own PageNumber, or refuse it; never another page under the number asked');
    return observed ? { ...failure, profileMismatch: `a page past the end was answered ${observed === 'refuse' ? `HTTP ${status}` : observed === 'last' ? `with the last page (Result.PageNumber ${lastPage})` : 'with an empty page'}; set list.pageNumber.pastEnd: ${observed}` } : failure;
  });
}
