import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';
import { itemsOf, listBody, LISTED, pagingAssessable, type Api, type Judge, type Kit, type Verify } from './fixtures';
import { countsStand, pagedGroups } from './dataset-needs';
import { type Dataset } from './dataset';
import { nthPage, type ListQuery } from './api';
import { checkProperty } from './property';
import { UNUSUAL_UNICODE_CREATES } from './plans/input';
import {
  createAnswered,
  createdWithId,
  everyItem,
  filtersHold,
  itemsAtMost,
  listedBy,
  listsIncluding,
  modelCount,
  modelTotal,
  owned,
  pagesPartition,
  pagingEchoes,
  totalAtMost,
} from './checks';
import type { Exchange } from '../client/exchange';
import type { Profile } from '../schemas/profile';

/**
 * Model-based: random sequences of creates, lists and page walks, checked against a model far
 * simpler than any server. Visibility is eventual, so the model knows each group as pending (created,
 * not yet seen) or visible (seen once, so listed from then on); no command waits for visibility:
 * - a list may or may not show a pending group, must show every visible one it asks for, and
 *   never anything it did not ask for;
 * - a walk over visible groups alone must put each on exactly one page.
 * Every list is confined to the model's own Ids, so whatever else the target holds cannot disturb it.
 */
interface Model {
  /** `initial`: one of the run's groups, visible before the model's run began. */
  groups: { id: string; visible: boolean; initial?: boolean }[];
  /** Whether this run has sent a list, and walked the pages of one. */
  listed: boolean;
  walked: boolean;
  /** Requests of the run's closing list and walk (those that run only where no drawn one did), and the creates it made. */
  closingSent: number;
  created: number;
}

interface Real {
  api: Api;
  verify: Verify;
  judge: Judge;
  profile: Profile;
  /**
   * Creates this test may still make, and the runs still to come, each of which needs one (see modelRuns); and the requests
   * its drawn lists and walks may still send, of what the rest of the run leaves (suites/run-budget.ts).
   */
  budget: { creates: number; runsAfter: number; requests: number };
  /**
   * The run's primary groups and the query that lists exactly them (pagedGroups). Under a one-Id filter
   * (list.idFilterTakes: one) a list asks for one Id, and a walk pages through these by that query:
   * a Name part the model's own groups do not share.
   */
  paged: { ids: string[]; query: ListQuery };
}

const oneId = (r: Real) => r.profile.list.idFilterTakes === 'one';

/** At most this many groups pending at once. */
const MAX_CREATES = 3;

/** The groups a run leaves on the target, at most: the phase's, INPUT-07's and what the model's two tests create. */
const RUN_GROUPS = 15;

/**
 * Groups one model test (`half`) leaves on the target, over all its runs: what the phase's groups (eight, nine with p0's
 * namesake) and INPUT-07's leave of the run's fifteen, shared between the two, one a run at the least (more runs than that
 * are asked only with AG_NUM_RUNS).
 */
function createsOf(dataset: Dataset, half: 0 | 1, numRuns: number): number {
  const left = Math.max(2, RUN_GROUPS - UNUSUAL_UNICODE_CREATES - dataset.groups.length);
  return Math.max(half === 0 ? Math.ceil(left / 2) : Math.floor(left / 2), numRuns);
}

/**
 * Pages of one drawn walk, at most: a page of one is walked over a few groups, a larger page over many, so that one drawn
 * walk does not spend a run's share for the model (suites/run-budget.ts) on pages of one over every group.
 */
const MAX_DRAWN_PAGES = 4;

/** Takes `count` of the drawn requests' share, if it holds them. */
function spend(r: Real, count: number): boolean {
  if (r.budget.requests < count) return false;
  r.budget.requests -= count;
  return true;
}

const listOf = (r: Real, query: ListQuery, pageSize: number, pageNumber: number) =>
  r.api.call('ListAssetGroups', listBody(r.profile, { ...query, pageSize, pageNumber }));

function markSeen(m: Model, ex: Exchange): void {
  const listed = new Set(itemsOf(ex).map((item) => item.Id));
  for (const g of m.groups) if (listed.has(g.id)) g.visible = true;
}

export class CreateGroup implements fc.AsyncCommand<Model, Real> {
  constructor(readonly label: string) {}
  check = (m: Readonly<Model>) => m.groups.filter((g) => !g.visible).length < MAX_CREATES;
  async run(m: Model, r: Real): Promise<void> {
    // Past the test's budget (a create kept for each later run), a drawn create is left out: the model is unchanged.
    if (r.budget.creates <= r.budget.runsAfter) return;
    // A run's first create is held for it; one more is a drawn request like a list.
    if (m.created > 0 && !spend(r, 1)) return;
    r.budget.creates--;
    m.created++;
    const { exchange } = await r.api.create({
      Name: r.api.uniqueName(`m-${this.label}`),
      Title: 'Model probe',
      Description: '',
      GroupType: 'AIGC',
      ProjectName: 'default',
    });
    await r.verify(exchange, [...createAnswered(exchange), owned('CREATE-01', createdWithId)]);
    m.groups.push({ id: (exchange.response!.json as { Result: { Id: string } }).Result.Id, visible: false });
  }
  toString = () => `CreateGroup(${this.label})`;
}

