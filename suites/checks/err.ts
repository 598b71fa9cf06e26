/** ERR: error bodies, error kinds and error statuses, as the spec's error table gives them. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { errorKindNames } from '../../schemas/spec';
import { fail, named, owned, pointerOf, show, OPERATIONS, type Check, type CheckContext, type Failure, type OperationId, type Step } from './kit';
import { JSON_ANSWER, envelopeLikeSuccess, envelopePresent } from './env';

/** The error kinds of the spec's error table (spec/openapi.yaml, x-error-kind), over every operation. */

export function statusIs(status: number): Check {
  return named(`statusIs(${status})`, (ex) => {
    if (ex.response?.status === status) return undefined;
    return fail(
      `statusIs(${status})`,
      ex.response ? `HTTP ${ex.response.status}: ${show(ex.response.json ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`,
      `HTTP ${status}`,
      `answer ${status} here`,
    );
  });
}

/** Where error parts of this API family and of common frameworks keep their code. */
const ERROR_CODE_POINTERS = ['/ResponseMetadata/Error/Code', '/Error/Code', '/error/code', '/Code', '/code', '/errorCode', '/ErrorCode'];

/**
 * ERR-01's precondition for every requirement that needs an error kind: the kind can be read at
 * the profile's pointer. Where a kind of the spec's table sits elsewhere in the body, the target
 * follows another profile: not a failure, a mismatch with the setting that would fit.
 */
export function errorKindReadable(ex: Exchange, ctx: CheckContext): Failure | undefined {
  if ((ex.response?.status ?? 0) < 400) return undefined;
  const pointer = ctx.profile.error.codePointer;
  if (typeof readPointer(ex.response!.json, pointer) === 'string') return undefined;
  // A kind of the spec's table shows where the target keeps its error part; a kind of its own (an unknown
  // Action's, which the table has no row for) at a place error parts usually sit shows the same.
  const ownKindAt = (at: string) => {
    const kind = readPointer(ex.response!.json, at);
    return at !== pointer && typeof kind === 'string' && kind !== '';
  };
  const elsewhere = pointerOf(ex.response!.json, errorKindNames()) ?? ERROR_CODE_POINTERS.find(ownKindAt);
  const failure = fail(
    errorKindReadable,
    `HTTP ${ex.response!.status}, no error kind at ${pointer}: ${show(ex.response!.json ?? ex.response!.body.slice(0, 300))}`,
    `the error kind at ${pointer} (profile "${ctx.profile.name}")`,
    `put the error kind at ${pointer}, or supply your profile with AG_PROFILE`,
  );
  return elsewhere === undefined
    ? failure
    : {
        ...failure,
        profileMismatch: `error kind ${show(readPointer(ex.response!.json, elsewhere))} found at ${elsewhere}, not at ${pointer}; set error.codePointer: ${elsewhere}`,
      };
}

/**
 * An error's envelope: ENV-02's, unless what it lacks a success of the run lacks too, the envelope's gap everywhere (ENV-01's).
 */
export const ERROR_ENVELOPE: Step[] = [owned('ENV-01', envelopeLikeSuccess), owned('ENV-02', envelopePresent)];

/**
 * What every error answer the kit provokes owes, whoever provoked it: a JSON body (ENV-05's), the
 * envelope (ENV-02's: "Present on every response."), an error kind at the profile's place (ERR-01's)
 * and the one the spec's table gives (ERR-02's). A framework's or a proxy's own page fails here.
 */
export const ERROR_BODY: Step[] = [JSON_ANSWER, ...ERROR_ENVELOPE, owned('ERR-01', errorKindReadable), owned('ERR-02', errorKindFitsStatus)];

export function errorBodyShape(ex: Exchange, ctx: CheckContext): Failure | undefined {
  // Only error answers have an error body; a success where an error was due is another requirement's failure.
  if ((ex.response?.status ?? 0) < 400) return undefined;
  const result = ctx.validate('ErrorResponse', ex.response?.json);
  // A kind outside the table's, where the profile keeps it, is ERR-02's to judge (the kind fits the status), not the shape's.
  const kindValue = `${ctx.profile.error.codePointer} must be equal to one of the allowed values`;
  const errors = result.errors.filter((error) => !error.startsWith(kindValue));
  if (!result.valid && errors.length) {
    const misplaced = errorKindReadable(ex, ctx)?.profileMismatch;
    if (misplaced)
      return {
        ...fail(
          errorBodyShape,
          `HTTP ${ex.response?.status} body ${show(ex.response?.json)}`,
          `ErrorResponse of profile "${ctx.profile.name}"`,
          "supply the target's error shape with AG_PROFILE",
        ),
        profileMismatch: misplaced,
      };
    return fail(
      errorBodyShape,
      `HTTP ${ex.response?.status} body ${show(ex.response?.json)}: ${errors.join('; ')}`,
      `ErrorResponse of profile "${ctx.profile.name}"`,
      'shape error bodies as the profile says (reference: ResponseMetadata.Error = { Code, Message }, no Result), or supply your own profile with AG_PROFILE',
    );
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

/**
 * ERR-02's, before any requirement reads the status of a refusal: an answer of 2xx that carries an error kind where
 * the profile keeps it is an error answered as a success (HTTP 200 with an error part, as RPC-style APIs do). That
 * one deviation is ERR-02's (no kind of the table goes with a 2xx), not a failure of every refusal that reads a status.
 */
export function errorNotAsSuccess(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const status = ex.response?.status ?? 0;
  if (status < 200 || status >= 300) return undefined;
  const kind = readPointer(ex.response!.json, ctx.profile.error.codePointer);
  if (typeof kind !== 'string' || kind === '') return undefined;
  return fail(
    errorNotAsSuccess,
    `HTTP ${status} with the error kind ${show(kind)} at ${ctx.profile.error.codePointer}`,
    'the Errors table: each error kind with its HTTP status (400, 401, 403, 429, 500, 503)',
    'answer an error with its status from the table, never with 2xx',
  );
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
    return fail(
      errorKindFitsStatus,
      `${operation} answered HTTP ${status} with error kind ${show(code)}`,
      `${status} | ${kind} | ${operation}`,
      `use the error kind ${kind} for ${status} answers of ${operation}`,
    );
  }
  return undefined;
}

export function documentedStatus(ex: Exchange, ctx: CheckContext): Failure | undefined {
  const error = errorOf(ex, ctx);
  if (!error) return undefined;
  const { status, operation, table } = error;
  if (!(status in table)) {
    return fail(
      documentedStatus,
      `${operation} answered HTTP ${status}`,
      `Error statuses of ${operation}: ${Object.keys(table).join(', ')}`,
      `answer one of the documented statuses (400 for a bad request)`,
    );
  }
  return undefined;
}
