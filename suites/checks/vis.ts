/** VIS: created groups become visible within the timeout, and stay visible. */
import type { Exchange } from '../../client/exchange';
import { fail, itemsOf, named, type Check, type Failure, type MultiCheck } from './kit';
import { readPointer } from '../../schemas/profile';
import { parseJson } from '../../schemas/spec';

export interface VisibilityRecord {
  key: string;
  id: string;
  visibleAfterMs: number | null;
  /** When the last poll that missed it was sent, from the create's answer (suites/dataset.ts, GroupRecord). */
  missedAtMs?: number;
}

/** Late: never listed, or listed first after a poll sent past the timeout had missed it. */
const late = (g: VisibilityRecord, timeoutMs: number) => g.visibleAfterMs === null || (g.visibleAfterMs > timeoutMs && (g.missedAtMs ?? 0) > timeoutMs);

/**
 * VIS-01 over the create-and-wait phase's record: every group was listed within the timeout. Its last
 * polls are the evidence; a poll the target refused says nothing about lag, most likely that it does
 * not know the profile's Id filter: a mismatch naming those settings.
 */
export function visibleInTime(groups: VisibilityRecord[], timeoutMs: number): MultiCheck {
  return named('visibleInTime', (polls: Exchange[], ctx): Failure | undefined => {
    const lateOnes = groups.filter((g) => late(g, timeoutMs));
    if (!lateOnes.length) return undefined;
    const refused = polls.find((ex) => ex.response?.status !== 200);
    const failure = fail(
      'visibleInTime',
      `${lateOnes.map((g) => `${g.key} (${g.id})`).join(', ')} ${refused?.response?.status === 400 ? 'never listed: the polls for them were refused' : `not listed within ${timeoutMs} ms of the create`} (the last polls are attached)`,
      'The list operation reads a local snapshot of the groups. It does not contact the upstream system, so its data may lag briefly.',
      'make created groups reach the list snapshot; raise AG_VISIBILITY_TIMEOUT_MS if your lag is longer than briefly',
    );
    if (!refused) return failure;
    // A poll also sends the largest page: a target that refuses fields it does not know may refuse the page size's name.
    const { pageSize } = ctx.profile.list;
    const paged = readPointer(parseJson(refused.request.body), `/${pageSize.field}`) !== undefined;
    return {
      ...failure,
      profileMismatch: `the visibility poll, a list filtered by Id${paged ? ` with ${pageSize.field}` : ''}, was answered HTTP ${refused.response?.status ?? 'nothing'}: the target may not know the profile's field names; set list.filterField, list.filters.groupIds and list.idFilterTakes${paged ? ', or list.pageSize.field and list.pageNumber.field' : ''}`,
    };
  });
}

/**
 * VIS-02, wherever it is noticed: groups this token listed before are missing from an answer and from
 * the reads by Id just after it (`lost`, found by suites/fixtures.ts reading them back), or, in
 * VIS-02's own reads, missing from a read of them by their Ids (`where` says which).
 */
export function staysVisible(asked: string[], where = 'missing from this answer and from a read by Id just after'): Check {
  return named('staysVisible', (ex) => {
    // Judged on the answer itself: a read sent again after the visibility bound (suites/judging.ts afterBound) is judged afresh.
    const listed = new Set(itemsOf(ex).map((item) => item.Id));
    const lost = asked.filter((id) => !listed.has(id));
    if (!lost.length) return undefined;
    return {
      ...fail(
        'staysVisible',
        `${lost.join(', ')} listed before, ${where}`,
        "The operation reads the service's local snapshot and never queries the upstream system; results may lag behind the upstream state.",
        'once a group is in the snapshot, keep it there',
      ),
      // Read back alone by the verify fixture: found there, the Id filter dropped them (LIST-04's), not the snapshot.
      missing: lost,
    };
  });
}
