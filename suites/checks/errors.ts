import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, named, owned, show, OPERATIONS, type Check, type CheckContext, type Failure, type OperationId, type Step } from './kit';
import { JSON_ANSWER, envelopePresent } from './envelope';

// AUTH, ERR and INPUT: statuses, error kinds and error bodies.

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
  return [statusIs(status), ...ERROR_BODY];
}

/**
 * What every error answer the kit provokes owes, whoever provoked it: a JSON body (ENV-05's), the
 * envelope (ENV-02's: "Present on every response."), an error kind at the profile's place (ERR-01's)
 * and the one the spec's table gives (ERR-02's). A framework's or a proxy's own page fails here.
 */
export const ERROR_BODY: Step[] = [JSON_ANSWER, owned('ENV-02', envelopePresent), owned('ERR-01', errorKindReadable), owned('ERR-02', errorKindFitsStatus)];

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

/** An error answer of a known operation, with that operation's row of the spec's error table. */
function errorOf(ex: Exchange, ctx: CheckContext): { status: number; operation: string; table: Record<number, string> } | undefined {
  const status = ex.response?.status;
  const operation = ex.request.action;
  if (status === undefined || status < 400 || !OPERATIONS.includes(operation as OperationId)) return undefined;
  return { status, operation: operation!, table: ctx.errorKinds(operation!) };
}

/** The error kind matches the spec's table for this status and operation (only for known operations). */
export function errorKindFitsStatus(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const error = errorOf(ex, ctx);
  if (!error) return undefined;
  const { status, operation, table } = error;
  const kind = table[status];
  if (kind === undefined) return undefined; // undocumented statuses are documentedStatus's business
  const code = readPointer(ex.response?.json, ctx.profile.error.codePointer);
  if (code !== kind) {
    return fail(errorKindFitsStatus, `${operation} answered HTTP ${status} with error kind ${show(code)}`, `${status} | ${kind} | ${operation}`, `use the error kind ${kind} for ${status} answers of ${operation}`);
  }
  return undefined;
}

export function documentedStatus(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const error = errorOf(ex, ctx);
  if (!error) return undefined;
  const { status, operation, table } = error;
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
