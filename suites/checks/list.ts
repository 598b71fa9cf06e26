/** LIST: the list operation and its filters. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { NAME_MATCHES, nameMatchParts, type NameMatch } from '../../schemas/profile';
import { fail, idsOf, items, named, itemsOf, show, type Check, type Failure, type Item, type MultiCheck } from './kit';

/** No more matches counted than groups asked for by Id: more means the Id filter let others in (LIST-04's). */
export function totalAtMost(n: number): Check {
  return named('totalAtMost', (ex) => {
    const total = readPointer(ex.response?.json, '/Result/TotalCount');
    if (typeof total !== 'number' || total <= n) return undefined;
    return fail('totalAtMost', `TotalCount ${total} for a query by ${n} Ids`, `at most the ${n} groups asked for match`, 'apply the Id filter before counting');
  });
}

/** For unusual filter values (a space or type no group has): an empty list or a 4xx refusal both conform. */
export function refusedOrEmpty(ex: Exchange): Failure | undefined {
  const status = ex.response?.status ?? 0;
  if (status >= 400 && status < 500) return undefined;
  const list = items(ex);
  const total = readPointer(ex.response?.json, '/Result/TotalCount');
  if (status === 200 && list && list.length === 0 && total === 0) return undefined;
  return fail(
    refusedOrEmpty,
    ex.response ? `HTTP ${status}, Items ${show(idsOf(ex))}, TotalCount ${show(total)}` : `no response: ${ex.networkError}`,
    'a filter value no group has matches nothing: Items [] and TotalCount 0 (or the query is refused with a 4xx)',
    'apply the filter; a value that matches nothing gives an empty page',
  );
}

/** The page holds exactly these Ids (in any order; no order is documented). */
export function listsExactly(expected: string[]): Check {
  return named('listsExactly', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    const extra = got.filter((id) => !expected.includes(id as string));
    if (missing.length || extra.length || got.length !== expected.length) {
      if (missing.length && !extra.length)
        return {
          ...fail(
            'listsExactly',
            `Items Ids ${show(got)}; missing ${show(missing)}`,
            `exactly ${show(expected)}`,
            'list every group of the caller that matches the filters',
          ),
          missing,
        };
      return fail(
        'listsExactly',
        `Items Ids ${show(got)}${missing.length ? `; missing ${show(missing)}` : ''}${extra.length ? `; unexpected ${show(extra)}` : ''}`,
        `exactly ${show(expected)}`,
        "apply every filter of the request, and only those, to the caller's groups",
      );
    }
    return undefined;
  });
}

export function listsIncluding(expected: string[]): Check {
  return named('listsIncluding', (ex) => {
    const got = idsOf(ex);
    const missing = expected.filter((id) => !got.includes(id));
    if (missing.length)
      return {
        ...fail(
          'listsIncluding',
          `Items Ids ${show(got)}; missing ${show(missing)}`,
          `includes ${show(expected)}`,
          'list every group of the caller that matches the filters',
        ),
        missing,
      };
    return undefined;
  });
}

export function everyItem(description: string, predicate: (item: Item) => boolean, documented: string): Check {
  return named('everyItem', (ex) => {
    const bad = (items(ex) ?? []).filter((item) => !predicate(item));
    if (bad.length)
      return fail(
        'everyItem',
        `${bad.length} item(s) where ${description} does not hold, e.g. ${show(bad[0])}`,
        documented,
        'return only groups that match every filter sent',
      );
    return undefined;
  });
}

/** For queries that must not widen a match (wildcards): a refusal, or items whose Name contains the query as written. */
export function literalNameMatch(query: string): Check {
  return named('literalNameMatch', (ex) => {
    const status = ex.response?.status ?? 0;
    if (status >= 400 && status < 500) return undefined;
    const bad = (items(ex) ?? []).filter((item) => typeof item?.Name !== 'string' || !item.Name.toLowerCase().includes(query.toLowerCase()));
    if (status === 200 && items(ex) && !bad.length) return undefined;
    return fail(
      'literalNameMatch',
      status === 200 ? `${bad.length} item(s) whose Name does not contain ${show(query)}, e.g. ${show(bad[0]?.Name)}` : `HTTP ${status}`,
      `filtering by name: ${show(query)} is matched as written (no wildcards)`,
      'escape LIKE/glob/regex metacharacters of the name filter',
    );
  });
}

