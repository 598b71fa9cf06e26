/** The steps before an operation runs: route, operation selection, authentication, body parsing. */
import { ApiError, badRequest, describe, isObject, MAX_BODY_BYTES, OPERATIONS, SPEC_PATH, SPEC_VERSION, type Operation } from './behaviour-base';
import type { HookContext, Principal } from './behaviour-types';

export function route(method: string, path: string): ApiError | null {
  if (path !== SPEC_PATH) return new ApiError(404, 'AssetBadRequest', `no such path ${JSON.stringify(path.slice(0, 200))}; the only path is ${SPEC_PATH}`);
  if (method !== 'POST') return new ApiError(405, 'AssetBadRequest', `method ${method} not allowed; use POST`, { Allow: 'POST' });
  return null;
}

export function selectOperation(action: string | null, version: string | null): Operation | ApiError {
  const op = OPERATIONS.find((o) => o === action);
  if (!op) {
    const message =
      action === null ? 'query parameter Action is required' : `unknown Action ${JSON.stringify(action.slice(0, 100))}; expected ${OPERATIONS.join(' or ')}`;
    return badRequest(null, message);
  }
  if (version !== SPEC_VERSION) {
    const message =
      version === null ? 'query parameter Version is required' : `unsupported Version ${JSON.stringify(version.slice(0, 100))}; expected ${SPEC_VERSION}`;
    return badRequest(op, message);
  }
  return op;
}

export function authenticate(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  const reject = (message: string) => new ApiError(401, 'TokenAuthError', message);
  if (authorization === undefined) return reject('missing Authorization header');
  // The spec: the word Bearer, one space, the token. Only the scheme's case is forgiven.
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return reject('Authorization must be "Bearer <token>"');
  const token = authorization.slice(7);
  if (token === '') return reject('empty bearer token');
  return ctx.tokens.get(token) ?? reject('invalid token');
}

export function maxBodyBytes(): number {
  return MAX_BODY_BYTES;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseBody(raw: Buffer, op: Operation): Record<string, unknown> | ApiError {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return badRequest(op, 'request body is not valid UTF-8');
  }
  if (text.trim() === '') return badRequest(op, 'request body is empty; expected a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return badRequest(op, 'request body is not valid JSON');
  }
  if (!isObject(value)) return badRequest(op, `request body must be a JSON object, got ${describe(value)}`);
  return value;
}
