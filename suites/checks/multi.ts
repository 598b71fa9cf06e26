import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, idsOf, named, show, type Failure, type MultiCheck } from './kit';

// Checks over several exchanges together: CREATE-03, ENV-04, PAGE-05, VIS-01.


const requestIdOf = (ex: Exchange) => readPointer(ex.response?.json, '/ResponseMetadata/RequestId');

/** ENV-04: no RequestId repeats across the exchanges (those without one are ENV-03's). */
export function distinctRequestIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map(requestIdOf).filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length) return fail(distinctRequestIds, `RequestId ${show(repeated)} repeated across ${ids.length} responses`, 'ResponseMetadata.RequestId | string | Request identifier <request_id>.', 'give every response its own request identifier');
  return undefined;
}

/** CREATE-03: the creates' Result.Id values all differ. */
export function distinctCreatedIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map((ex) => readPointer(ex.response?.json, '/Result/Id')).filter((id): id is string => typeof id === 'string');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length) return fail(distinctCreatedIds, `Result.Id ${show(repeated)} returned by more than one of ${ids.length} creates`, 'Id is the platform\'s logical group ID.', 'assign every new group an Id no other group has');
  return undefined;
}

/**
 * PAGE-05: the pages of one query, walked from the first, hold each expected group exactly once and
 * nothing else. Items beyond the expected ones are the filter's business; what is judged here is
 * that pages neither overlap nor leave gaps.
 */
export function pagesPartition(expected: string[]): MultiCheck {
  return named('pagesPartition', (pages: Exchange[]) => {
    const seen = pages.flatMap(idsOf).filter((id) => expected.includes(id as string));
    const repeated = [...new Set(seen.filter((id, i) => seen.indexOf(id) !== i))];
    const missing = expected.filter((id) => !seen.includes(id));
    if (repeated.length || missing.length) {
      return { ...fail('pagesPartition', `pages 1..${pages.length}: ${pages.map((p, i) => `page ${i + 1} ${show(idsOf(p))}`).join('; ')}${repeated.length ? `; on two pages: ${show(repeated)}` : ''}${missing.length ? `; on no page: ${show(missing)}` : ''}`, `each of ${show(expected)} on exactly one page`, 'page through one stable order of the matches: page n holds matches (n-1)*PageSize+1 .. n*PageSize'), ...(repeated.length ? {} : { missing }) };
    }
    return undefined;
  });
}

export interface VisibilityRecord {
  key: string;
  id: string;
  visibleAfterMs: number | null;
}

/** VIS-01 over the create-and-wait phase's record: every group was listed within the timeout. */
export function visibleInTime(groups: VisibilityRecord[], timeoutMs: number): Failure | undefined {
  const late = groups.filter((g) => g.visibleAfterMs === null || g.visibleAfterMs > timeoutMs);
  if (late.length) return fail('visibleInTime', `${late.map((g) => `${g.key} (${g.id})`).join(', ')} not listed within ${timeoutMs} ms of the create (the last polls are attached)`, 'The list operation reads a local snapshot of the groups. It does not contact the upstream system, so its data may lag briefly.', 'make created groups reach the list snapshot; raise AG_VISIBILITY_TIMEOUT_MS if your lag is longer than briefly');
  return undefined;
}
