import type { Exchange } from './exchange';
import type { Profile } from '../schemas/profile';
import { readPointer } from '../schemas/profile';

/**
 * Checks are small named pure functions over one captured exchange: they never send a request.
 * A check's function name is its key in reports and docs. It answers undefined when the exchange
 * satisfies it, or a Failure saying what was received, what the spec or profile documents, and
 * how a server author fixes it.
 */
export interface Failure {
  check: string;
  received: string;
  documented: string;
  fix: string;
  /**
   * Set when what was received shows the target follows another profile (a field name, the place
   * of the error kind): the requirement is then not assessable rather than failed, and this says
   * which profile setting probably fits.
   */
  profileMismatch?: string;
  /**
   * Ids of groups the check expected in a list and did not find. A group seen before and missing
   * now may be lost (VIS-02) rather than filtered out: the suite reads it back by Id to tell which.
   */
  missing?: string[];
}

export interface CheckContext {
  profile: Profile;
  validate: (component: string, data: unknown) => { valid: boolean; errors: string[] };
  /** The spec's error table for an operation: status -> error kind. */
  errorKinds: (operationId: string) => Record<number, string>;
}

export type Check = (exchange: Exchange, context: CheckContext) => Failure | undefined;

/** A check over several exchanges together (distinct Ids, pages that partition a result). */
export type MultiCheck = (exchanges: Exchange[], context: CheckContext) => Failure | undefined;

/**
 * A check whose finding belongs to another requirement. A test applies it as a precondition of
 * its own judgement: where it fails, the finding is that requirement's and the test is blocked by
 * it, so one deviation is reported once, by the requirement that owns it.
 */
export interface Owned {
  owner: string;
  check: Check;
}
export const owned = (owner: string, check: Check): Owned => ({ owner, check });

/** The answer parses as JSON: ENV-05's finding wherever another requirement needs to read a body. */
export const JSON_ANSWER: Owned = owned('ENV-05', answeredWithJson);

/** The envelope is ENV-01's on a success and ENV-02's on an error; other requirements read it as a precondition. */
export const envelopeOf = (ex: Exchange): Owned => owned((ex.response?.status ?? 0) >= 400 ? 'ENV-02' : 'ENV-01', envelopePresent);
/** What a test applies to an exchange: its own checks, and preconditions owned by other requirements. */
export type Step = Check | Owned;

export const OPERATIONS = ['CreateAssetGroup', 'ListAssetGroups'] as const;
export type OperationId = (typeof OPERATIONS)[number];

const ENVELOPE_FIELDS = ['RequestId', 'Action', 'Version', 'Service', 'Region'] as const;

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

function fail(check: { name: string } | string, received: string, documented: string, fix: string): Failure {
  return { check: typeof check === 'string' ? check : check.name, received, documented, fix };
}

/** The answer is an HTTP response whose body parses as JSON; every other check needs it. */
export function answeredWithJson(ex: Exchange): Failure | undefined {
  if (!ex.response) {
    return fail(answeredWithJson, `no HTTP response: ${ex.networkError}`, 'every request gets a JSON response', 'answer every request, including malformed ones, instead of dropping the connection');
  }
  if (ex.response.json === undefined) {
    return fail(answeredWithJson, `HTTP ${ex.response.status} with a body that is not JSON (${ex.response.jsonError}): ${show(ex.response.body.slice(0, 200))}`, 'The service is an HTTP/JSON interface.', 'answer with a JSON body on every path, errors included');
  }
  return undefined;
}

export function jsonContentType(ex: Exchange): Failure | undefined {
  const type = ex.response?.headers['content-type'];
  if (!type || !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type.trim())) {
    return fail(jsonContentType, `Content-Type ${type === undefined ? '(none)' : show(type)}`, 'The service is an HTTP/JSON interface: Content-Type application/json', 'send Content-Type: application/json on every response, errors included');
  }
  return answeredWithJson(ex);
}