/**
 * Whether a drawn sequence holds a create. fc.commands hands each command over wrapped (its toString is the command's),
 * so `instanceof` sees none: every run then made an extra create, one more group left on the target each time.
 */
export const drawsCreate = (cmds: Iterable<unknown>): boolean => [...cmds].some((command) => String(command).startsWith('CreateGroup('));

/** One page of a list by some of the model's Ids, pending ones included. */
class ListByIds implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly picks: boolean[],
    readonly pageSize: number,
    readonly pageNumber: number,
    /** Run only if the run has sent no list yet: the one every run ends with. */
    readonly ifNoneYet = false,
  ) {}
  check = (m: Readonly<Model>) => m.groups.length > 0 && !(this.ifNoneYet && m.listed);
  async run(m: Model, r: Real): Promise<void> {
    const chosen = m.groups.filter((_, i) => this.picks[i % this.picks.length]);
    const asked = (chosen.length ? chosen : m.groups).slice(0, oneId(r) ? 1 : undefined).map((g) => g.id);
    const visible = m.groups.filter((g) => g.visible && asked.includes(g.id)).map((g) => g.id);
    // A page that may lie past the end is PAGE-06's to judge (list.pageNumber.pastEnd): a target that answers it
    // with the last page, or refuses it, has made the other profile's choice, which the model cannot tell from a bug.
    if ((this.pageNumber - 1) * this.pageSize >= visible.length) return;
    // Past the run's share for drawn requests a drawn list is left out, as a create is: the closing one still runs.
    if (!this.ifNoneYet && !spend(r, 1)) return;
    // this.pageNumber counts pages from 1; the target numbers them from the profile's first page (nthPage).
    const pageNumber = nthPage(r.profile, this.pageNumber);
    const exchange = await listOf(r, { groupIds: asked }, this.pageSize, pageNumber);
    m.listed = true;
    if (this.ifNoneYet) m.closingSent++;
    await r.verify(exchange, [
      // Asking only for pending groups may match nothing yet: how such a list is answered is LIST-06's.
      ...(visible.length ? LISTED : listedBy('LIST-06')),
      owned(
        'LIST-04',
        everyItem('Id is one of those asked for', (item) => asked.includes(item.Id as string), 'filtering by logical ID'),
      ),
      owned('PAGE-01', itemsAtMost(this.pageSize)),
      owned('PAGE-02', pagingEchoes(pageNumber, this.pageSize)),
      // A page that can hold them all must show every visible group asked for (a missing one is lost: VIS-02).
      ...(this.pageNumber === 1 && this.pageSize >= asked.length ? [listsIncluding(visible)] : []),
      // More counted than asked for is the Id filter letting others in (LIST-04's), not a miscount.
      owned('LIST-04', totalAtMost(asked.length)),
      owned('PAGE-04', modelTotal(visible, asked.length)),
      // Pages past the end are PAGE-06's (a SHOULD) and judged there: here they would block this MUST.
      modelCount(pageNumber, this.pageSize),
    ]);
    markSeen(m, exchange);
  }
  toString = () => `ListByIds(picks=${JSON.stringify(this.picks)}, PageSize=${this.pageSize}, PageNumber=${this.pageNumber})`;
}

/** Every page of a query over visible groups only: nothing pending can shift them mid-walk. */
class WalkPages implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly picks: boolean[],
    readonly pageSize: number,
    /**
     * Run only if the run has walked no pages yet: the walk every run ends with. It walks the groups visible
     * when the run began: which of the run's new ones a slow target has shown by then would change the pages,
     * and with them the requests, from one run to the next.
     */
    readonly ifNoneYet = false,
  ) {}
  private walked = (m: Readonly<Model>) => m.groups.filter((g) => g.visible && (!this.ifNoneYet || g.initial));
  check = (m: Readonly<Model>) => this.walked(m).length >= 2 && !(this.ifNoneYet && m.walked);
  async run(m: Model, r: Real): Promise<void> {
    const visible = this.walked(m);
    const chosen = visible.filter((_, i) => this.picks[i % this.picks.length]);
    const picked = (chosen.length >= 2 ? chosen : visible).map((g) => g.id);
    const { ids, query } = oneId(r) ? r.paged : { ids: picked, query: { groupIds: picked } };
    // A drawn walk takes at most MAX_DRAWN_PAGES pages: a page of one is walked over a few groups, a larger page over many.
    const pageSize = (this.walkedWith = this.ifNoneYet ? this.pageSize : Math.max(this.pageSize, Math.ceil(ids.length / MAX_DRAWN_PAGES)));
    if (!this.ifNoneYet && !spend(r, Math.ceil(ids.length / pageSize))) return;
    const pages = await Promise.all(Array.from({ length: Math.ceil(ids.length / pageSize) }, (_, i) => listOf(r, query, pageSize, nthPage(r.profile, i + 1))));
    m.walked = true;
    if (this.ifNoneYet) m.closingSent += pages.length;
    for (const page of pages) await r.verify(page, [...LISTED, ...filtersHold(query), owned('PAGE-01', itemsAtMost(pageSize))]);
    await r.judge(pages, pagesPartition(ids));
  }
  /** The page size the walk took (more than the drawn one over many groups): what a replay shows. */
  private walkedWith?: number;
  toString = () => `WalkPages(picks=${JSON.stringify(this.picks)}, PageSize=${this.walkedWith ?? this.pageSize})`;
}

