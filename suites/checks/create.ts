/** CREATE: a create answers an Id, distinct creates get distinct Ids, and the fields sent come back. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, idsOf, items, named, show, type Check, type Failure } from './kit';

export function createdWithId(ex: Exchange): Failure | undefined {
  const id = readPointer(ex.response?.json, '/Result/Id');
  if (ex.response?.status !== 200 || typeof id !== 'string' || id.trim() === '') {
    return fail(
      createdWithId,
      ex.response ? `HTTP ${ex.response.status}, Result.Id ${show(id)}` : `no response: ${ex.networkError}`,
      'Success: HTTP 200, JSON envelope with Result = { Id: string <group_id> }.',
      "answer a valid create with 200 and the new group's logical Id in Result.Id",
    );
  }
  return undefined;
}

/** CREATE-03: the creates' Result.Id values all differ. */
export function distinctCreatedIds(exchanges: Exchange[]): Failure | undefined {
  const ids = exchanges.map((ex) => readPointer(ex.response?.json, '/Result/Id')).filter((id): id is string => typeof id === 'string');
  const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (repeated.length)
    return fail(
      distinctCreatedIds,
      `Result.Id ${show(repeated)} returned by more than one of ${ids.length} creates`,
      "Id is the platform's logical group ID.",
      'assign every new group an Id no other group has',
    );
  return undefined;
}

const itemWithId = (ex: Exchange, id: string) => (items(ex) ?? []).find((candidate) => candidate?.Id === id);

/** Fields an item carries otherwise than sent, as a failure shows them. */
const showChanged = (item: Record<string, unknown>, changed: [string, string][]) =>
  changed.map(([field, value]) => `${field} ${show(item[field])} (sent ${show(value)})`).join('; ');

/** The list item of a created group carries back every field that was sent, unchanged. */
export function itemMatchesSent(id: string, sent: Record<string, string>, defaults: Record<string, string>): Check {
  return named('itemMatchesSent', (ex) => {
    const item = itemWithId(ex, id);
    if (!item)
      return {
        ...fail(
          'itemMatchesSent',
          `no item with Id ${id} in ${show(idsOf(ex))}`,
          'the created group is listed by its Id',
          'list created groups once they are in the snapshot',
        ),
        missing: [id],
      };
    const expected = { ...defaults, ...sent };
    // Leading and trailing whitespace dropped is CREATE-06's (a SHOULD: Django REST framework trims by default).
    const changed = Object.entries(expected).filter(([field, value]) => item[field] !== value && item[field] !== value.trim());
    if (changed.length) {
      return fail(
        'itemMatchesSent',
        showChanged(item, changed),
        'Name, Title, Description, GroupType, ProjectName: create request; list item',
        'store and return the create fields exactly as sent (no re-encoding, normalisation or truncation)',
      );
    }
    return undefined;
  });
}

/** CREATE-06: the leading and trailing whitespace sent comes back; the rest of each value is itemMatchesSent's. */
export function keepsEdgeWhitespace(id: string, sent: Record<string, string>): Check {
  return named('keepsEdgeWhitespace', (ex) => {
    // A group not listed is itemMatchesSent's (CREATE-02's), a precondition of CREATE-06's test.
    const item = itemWithId(ex, id);
    if (!item) return undefined;
    const trimmed = Object.entries(sent).filter(([field, value]) => value !== value.trim() && item[field] === value.trim());
    if (!trimmed.length) return undefined;
    return fail(
      'keepsEdgeWhitespace',
      showChanged(item, trimmed),
      'Name, Title, Description: create request; list item, leading and trailing whitespace included',
      'keep leading and trailing whitespace (Django REST framework: CharField(trim_whitespace=False))',
    );
  });
}