export function envelopePresent(ex: Exchange): Failure | undefined {
  const missing = answeredWithJson(ex);
  if (missing) return { ...missing, check: envelopePresent.name };
  const meta = readPointer(ex.response!.json, '/ResponseMetadata');
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return fail(envelopePresent, `HTTP ${ex.response!.status}, ResponseMetadata ${meta === undefined ? 'absent' : show(meta)}`, 'ResponseMetadata | object | Present on every response.', 'wrap every response, errors included, in the ResponseMetadata envelope');
  }
  const bad = ENVELOPE_FIELDS.filter((field) => typeof (meta as Record<string, unknown>)[field] !== 'string');
  if (bad.length) {
    return fail(envelopePresent, `HTTP ${ex.response!.status}, ResponseMetadata ${show(meta)}: ${bad.join(', ')} missing or not a string`, 'ResponseMetadata carries RequestId, Action, Version, Service and Region, all strings', `set ${bad.join(', ')} on every response`);
  }
  return undefined;
}

export function requestIdNonEmpty(ex: Exchange): Failure | undefined {
  const id = readPointer(ex.response?.json, '/ResponseMetadata/RequestId');
  if (typeof id !== 'string' || id.trim() === '') {
    return fail(requestIdNonEmpty, `RequestId ${show(id)}`, 'ResponseMetadata.RequestId | string | Request identifier <request_id>.', 'give every response a fresh, non-empty request identifier');
  }
  return undefined;
}

export function resultPresent(ex: Exchange): Failure | undefined {
  const result = readPointer(ex.response?.json, '/Result');
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    return fail(resultPresent, `HTTP ${ex.response?.status}, Result ${result === undefined ? 'absent' : show(result)}`, 'Result | object | Operation result; shape depends on the operation.', 'put the operation result in a Result object');
  }
  return undefined;
}

export function status200(ex: Exchange): Failure | undefined {
  if (ex.response?.status !== 200) {
    const code = ex.response ? readPointer(ex.response.json, '') : undefined;
    const failure = fail(status200, ex.response ? `HTTP ${ex.response.status}: ${show(code ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`, 'Success: HTTP 200', 'accept a valid request with a valid Bearer token and answer 200');
    // The kit only sends valid list queries in the profile's terms: refusing one as a bad request
    // says the target does not know those terms (field names, bounds), more likely than that it is broken.
    const refusedQuery = ex.request.action === 'ListAssetGroups' && ex.response?.status === 400 && ex.request.body.trim() !== '{}';
    return refusedQuery ? { ...failure, profileMismatch: `a list query in the profile's terms, ${ex.request.body.slice(0, 200)}, was refused with HTTP 400; the target seems to use other field names or bounds: set list.filterField, list.filters.*, list.pageNumber and list.pageSize` } : failure;
  }
  return undefined;
}

export function echoesVersion(ex: Exchange): Failure | undefined {
  const got = readPointer(ex.response?.json, '/ResponseMetadata/Version');
  const sent = ex.request.version ?? '';
  if (got !== sent) {
    return fail(echoesVersion, `ResponseMetadata.Version ${show(got)} for a request sent with Version ${show(sent)}`, 'The response echoes it [Version] in ResponseMetadata.Version.', 'copy the Version query parameter of the request into ResponseMetadata.Version, on errors too; do not write a constant');
  }
  return undefined;
}

export function echoesAction(ex: Exchange): Failure | undefined {
  const got = readPointer(ex.response?.json, '/ResponseMetadata/Action');
  const sent = ex.request.action ?? '';
  if (got !== sent) {
    return fail(echoesAction, `ResponseMetadata.Action ${show(got)} for a request sent with Action ${show(sent)}`, 'ResponseMetadata.Action | string | Echoes the Action of the request.', 'copy the Action query parameter of the request into ResponseMetadata.Action, on errors too');
  }
  return undefined;
}

/** Gives a built check a readable name, since reports key checks by their function name. */
function named<F extends Check | MultiCheck>(name: string, check: F): F {
  return Object.defineProperty(check, 'name', { value: name });
}

/** The error kinds of the spec's error table. */
export const ERROR_KINDS = ['AssetBadRequest', 'AssetError', 'TokenAuthError', 'UpstreamRateLimit'] as const;

/** The JSON pointer of the first string in `data` that is one of `values`, searching breadth-first. */
export function pointerOf(data: unknown, values: readonly string[]): string | undefined {
  const queue: [unknown, string][] = [[data, '']];
  while (queue.length) {
    const [node, at] = queue.shift()!;
    if (typeof node === 'string' && values.includes(node)) return at;
    if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) queue.push([value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    }
  }
  return undefined;
}