/** The six queries of LIST-07: a leading part, an inner part and the whole Name, each as written and in upper case. */
export interface NameQueries {
  whole: string;
  leading: string;
  inner: string;
  wholeUpper: string;
  leadingUpper: string;
  innerUpper: string;
}

/** Whether the query `key` finds its group where the name filter matches as `match` says. */
function finds(match: NameMatch, queries: NameQueries, key: keyof NameQueries): boolean {
  const { mode, caseInsensitive } = nameMatchParts(match);
  const expect = { whole: true, leading: mode !== 'exact', inner: mode === 'substring' };
  const base = key.replace('Upper', '') as 'whole' | 'leading' | 'inner';
  return expect[base] && (!key.endsWith('Upper') || caseInsensitive || queries[key] === queries[base]);
}

/**
 * LIST-07: the answers to the queries, in the order of `queries`' keys, find the group `targetId` as the
 * profile's list.nameMatch says. Exactly one other setting that explains every answer is the target's
 * choice, not a mistake: a mismatch naming it.
 */
export function nameMatch(targetId: string, queries: NameQueries): MultiCheck {
  return named('nameMatch', (exchanges, ctx): Failure | undefined => {
    const { profile } = ctx;
    const keys = Object.keys(queries) as (keyof NameQueries)[];
    const documented = `profile "${profile.name}": list.nameMatch ${profile.list.nameMatch}`;
    const refused = exchanges.find((ex) => ex.response?.status !== 200);
    if (refused)
      return {
        check: 'nameMatch',
        received: `HTTP ${refused.response?.status ?? 'nothing'} for the name filter ${refused.request.body.slice(0, 200)}`,
        documented,
        fix: 'accept a name filter',
      };
    const found = Object.fromEntries(keys.map((key, i) => [key, itemsOf(exchanges[i]).some((item) => item.Id === targetId)])) as Record<
      keyof NameQueries,
      boolean
    >;
    // The one setting these answers fit, if any: what each mode and case would find.
    const fits = NAME_MATCHES.filter((match) => keys.every((key) => found[key] === finds(match, queries, key)));
    if (fits.includes(profile.list.nameMatch)) return undefined;
    const received = keys.map((key) => `${JSON.stringify(queries[key])} ${found[key] ? 'finds' : 'does not find'} it`).join('; ');
    const failure = {
      check: 'nameMatch',
      received,
      documented,
      fix: 'match the name filter as the profile says (one rule for every query), or supply your profile with AG_PROFILE',
    };
    // A query the profile's setting finds the group with that did not find it: the group may be missing from the snapshot
    // that answered (a replica that has not got it yet, within its visibility bound). The judge fixture then judges the
    // queries sent again after the bound, before it names a setting or a failure.
    const missing = keys.some((key) => !found[key] && finds(profile.list.nameMatch, queries, key)) ? { missing: [targetId] } : {};
    // Exactly one setting explains every answer: the target made another choice, not a mistake.
    return fits.length === 1
      ? { ...failure, ...missing, profileMismatch: `the name filter matches as ${fits[0]}: ${received}; set list.nameMatch: ${fits[0] satisfies NameMatch}` }
      : { ...failure, ...missing };
  });
}

/**
 * LIST-04: a query by several Ids, each listed before, with room for all, lists every one of them. An
 * Id filter that keeps only some (the first, bound to `WHERE id = ?`) fails; one that lists groups it
 * was not asked for is another finding (the filter is ignored), and not judged here.
 */
export function idFilterHoldsAll(seen: string[]): (ex: Exchange) => Failure | undefined {
  return named('idFilterHoldsAll', (ex) => {
    const listed = new Set(itemsOf(ex).map((item) => item.Id));
    const dropped = seen.filter((id) => !listed.has(id));
    if (ex.response?.status !== 200 || !dropped.length || [...listed].some((id) => !seen.includes(id as string))) return undefined;
    return fail(
      'idFilterHoldsAll',
      `a query by ${seen.length} Ids, each listed before, listed ${listed.size}: ${dropped.join(', ')} left out`,
      'List: a caller lists the asset groups of the current user, filtered by asset space, group type, logical ID and name.',
      'match every Id of the Id filter, not only the first',
    );
  });
}
