/** INPUT: bad input is refused with a 4xx, never a 5xx; a 429 says when to come back. */
import type { Exchange } from '../../client/exchange';
import { fail, named, type Check, type Failure } from './kit';

export function clientError(ex: Exchange): Failure | undefined {
  const status = ex.response?.status;
  if (status === undefined || status < 400 || status > 499) {
    return fail(
      clientError,
      status === undefined ? `no response: ${ex.networkError}` : `HTTP ${status}`,
      'a client mistake gets a 4xx (RFC 9110 §15.5); 400 is the documented kind',
      'validate the request and answer 400 instead of failing inside or accepting it',
    );
  }
  return undefined;
}

/** An answer, and not a 5xx: for inputs where acceptance and refusal are both conforming. */
export function noServerError(ex: Exchange): Failure | undefined {
  if (!ex.response || ex.response.status >= 500) {
    return fail(
      noServerError,
      ex.response ? `HTTP ${ex.response.status}` : `no response: ${ex.networkError}`,
      "a client's input never causes a server error (RFC 9110 §15.6)",
      'accept or refuse the input with a 2xx or 4xx; never fail inside',
    );
  }
  return undefined;
}

/** INPUT-08: a 429 carries Retry-After, as seconds or an HTTP date (RFC 9110 §10.2.3). */
export const retryAfterHeader: Check = named('retryAfterHeader', (ex) => {
  const value = ex.response?.headers['retry-after'];
  if (value !== undefined && (/^\d+$/.test(value.trim()) || !Number.isNaN(Date.parse(value)))) return undefined;
  return {
    check: 'retryAfterHeader',
    received: `Retry-After ${JSON.stringify(value)}`,
    documented: 'RFC 9110 §10.2.3: Retry-After as seconds or an HTTP date',
    fix: 'tell clients when to come back',
  };
});
