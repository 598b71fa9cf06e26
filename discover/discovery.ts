/**
 * The probing half of `agc profile discover`: asks a target a bounded number of questions and
 * records, for every setting of the profile, either the value its answers show (with the request
 * and the answer as evidence) or why it stays at the reference value.
 *
 * Ground rules, which the kit's own tests hold it to (tests/matrices/discover.test.ts):
 * - at most BUDGET.requests requests and BUDGET.creates groups created, whatever the target says
 *   (a refused create creates nothing and counts as a request only); the list is probed before
 *   any create beyond the run's three groups, and one create is kept for every bound reported;
 * - every Name it creates starts with `agc-<run-id>-`, and once the Id filter is known every list
 *   request is limited to the run's own groups, so it reads the same on a busy target as on an
 *   empty one;
 * - a guessed field name counts as recognised only by its effect on the run's own data (a page
 *   size of 1 returns one of three groups and echoes PageSize 1), and as unknown when the answer
 *   ignores it or refuses it with a 400. An echo alone is never taken as proof.
 * - the first request that gets no usable HTTP answer (refused, reset, timed out, HTML) ends the
 *   discovery with a TargetError: the caller reports it and exits non-zero.
 */
import { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';
import { BudgetExhausted, DiscoverSession, type Decision } from './client';
import { createRunGroups } from './create';
import { lengthBounds } from './lengths';
import { errorPart } from './error-shape';
import { idFilter, oneIdPagingScope, valueFilter, type Scope } from './list';
import { timestampFormat } from './items';
import { nameFilter } from './name';
import { largestPage, pageNumberField, pageSizeField, pagingDefaults, pagingMinimums, pastEnd } from './paging';

export { BUDGET, shortJson, TargetError, TokenError, type Decision, type Target } from './client';
export { pointersTo } from './error-shape';
export { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';

export interface Discovery {
  decisions: Map<string, Decision>;
  /** Whether error bodies carry a Result (the draft then does not forbid one). */
  errorHasResult: boolean;
  requests: number;
  createRequests: number;
  created: { id: string; name: string }[];
  runId: string;
  namePrefix: string;
  /** Problems of the run as a whole (budget spent, groups never visible), for the summary. */
  notes: string[];
}

/** The paging settings found by paging through several of the run's groups (the defaults are read from any list). */
const PAGING_SETTINGS = [
  'list.pageNumber.field',
  'list.pageNumber.minimum',
  'list.pageNumber.pastEnd',
  'list.pageSize.field',
  'list.pageSize.minimum',
  'list.pageSize.maximum',
  'list.pageSize.aboveMaximum',
  'list.invalidPaging',
  'list.fractionalPaging',
];

/** The discovery: each step asks through the session, in the order their findings are needed. */
export class Discoverer extends DiscoverSession {
  async run(): Promise<Discovery> {
    try {
      // Lists first: the error shape (no group needed), then the run's three groups and all that
      // needs them; the length bounds last, with what the create budget has left.
      await errorPart(this);
      const required = await createRunGroups(this);
      const scope = await idFilter(this);
      const defaults = pagingDefaults(this, scope);
      if (scope?.oneId) {
        // A list by Id holds one of the run's groups. How the Name filter matches decides which list the paging is probed
        // through, as it decides which the run pages (pagesOf), so it comes first. Then the length bounds, which targets choose most
        // differently; then the paging, through the list the kit's run pages (oneIdPagingScope); the value filters,
        // with what is left.
        timestampFormat(this, scope);
        await nameFilter(this, scope);
        await lengthBounds(this, required);
        const paged = await oneIdPagingScope(this, scope);
        if (paged) await this.paging(paged, defaults);
        else
          this.keepPaging(
            "the Id filter takes one Id and no list of several of the run's groups was found to page through (how the Name filter matches is not known, or the Name part they share listed others)",
          );
        await valueFilter(this, scope, 'groupType', CANDIDATES.groupType, 'agc-no-such-type', 'AIGC');
        await valueFilter(this, scope, 'assetSpaceId', CANDIDATES.assetSpaceId, 'agc-no-such-space', scope.assetSpaceId);
      } else if (scope) {
        timestampFormat(this, scope);
        await this.paging(scope, defaults);
        await nameFilter(this, scope);
        await valueFilter(this, scope, 'groupType', CANDIDATES.groupType, 'agc-no-such-type', 'AIGC');
        await valueFilter(this, scope, 'assetSpaceId', CANDIDATES.assetSpaceId, 'agc-no-such-space', scope.assetSpaceId);
      }
      if (!scope?.oneId) await lengthBounds(this, required);
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      this.notes.push(`${error.message}; the settings not yet probed stay at the reference values`);
      this.log(`stopped early: ${error.message}`);
    }
    this.keepTheRest();
    return {
      decisions: this.decisions,
      errorHasResult: this.errorHasResult,
      requests: this.requests,
      createRequests: this.createRequests,
      created: this.created.map((g) => ({ id: g.id, name: g.name })),
      runId: this.target.runId,
      namePrefix: this.namePrefix,
      notes: this.notes,
    };
  }

  /** The paging fields and bounds, over a list of all the run's groups (or the user's whole list, which holds them). */
  private async paging(scope: Scope, defaults: { pageNumber: number; pageSize: number }): Promise<void> {
    const sized = await pageSizeField(this, scope, defaults);
    if (sized) await pageNumberField(this, scope, sized, defaults);
    await pagingMinimums(this, scope);
    await largestPage(this, scope);
    await pastEnd(this, scope);
  }

  private keepPaging(why: string): void {
    for (const setting of PAGING_SETTINGS) this.keep(setting, why);
  }

  /** Everything not probed, with the reason. */
  private keepTheRest(): void {
    const why: Record<string, string> = {
      'create.groupTypes': 'not probed: a create with another GroupType would leave a group of that type on the target',
      'create.defaults.ProjectName': 'not probed',
    };
    for (const setting of [
      'error.codePointer',
      'error.messagePointer',
      'list.filterField',
      'list.filters.groupIds',
      'list.idFilterTakes',
      'list.filters.name',
      'list.filters.groupType',
      'list.filters.assetSpaceId',
      'list.nameMatch',
      'list.pageNumber.default',
      'list.pageSize.default',
      ...PAGING_SETTINGS,
      'create.requiredFields',
      'create.maxLength.Name',
      'create.maxLength.Description',
      'create.lengthUnit',
      'create.defaults.ProjectName',
      'create.groupTypes',
      'timestamps.format',
    ]) {
      if (!this.decisions.has(setting)) this.keep(setting, why[setting] ?? 'not probed: an earlier step could not be completed, or the budget ran out');
    }
  }
}