export function statusIs(status: number): Check {
  return named(`statusIs(${status})`, (ex) => {
    if (ex.response?.status === status) return undefined;
    return fail(`statusIs(${status})`, ex.response ? `HTTP ${ex.response.status}: ${show(ex.response.json ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`, `HTTP ${status}`, `answer ${status} here`);
  });
}

/**
 * ERR-01's precondition for every requirement that needs an error kind: the kind can be read at
 * the profile's pointer. Where a kind of the spec's table sits elsewhere in the body, the target
 * follows another profile: not a failure, a mismatch with the setting that would fit.
 */
export function errorKindReadable(ex: Exchange, ctx: CheckContext): Failure | undefined {
  if ((ex.response?.status ?? 0) < 400) return undefined;
  const pointer = ctx.profile.error.codePointer;
  if (typeof readPointer(ex.response!.json, pointer) === 'string') return undefined;
  const elsewhere = pointerOf(ex.response!.json, ERROR_KINDS);
  const failure = fail(errorKindReadable, `HTTP ${ex.response!.status}, no error kind at ${pointer}: ${show(ex.response!.json ?? ex.response!.body.slice(0, 300))}`, `the error kind at ${pointer} (profile "${ctx.profile.name}")`, `put the error kind at ${pointer}, or supply your profile with AG_PROFILE`);
  return elsewhere === undefined ? failure : { ...failure, profileMismatch: `error kind ${show(readPointer(ex.response!.json, elsewhere))} found at ${elsewhere}, not at ${pointer}; set error.codePointer: ${elsewhere}` };
}

/**
 * A response is the given error status, with the error kind the spec's table gives for it. The
 * status is the asking requirement's; whether a kind can be read at all is ERR-01's, and whether
 * it is the table's kind is ERR-02's, wherever the error was provoked.
 */
export function errorWith(status: number): Step[] {
  return [statusIs(status), JSON_ANSWER, owned('ERR-01', errorKindReadable), owned('ERR-02', errorKindFitsStatus)];
}

/** AUTH-05: a valid token is not refused as unauthenticated (what the operation then answers is its own requirements'). */
export function tokenAccepted(ex: Exchange): Failure | undefined {
  if (ex.response && ex.response.status !== 401) return undefined;
  return fail(tokenAccepted, ex.response ? `HTTP 401: ${show(ex.response.json ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`, 'Every request carries the header Authorization with the value "Bearer <ACCESS_TOKEN>"', 'accept the tokens your service issued, sent as "Bearer <token>"');
}

export function clientError(ex: Exchange): Failure | undefined {
  const status = ex.response?.status;
  if (status === undefined || status < 400 || status > 499) {
    return fail(clientError, status === undefined ? `no response: ${ex.networkError}` : `HTTP ${status}`, 'a client mistake gets a 4xx (RFC 9110 §15.5); 400 is the documented kind', 'validate the request and answer 400 instead of failing inside or accepting it');
  }
  return undefined;
}

/** An answer, and not a 5xx: for inputs where acceptance and refusal are both conforming. */
export function noServerError(ex: Exchange): Failure | undefined {
  if (!ex.response || ex.response.status >= 500) {
    return fail(noServerError, ex.response ? `HTTP ${ex.response.status}` : `no response: ${ex.networkError}`, 'a client\'s input never causes a server error (RFC 9110 §15.6)', 'accept or refuse the input with a 2xx or 4xx; never fail inside');
  }
  return undefined;
}

export function errorBodyShape(ex: Exchange, ctx: CheckContext): Failure | undefined {
  // Only error answers have an error body; a success where an error was due is another requirement's failure.
  if ((ex.response?.status ?? 0) < 400) return undefined;
  const result = ctx.validate('ErrorResponse', ex.response?.json);
  if (!result.valid) {
    const misplaced = errorKindReadable(ex, ctx)?.profileMismatch;
    if (misplaced) return { ...fail(errorBodyShape, `HTTP ${ex.response?.status} body ${show(ex.response?.json)}`, `ErrorResponse of profile "${ctx.profile.name}"`, 'supply the target\'s error shape with AG_PROFILE'), profileMismatch: misplaced };
    return fail(errorBodyShape, `HTTP ${ex.response?.status} body ${show(ex.response?.json)}: ${result.errors.join('; ')}`, `ErrorResponse of profile "${ctx.profile.name}"`, 'shape error bodies as the profile says (reference: ResponseMetadata.Error = { Code, Message }, no Result), or supply your own profile with AG_PROFILE');
  }
  return undefined;
}

