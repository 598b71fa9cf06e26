/**
 * SCOPE: a caller sees only their own groups. The refusal-or-nothing checks serve CHAN too: a query
 * that reaches for what the caller may not see finds nothing, whichever boundary it crosses.
 */
import { readPointer } from '../../schemas/profile';
import { fail, idsOf, items, named, show, type Check } from './kit';

/**
 * For queries that reach for what the caller may not see: a refusal (any 4xx: the spec documents
 * 400 and 403 for lists) finds nothing, and so does a list without those groups.
 */
export function refusedOrNoneOf(forbidden: string[], why: string): Check {
  return named('refusedOrNoneOf', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    if (status !== 200 || !items(ex))
      return fail(
        'refusedOrNoneOf',
        ex.response ? `HTTP ${status}: ${show(ex.response.json ?? ex.response.body.slice(0, 200))}` : `no response: ${ex.networkError}`,
        `${why} (a list without them, or a 4xx refusal)`,
        'answer a list scoped to the caller, or refuse the query',
      );
    const leaked = idsOf(ex).filter((id) => forbidden.includes(id as string));
    if (leaked.length)
      return fail(
        'refusedOrNoneOf',
        `Items include ${show(leaked)}`,
        why,
        "filter results by the caller's user and the token's channel before any other filter",
      );
    return undefined;
  });
}

/**
 * A query that names only groups the caller may not see counts none of them: a refusal, or TotalCount 0. Or, where the
 * caller has groups of its own the query also names (`own`: the second user's, GROUPS.secondUser), no more than it lists
 * of them: a count below the page's own items is PAGE-04's (totalCoversPage), not a leak.
 */
export function refusedOrCountsNone(why: string, own: readonly string[] = []): Check {
  return named('refusedOrCountsNone', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    const total = readPointer(ex.response?.json, '/Result/TotalCount');
    if (typeof total === 'number' && total >= 0 && total <= idsOf(ex).filter((id) => own.includes(id as string)).length) return undefined;
    return fail(
      'refusedOrCountsNone',
      `TotalCount ${show(total)} with Items ${show(idsOf(ex))}`,
      `${why} TotalCount 0: nothing the caller may not see is counted`,
      'count only the groups the caller may see',
    );
  });
}

export function listsNoneOf(forbidden: string[], why: string): Check {
  return named('listsNoneOf', (ex) => {
    const leaked = idsOf(ex).filter((id) => forbidden.includes(id as string));
    if (leaked.length)
      return fail('listsNoneOf', `Items include ${show(leaked)}`, why, "filter results by the caller's user and the token's channel before any other filter");
    return undefined;
  });
}
