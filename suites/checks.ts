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
}

export interface CheckContext {
  profile: Profile;
  validate: (component: string, data: unknown) => { valid: boolean; errors: string[] };
  /** The spec's error table for an operation: status -> error kind. */
  errorKinds: (operationId: string) => Record<number, string>;
}

export type Check = (exchange: Exchange, context: CheckContext) => Failure | undefined;

export const OPERATIONS = ['CreateAssetGroup', 'ListAssetGroups'] as const;
export type OperationId = (typeof OPERATIONS)[number];

const ENVELOPE_FIELDS = ['RequestId', 'Action', 'Version', 'Service', 'Region'] as const;

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

function fail(check: Check | string, received: string, documented: string, fix: string): Failure {
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
  if (!type || !/^application\/json\s*(;|$)/i.test(type.trim())) {
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
    return fail(status200, ex.response ? `HTTP ${ex.response.status}: ${show(code ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`, 'Success: HTTP 200', 'accept a valid request with a valid Bearer token and answer 200');
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
function named(name: string, check: Check): Check {
  return Object.defineProperty(check, 'name', { value: name });
}

/** Builds a check that a response is the given error status with the given error kind. */
export function errorWith(status: number, kind: string): Check {
  return named(`errorWith(${status}, ${kind})`, (ex, ctx) => {
    const got = ex.response?.status;
    const code = readPointer(ex.response?.json, ctx.profile.error.codePointer);
    if (got !== status || code !== kind) {
      return fail(`errorWith(${status}, ${kind})`, ex.response ? `HTTP ${got} with error kind ${show(code)} at ${ctx.profile.error.codePointer}` : `no response: ${ex.networkError}`, `HTTP ${status} with error kind ${kind}`, `answer ${status} and put ${kind} at ${ctx.profile.error.codePointer} (profile "${ctx.profile.name}")`);
    }
    return undefined;
  });
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

/** Runs checks in order, stopping at the first failure so one cause is reported once. */
export function firstFailure(ex: Exchange, context: CheckContext, checks: Check[]): Failure | undefined {
  for (const check of checks) {
    const failure = check(ex, context);
    if (failure) return failure;
  }
  return undefined;
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

/** A 200 whose Result is a list result the other list checks can read. */
export function isListResult(ex: Exchange): Failure | undefined {
  const failure = status200(ex);
  if (failure) return { ...failure, check: isListResult.name };
  if (!items(ex)) {
    return fail(isListResult, `Result ${show(readPointer(ex.response?.json, '/Result'))}`, 'Result: { Items: array of asset group, TotalCount, PageNumber, PageSize }', 'answer ListAssetGroups with Result.Items as an array');
  }
  return undefined;
}

/** The page holds exactly these Ids (in any order; no order is documented). */
export function listsExactly(expected: string[]): Check {
  return named('listsExactly', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    const extra = got.filter((id) => !expected.includes(id as string));
    if (missing.length || extra.length || got.length !== expected.length) {
      return fail('listsExactly', `Items Ids ${show(got)}${missing.length ? `; missing ${show(missing)}` : ''}${extra.length ? `; unexpected ${show(extra)}` : ''}`, `exactly ${show(expected)}`, 'apply every filter of the request, and only those, to the caller\'s groups');
    }
    return undefined;
  });
}

export function listsIncluding(expected: string[]): Check {
  return named('listsIncluding', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    if (missing.length) return fail('listsIncluding', `Items Ids ${show(got)}; missing ${show(missing)}`, `includes ${show(expected)}`, 'list every group of the caller that matches the filters');
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

export function pageWithinSize(ex: Exchange): Failure | undefined {
  const size = readPointer(ex.response?.json, '/Result/PageSize');
  const list = items(ex) ?? [];
  if (typeof size !== 'number' || list.length > size) return fail(pageWithinSize, `${list.length} items with PageSize ${show(size)}`, 'PageSize | integer | Page size of this result.', 'never return more items than the page size');
  return undefined;
}

/** The list item of a created group carries back every field that was sent, unchanged. */
export function itemMatchesSent(id: string, sent: Record<string, string>, defaults: Record<string, string>): Check {
  return named('itemMatchesSent', (ex) => {
    const item = (items(ex) ?? []).find((candidate) => candidate?.Id === id);
    if (!item) return fail('itemMatchesSent', `no item with Id ${id} in ${show(idsOf(ex))}`, 'the created group is listed by its Id', 'list created groups once they are in the snapshot');
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
