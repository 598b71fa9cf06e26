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

export function errorBodyShape(ex: Exchange, ctx: CheckContext): Failure | undefined {
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