/** The error kind matches the spec's table for this status and operation (only for known operations). */
export function errorKindFitsStatus(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const status = ex.response?.status;
  const operation = ex.request.action;
  if (status === undefined || status < 400 || !OPERATIONS.includes(operation as OperationId)) return undefined;
  const table = ctx.errorKinds(operation!);
  const kind = table[status];
  if (kind === undefined) return undefined; // undocumented statuses are documentedStatus's business
  const code = readPointer(ex.response!.json, ctx.profile.error.codePointer);
  if (code !== kind) {
    return fail(errorKindFitsStatus, `${operation} answered HTTP ${status} with error kind ${show(code)}`, `${status} | ${kind} | ${operation}`, `use the error kind ${kind} for ${status} answers of ${operation}`);
  }
  return undefined;
}

export function documentedStatus(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const status = ex.response?.status;
  const operation = ex.request.action;
  if (status === undefined || status < 400 || !OPERATIONS.includes(operation as OperationId)) return undefined;
  const table = ctx.errorKinds(operation!);
  if (!(status in table)) {
    return fail(documentedStatus, `${operation} answered HTTP ${status}`, `Error statuses of ${operation}: ${Object.keys(table).join(', ')}`, `answer one of the documented statuses (400 for a bad request)`);
  }
  return undefined;
}

export function validates(component: string): Check {
  return named(`validates(${component})`, (ex, ctx) => {
    const result = ctx.validate(component, ex.response?.json);
    if (!result.valid) return fail(`validates(${component})`, result.errors.slice(0, 10).join('; '), `${component} in spec/openapi.yaml`, 'make the response match the contract');
    return undefined;
  });
}

export function formatFailure(failure: Failure, ex: Exchange): string {
  return [
    `${failure.check} failed for ${ex.request.method} ${ex.request.url}`,
    `  Received:   ${failure.received}`,
    `  Documented: ${failure.documented}`,
    `  Fix:        ${failure.fix}`,
  ].join('\n');
}

// ---------------------------------------------------------------- results of create and list

type Item = Record<string, unknown>;

function items(ex: Exchange): Item[] | undefined {
  const list = readPointer(ex.response?.json, '/Result/Items');
  return Array.isArray(list) ? (list as Item[]) : undefined;
}

const idsOf = (ex: Exchange): unknown[] => (items(ex) ?? []).map((item) => item?.Id);

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

/** Result.Items is an array: what every other list check reads. */
export function itemsArray(ex: Exchange): Failure | undefined {
  if (!items(ex)) {
    return fail(itemsArray, `HTTP ${ex.response?.status}, Result ${show(readPointer(ex.response?.json, '/Result'))}`, 'Items | array of asset group', 'answer ListAssetGroups with Result.Items as an array');
  }
  return undefined;
}

/**
 * A list answer the asking requirement can read: the 200 is its own finding (the query was
 * accepted); a missing Result is ENV-06's and an Items that is not an array is SCHEMA-02's.
 */
export const LISTED: Step[] = [owned('AUTH-05', tokenAccepted), status200, owned('ENV-06', resultPresent), owned('SCHEMA-02', itemsArray)];
/** LISTED where the 200 itself is another requirement's (the query of a filter that requirement owns). */
export const listedBy = (owner: string): Step[] => [...succeeded(owner), owned('ENV-06', resultPresent), owned('SCHEMA-02', itemsArray)];

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

/** The filters of a list query, in the kit's terms (suites/api.ts turns them into the profile's field names). */
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
  const steps: Step[] = [];
  if (query.assetSpaceId !== undefined) steps.push(owned('LIST-02', everyItem(`AssetSpaceId = ${query.assetSpaceId}`, (item) => item.AssetSpaceId === query.assetSpaceId, 'filtering by asset space')));
  if (query.groupType !== undefined) steps.push(owned('LIST-03', everyItem(`GroupType = ${query.groupType}`, (item) => item.GroupType === query.groupType, 'filtering by group type')));
  if (query.groupIds !== undefined) steps.push(owned('LIST-04', everyItem('Id is one of those asked for', (item) => query.groupIds!.includes(item.Id as string), 'filtering by logical ID')));
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

