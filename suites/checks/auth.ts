/** AUTH: a valid token is accepted (the refusals are judged by status, err.ts and errorWith). */
import type { Exchange } from '../../client/exchange';
import { fail, show, type Failure } from './kit';

/** AUTH-05: a valid token is not refused as unauthenticated (what the operation then answers is its own requirements'). */
export function tokenAccepted(ex: Exchange): Failure | undefined {
  if (ex.response && ex.response.status !== 401) return undefined;
  return fail(
    tokenAccepted,
    ex.response ? `HTTP 401: ${show(ex.response.json ?? ex.response.body.slice(0, 300))}` : `no response: ${ex.networkError}`,
    'Every request carries the header Authorization with the value "Bearer <ACCESS_TOKEN>"',
    'accept the tokens your service issued, sent as "Bearer <token>"',
  );
}
