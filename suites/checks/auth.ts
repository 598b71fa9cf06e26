/** AUTH: a valid token is accepted (the refusals are judged by status, err.ts and errorWith). */
import type { Exchange } from '../../client/exchange';
import { fail, named, show, type Check, type Failure } from './kit';

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

/**
 * AUTH-04's, where another AUTH requirement judges a refusal: an answer with the status a token the target never
 * issued got, when that was not 401, is that one deviation seen again (a target that answers every token it
 * did not issue 403), not a second one. Any other answer is the asking requirement's to judge.
 */
export function unlikeUnknownToken(unknown: Exchange): Check {
  return named('unlikeUnknownToken', (ex) => {
    const status = unknown.response?.status;
    if (status === undefined || status === 401 || ex.response?.status !== status) return undefined;
    return fail(
      'unlikeUnknownToken',
      `HTTP ${status}, as a token the target never issued got: ${show(ex.response.json ?? ex.response.body.slice(0, 300))}`,
      'A missing or invalid token yields HTTP 401 with error kind TokenAuthError.',
      'answer 401 TokenAuthError to every token you did not issue',
    );
  });
}
