/**
 * What a test applies that other requirements own, built from their checks: the envelope by status,
 * an error answer, a list answer the asking requirement can read, the filters a query relied on.
 * Nothing here is a check of its own (tests/matrices/mutants.test.ts collects checks from the family files).
 */
import type { RequirementId } from '../../facts/requirement-ids';
import type { Exchange } from '../../client/exchange';
import { owned, type Owned, type Step } from './kit';
import { JSON_ANSWER, envelopePresent, resultPresent, status200 } from './env';
import { tokenAccepted } from './auth';
import { ERROR_BODY, ERROR_ENVELOPE, errorNotAsSuccess, statusIs } from './err';
import { everyItem } from './list';
import { listShape } from './schema';

/**
 * The envelope is ENV-01's on a success and ENV-02's on an error; other requirements read it as a precondition. An
 * error lacking what a success of the run lacks too is the envelope's gap everywhere, ENV-01's (envelopeLikeSuccess).
 */
export const envelopeOf = (ex: Exchange): Step[] => ((ex.response?.status ?? 0) >= 400 ? ERROR_ENVELOPE : [owned('ENV-01', envelopePresent)]);

/** A refusal, before its status is read: an error part answered with 2xx is ERR-02's one deviation, wherever it shows. */
export const NOT_AS_SUCCESS: Owned = owned('ERR-02', errorNotAsSuccess);

/**
 * A response is the given error status, with the error kind the spec's table gives for it. The
 * status is the asking requirement's; whether a kind can be read at all is ERR-01's, and whether
 * it is the table's kind is ERR-02's, wherever the error was provoked.
 */
export function errorWith(status: number, ...before: Step[]): Step[] {
  // `before`: what another requirement owns of this answer, judged once an error answered 2xx is ruled out.
  return [NOT_AS_SUCCESS, ...before, statusIs(status), ...ERROR_BODY];
}

/**
 * A success's Result, before anything in it is read: a body that is not JSON is ENV-05's (a warning printed before
 * the envelope leaves no Result to read, it does not lack one), a Result that is not there ENV-06's.
 */
export const RESULT_READ: Step[] = [JSON_ANSWER, owned('ENV-06', resultPresent)];

/**
 * A list answer the asking requirement can read: the 200 is its own finding (the query was
 * accepted); a body that is not JSON is ENV-05's, a missing Result ENV-06's and an Items that is not an array SCHEMA-02's.
 */
export const LISTED: Step[] = [owned('AUTH-05', tokenAccepted), status200, ...RESULT_READ, owned('SCHEMA-02', listShape)];

/**
 * A create's answer, before its Id is read: a body that is not JSON is ENV-05's (a gateway's HTML 504, a warning
 * printed before the envelope: the create's own requirement cannot read an Id there, it is not told a wrong one);
 * where it is a 200, a Result that is not there is ENV-06's (an Id beside the envelope instead of in Result is that
 * one deviation, not a missing Id as well). No answer at all stays the create's own finding.
 */
export const createAnswered = (ex: Exchange): Step[] => (ex.response ? (ex.response.status === 200 ? RESULT_READ : [JSON_ANSWER]) : []);

/** LISTED where the 200 itself is another requirement's (the query of a filter that requirement owns). */
export const listedBy = (owner: RequirementId): Step[] => [...succeeded(owner), ...RESULT_READ, owned('SCHEMA-02', listShape)];

/** A success as its owner's to give: the token accepted (AUTH-05's), then the 200 (the owner's). */
export const succeeded = (owner: RequirementId): Step[] => [owned('AUTH-05', tokenAccepted), owned(owner, status200)];

/** The filters of a list query, in the kit's terms (suites/list-body.ts turns them into the profile's field names). */
export interface FilterQuery {
  assetSpaceId?: string;
  groupType?: string;
  groupIds?: string[];
  name?: string;
}

/**
 * What each filter of a query promises about every item, owned by that filter's requirement: a
 * test that uses filters to reach for something else (a scope boundary, a page) judges its own
 * point only where the filters themselves held.
 */
export function filtersHold(query: FilterQuery): Step[] {
  // Items that cannot be read, or a TotalCount that is not a number, are SCHEMA-02's, whatever was asked.
  const steps: Step[] = [owned('SCHEMA-02', listShape)];
  if (query.assetSpaceId !== undefined)
    steps.push(
      owned(
        'LIST-02',
        everyItem(`AssetSpaceId = ${query.assetSpaceId}`, (item) => item.AssetSpaceId === query.assetSpaceId, 'filtering by asset space'),
      ),
    );
  if (query.groupType !== undefined)
    steps.push(
      owned(
        'LIST-03',
        everyItem(`GroupType = ${query.groupType}`, (item) => item.GroupType === query.groupType, 'filtering by group type'),
      ),
    );
  if (query.groupIds !== undefined)
    steps.push(
      owned(
        'LIST-04',
        everyItem('Id is one of those asked for', (item) => query.groupIds!.includes(item.Id as string), 'filtering by logical ID'),
      ),
    );
  // Every nameMatch setting's matches contain the query, ignoring case: exact and prefix matches are substrings too.
  if (query.name !== undefined)
    steps.push(
      owned(
        'LIST-05',
        everyItem(
          `Name contains ${JSON.stringify(query.name)}`,
          (item) => typeof item.Name === 'string' && item.Name.toLowerCase().includes(query.name!.toLowerCase()),
          'filtering by name',
        ),
      ),
    );
  return steps;
}