/**
 * The model's runs, in two tests of their own seeds (AG_SEED and AG_SEED + 1): each run is a chain of
 * commands one after another, so two halves on two workers take half the time. A failure's replay
 * line names the test and the seed to give.
 */
export async function modelRuns(
  { api, dataset, verify, judge, profile, kit }: { api: Api; dataset: Dataset; verify: Verify; judge: Judge; profile: Profile; kit: Kit },
  testInfo: TestInfo,
  half: 0 | 1,
): Promise<void> {
  pagingAssessable(dataset);
  // Counts are read on every list below: the phase's count of the run's groups first (PAGE-04's).
  await countsStand(dataset, verify);
  const paged = pagedGroups(profile, dataset);
  // The run's primary groups were seen by the create-and-wait phase: the model starts with them visible.
  const known = paged.ids.map((id) => ({ id, visible: true, initial: true }));
  const maxSize = Math.min(profile.list.pageSize.maximum, 5);
  const picks = fc.array(fc.boolean(), { minLength: 1, maxLength: known.length + MAX_CREATES });
  const size = fc.integer({ min: Math.max(1, profile.list.pageSize.minimum), max: maxSize });
  const commands = fc.commands(
    [
      fc.constantFrom('a', 'b', 'c').map((label) => new CreateGroup(label)),
      fc.tuple(picks, size, fc.integer({ min: 1, max: 3 })).map(([p, s, n]) => new ListByIds(p, s, n)),
      fc.tuple(picks, fc.integer({ min: Math.max(1, profile.list.pageSize.minimum), max: 3 })).map(([p, s]) => new WalkPages(p, s)),
    ],
    { maxCommands: 5 },
  );
  // Each run sends at least a create and its closing list and walk: as many runs as this half's share of what the rest of the
  // run leaves pays for (one at the least), and what remains for the drawn commands (suites/run-budget.ts).
  const closingPageSize = Math.max(2, profile.list.pageSize.minimum);
  const leastPerRun = 2 + Math.ceil(known.length / closingPageSize);
  const share = dataset.spareRequests === undefined ? Infinity : Math.floor(dataset.spareRequests / 2);
  const numRuns = Math.max(1, Math.min(Math.floor(kit.config.numRuns / 10), Math.floor(share / leastPerRun)));
  const budget = { creates: createsOf(dataset, half, numRuns), runsAfter: numRuns, requests: share - numRuns * leastPerRun };
  await checkProperty(
    testInfo,
    { ...kit.config, seed: kit.config.seed + half },
    fc.asyncProperty(commands, async (cmds) => {
      // Every run creates, lists and walks at least once: fc.commands may draw an empty sequence, and a
      // run that sends nothing would pass without having looked at the target. A run that draws a create
      // needs no extra one (every group is one more left on the target), nor one that has listed or
      // walked by its end another list or walk: the closing ones run only if none did.
      const drawnCreate = drawsCreate(cmds);
      budget.runsAfter = Math.max(0, budget.runsAfter - 1);
      const sequence = [
        ...(drawnCreate ? [] : [new CreateGroup('first')]),
        ...cmds,
        new ListByIds([true], maxSize, 1, true),
        // Pages of two at the least: the drawn walks try every size from the minimum up, and a walk one group a page over
        // the run's ten-odd groups cost ten requests a run, what pushed a run past 250 requests for some seeds.
        new WalkPages([true], closingPageSize, true),
      ];
      let model: Model | undefined;
      await fc.asyncModelRun(() => {
        model = { groups: known.map((g) => ({ ...g })), listed: false, walked: false, closingSent: 0, created: 0 };
        return { model, real: { api, verify, judge, profile, budget, paged } };
      }, sequence);
      // What was held for this run and not sent (a closing list or walk a drawn one made unneeded, a create left out) is the next's.
      budget.requests += leastPerRun - Math.min(1, model?.created ?? 0) - (model?.closingSent ?? 0);
    }),
    { numRuns },
  );
}