export function emptyPage(ex: Exchange): Failure | undefined {
  const list = items(ex);
  if (!list || list.length !== 0) return fail(emptyPage, `Items ${show(list)}`, 'Items: [] when nothing matches on this page', 'return an empty Items array past the last match');
  return undefined;
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

export function timestampsUtc(ex: Exchange, ctx: CheckContext): Failure | undefined {
  for (const item of items(ex) ?? []) {
    for (const field of ['CreateTime', 'UpdateTime']) {
      const result = ctx.validate('Timestamp', item?.[field]);
      if (!result.valid) return fail(timestampsUtc, `${field} ${show(item?.[field])} of ${show(item?.Id)}: ${result.errors.join('; ')}`, `ISO 8601 UTC timestamp; profile "${ctx.profile.name}": RFC 3339 with Z`, 'write timestamps in UTC, e.g. 2024-01-01T12:00:00Z');
    }
  }
  return undefined;
}

export function updateNotBeforeCreate(ex: Exchange): Failure | undefined {
  for (const item of items(ex) ?? []) {
    const created = Date.parse(String(item?.CreateTime));
    const updated = Date.parse(String(item?.UpdateTime));
    if (!(updated >= created)) return fail(updateNotBeforeCreate, `CreateTime ${show(item?.CreateTime)}, UpdateTime ${show(item?.UpdateTime)} for ${show(item?.Id)}`, 'UpdateTime is set by the service at or after CreateTime', 'set UpdateTime to the creation time on create');
  }
  return undefined;
}

// ---------------------------------------------------------------- over several exchanges

const requestIdOf = (ex: Exchange) => readPointer(ex.response?.json, '/ResponseMetadata/RequestId');

/** ENV-04: no RequestId repeats across the exchanges (those without one are ENV-03's). */
export function distinctRequestIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map(requestIdOf).filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length) return fail(distinctRequestIds, `RequestId ${show(repeated)} repeated across ${ids.length} responses`, 'ResponseMetadata.RequestId | string | Request identifier <request_id>.', 'give every response its own request identifier');
  return undefined;
}

/** CREATE-03: the creates' Result.Id values all differ. */
export function distinctCreatedIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map((ex) => readPointer(ex.response?.json, '/Result/Id')).filter((id): id is string => typeof id === 'string');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length) return fail(distinctCreatedIds, `Result.Id ${show(repeated)} returned by more than one of ${ids.length} creates`, 'Id is the platform\'s logical group ID.', 'assign every new group an Id no other group has');
  return undefined;
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
      return { ...fail('pagesPartition', `pages 1..${pages.length}: ${pages.map((p, i) => `page ${i + 1} ${show(idsOf(p))}`).join('; ')}${repeated.length ? `; on two pages: ${show(repeated)}` : ''}${missing.length ? `; on no page: ${show(missing)}` : ''}`, `each of ${show(expected)} on exactly one page`, 'page through one stable order of the matches: page n holds matches (n-1)*PageSize+1 .. n*PageSize'), ...(repeated.length ? {} : { missing }) };
    }
    return undefined;
  });
}

export interface VisibilityRecord {
  key: string;
  id: string;
  visibleAfterMs: number | null;
}

/** VIS-01 over the create-and-wait phase's record: every group was listed within the timeout. */
export function visibleInTime(groups: VisibilityRecord[], timeoutMs: number): Failure | undefined {
  const late = groups.filter((g) => g.visibleAfterMs === null || g.visibleAfterMs > timeoutMs);
  if (late.length) return fail('visibleInTime', `${late.map((g) => `${g.key} (${g.id})`).join(', ')} not listed within ${timeoutMs} ms of the create (the last polls are attached)`, 'The list operation reads a local snapshot of the groups. It does not contact the upstream system, so its data may lag briefly.', 'make created groups reach the list snapshot; raise AG_VISIBILITY_TIMEOUT_MS if your lag is longer than briefly');
  return undefined;
}
