import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { boundExchange } from '../client/evidence';
import type { Exchange } from '../client/exchange';
import { backOff } from '../client/backoff';
import { ensureRunDir, publishPrivate, runFile, writePrivate } from '../client/run-dir';
import { deepFreeze } from '../schemas/spec';
import { type RequestStats, type RetryCounts } from './api';
import { type Failure } from './checks';
import type { TokenRole } from '../config';
import { CREATED_FORMAT, type CreatedRecord, type CreatedVia } from '../facts/created';

/**
 * The run's own groups, created once before the suites start and shared by every test that needs
 * created groups: one create-and-wait phase per run instead of one per test (suites/dataset-setup.ts).
 * The phase never throws; it records what happened, and the tests judge the record (CREATE-01, VIS-01, …).
 */
export interface GroupRecord {
  /** The key of its name in GROUPS: what the record and the reports show. */
  key: string;
  via: TokenRole;
  /** The requirement a refused create of this group fails: CREATE-01, or CREATE-05 for values at the profile's bounds. */
  judgedBy: string;
  sent: Record<string, string>;
  id: string | null;
  create: Exchange;
  attempts: number;
  /** Epoch ms when the create answered. */
  createdAt: number;
  /** Create answer to the first list answer that showed the group; null if it never showed. */
  visibleAfterMs: number | null;
  /**
   * Create answer to the sending of the last poll that did not show the group. Only a poll sent after the visibility
   * timeout that missed it shows the group late: a poll the kit itself sent late (a create retried after a 429, a busy
   * machine) that shows it proves nothing either way.
   */
  missedAtMs?: number;
}

export interface Dataset {
  runId: string;
  prefix: string;
  startedAt: string;
  finishedAt: string;
  visibilityTimeoutMs: number;
  groups: GroupRecord[];
  /**
   * Answers several requirements read, sent once: the preflight's list with body {} (ENV, VER,
   * LIST-01, PAGE-03), and client mistakes the spec documents an error for, provoked on purpose
   * (ENV-02, VER, ERR): no token, a malformed body, a body that is not an object, for each operation.
   */
  shared: { emptyList: Exchange; provoked: Exchange[] };
  /** The last visibility poll of each token role, as evidence. */
  lastPolls: Partial<Record<TokenRole, Exchange>>;
  /** The polls that are the suites' reads too (pollShared: role and body), answered while the phase was still waiting. */
  sharedPolls: string[];
  polls: number;
  retries: RetryCounts;
  rateLimited: Exchange[];
  /** A problem of the phase itself (budget, kit bug), as opposed to a target's answer. */
  error?: string;
  /** What the phase sent, for the benchmarks (bench/run.ts): its creates alone, and in all (creates and polls). */
  requests?: { creates: RequestStats; all: RequestStats };
  /**
   * What the target's answers during the phase showed it does differently from the profile, with the
   * setting that fits: `paging` when a page of size 1 over several groups held more (it does not read
   * the profile's paging fields); `idFilter` when the profile's Id filter was ignored but another name
   * APIs of this family use filters. The requirements that depend on them are not assessable.
   */
  profileMismatch?: { paging?: string; idFilter?: string; filters?: Partial<Record<ValueFilter, string>> };
  /** A visibility poll listed groups it did not ask for: the Id filter was ignored. */
  idFilterLeaked?: boolean;
  /**
   * A visibility poll was refused with 400, and so was the same Id filter holding no Id: the target
   * refuses the filter itself (a field it does not know), which waiting does not change, so the phase
   * stopped polling rather than wait out the visibility timeout.
   */
  pollsRefused?: boolean;
  /**
   * Filters whose query matching nothing listed groups, under the profile's name and under every
   * other name the kit knows: the owner's test fails on it (VALUE_FILTERS); no other test judges how
   * the target reads a field it ignores.
   */
  ignoredFilters?: ValueFilter[];
  /**
   * Why groups were never seen, when the last polls show it was not visibility: the groups were listed
   * under Ids of another JSON type (SCHEMA-02's), or the first page held fewer of the matches than it
   * had room for (a page that starts late: PAGE-05's). The finding of its owner, wherever it blocks.
   */
  unseenBecause?: { owner: string; failure: Failure; exchange: Exchange };
  /** The Id filter kept only some of the Ids asked for together: unseenBecause is LIST-04's, and it blocks every test that reads groups. */
  idFilterDrops?: boolean;
  /** What PAGE-05's model may spend of the run's requests (suites/run-budget.ts); unset: no cap. */
  spareRequests?: number;
}

/**
 * The run's groups, named by the role each plays in the suites; each is created through the token
 * `via`, under `key` (what the record, its Names and the reports carry).
 */
export const GROUPS = {
  /** A plain group: the run's first create, the success ENV and VER read. */
  plain: { key: 'p0', via: 'primary' },
  /** Text of several scripts and of every Unicode plane, well inside any bound (CREATE-02). */
  everyScript: { key: 'p1', via: 'primary' },
  /** Mixed case in the Name: LIST-05 finds it by its Name, LIST-07 tells how the name filter treats case. */
  mixedCaseName: { key: 'p2', via: 'primary' },
  /** Leading, trailing and inner whitespace, to come back as sent (CREATE-02); sent without a ProjectName, for CREATE-04's default. */
  whitespace: { key: 'p3', via: 'primary' },
  /** At the profile's bounds: CREATE-05's alone. Not a p key: pagedGroups pages through the p groups by their shared Name part. */
  atBounds: { key: 'e5', via: 'primary' },
  /** Created through the channel-A token. Both channels' keys start with c: channelNamePart finds the two and no other. */
  channelA: { key: 'ca', via: 'channelA' },
  /** Created through the channel-B token. */
  channelB: { key: 'cb', via: 'channelB' },
  /**
   * A second group of p0's very Name, planned only where no other query lists the run's groups alone (namesakeNeeded):
   * the two are then the list the walks and the page past the end page through (pagedGroups). PAGE-05's: the spec says
   * nothing of unique Names, so a target may refuse a Name the user already has, and then those are not assessable.
   */
  namesake: { key: 'q0', via: 'primary' },
  /**
   * Created through the second user's token, and read by no test of that user: the run's model then holds a group the
   * primary user may not see, which VIS-02's last read asks for beside the primary's own, and the run-wide oracle finds
   * wherever a list of the primary user shows it (a server that exempts some users from the owner filter, as a staff or
   * first account often is). Never polled: no read of the second user waits for it.
   */
  secondUser: { key: 'ou', via: 'otherUser' },
} as const satisfies Record<string, { key: string; via: TokenRole }>;
export type GroupName = keyof typeof GROUPS;

/** The token roles whose groups the tests read back (the second user's group is read by none: GROUPS.secondUser). */
export const CREATING_ROLES = ['primary', 'channelA', 'channelB'] as const;

/** Selects one named group, for groupsOf. */
export const isGroup =
  (name: GroupName) =>
  (g: GroupRecord): boolean =>
    g.key === GROUPS[name].key;

/**
 * Groups that only their own tests read, so that a target's answer to them blocks no other test: the group at the
 * profile's bounds (CREATE-05's; read where `bounds` is asked), p0's namesake (the walks', through pagedGroups) and the
 * second user's (VIS-02's last read, and the oracle).
 */
export const readAlone = (g: { key: string; judgedBy: string }, { bounds = false } = {}): boolean =>
  (!bounds && g.judgedBy === 'CREATE-05') || g.key === GROUPS.namesake.key || !polled(g);

/** The phase waits for every group to show up to the token that created it, but the second user's (GROUPS.secondUser). */
export const polled = (g: { key: string }): boolean => g.key !== GROUPS.secondUser.key;

/** The Id of the second user's group, where its create was answered with one: none, or one. */
export const secondUserIds = (dataset: Dataset): string[] =>
  dataset.groups.filter((g): g is GroupRecord & { id: string } => isGroup('secondUser')(g) && g.id !== null).map((g) => g.id);

/**
 * What a run leaves for `agc certify` to read back after later runs (facts/created.ts): its groups listed to the token
 * that created them, by Id, with the values sent, except those only their own tests read (readAlone: a group at the
 * profile's bounds is CREATE-05's to judge, not CREATE-02's).
 */
export function createdOf(dataset: Dataset): CreatedRecord {
  const kept = dataset.groups.filter((g): g is GroupRecord & { id: string } => g.id !== null && g.visibleAfterMs !== null && !readAlone(g));
  return {
    format: CREATED_FORMAT,
    runId: dataset.runId,
    groups: kept.map((g) => ({ key: g.key, via: g.via as CreatedVia, id: g.id, sent: g.sent, createdAt: new Date(g.createdAt).toISOString() })),
  };
}

/** The dataset lives in the run's private folder (run-dir.ts), removed at the end of the run. */
export function datasetFile(runId: string): string {
  return runFile(runId, 'dataset');
}

/**
 * Written once, private to the user (folder 700, file 600). Every exchange is bounded first
 * (evidence.ts): a target's megabyte or thousand-deep answers would otherwise be read back by
 * every test, or fail to serialise at all. Returns what it wrote: the dataset as the workers read it.
 */
export function saveDataset(dataset: Dataset): Dataset {
  const file = datasetFile(dataset.runId);
  ensureRunDir(dataset.runId);
  const bounded: Dataset = {
    ...dataset,
    groups: dataset.groups.map((g) => ({ ...g, create: boundExchange(g.create) })),
    shared: { emptyList: boundExchange(dataset.shared.emptyList), provoked: dataset.shared.provoked.map((ex) => boundExchange(ex)) },
    lastPolls: Object.fromEntries(Object.entries(dataset.lastPolls).map(([role, ex]) => [role, ex && boundExchange(ex)])) as Dataset['lastPolls'],
    rateLimited: dataset.rateLimited.map((ex) => boundExchange(ex)),
  };
  writePrivate(file, JSON.stringify(bounded));
  return bounded;
}

/**
 * The create-and-wait phase runs in the runner while the workers start (global-setup.ts), so the
 * seconds a worker takes to load overlap the phase's round trips. It ends with this marker, after
 * dataset.json: empty when the phase finished, its error when it failed.
 */
const phaseMarker = (runId: string) => runFile(runId, 'phaseDone');

export function markPhaseDone(runId: string, error?: string): void {
  ensureRunDir(runId);
  publishPrivate(phaseMarker(runId), error ?? '');
}

/** A marker left by an earlier run with the same id (kept with AG_KEEP_TEMP) is not this run's. */
export function clearPhaseDone(runId: string): void {
  rmSync(phaseMarker(runId), { force: true });
}

/** How often a worker looks for the marker: a stat, cheap next to a round trip. */
const PHASE_POLL_MS = 20;

/**
 * Resolves once the phase has finished; throws its error if it failed, or after `patienceMs` (the phase
 * is bounded by its own timeouts, so this only stops a worker waiting on a phase that died unmarked).
 */
export async function phaseFinished(runId: string, patienceMs: number): Promise<void> {
  const deadline = Date.now() + patienceMs;
  while (!existsSync(phaseMarker(runId))) {
    if (Date.now() > deadline) throw new Error(`the create-and-wait phase did not finish within ${Math.round(patienceMs / 1000)} s`);
    await sleep(PHASE_POLL_MS);
  }
  const error = readFileSync(phaseMarker(runId), 'utf8');
  if (error) throw new Error(`the create-and-wait phase failed: ${error}`);
}

/** Each run's dataset as this process read it: written once by the phase before its marker, never after. */
const loaded = new Map<string, Dataset>();

/**
 * The run's dataset, parsed once per process and frozen: every test of a worker reads the same one (in the matrices a
 * worker judges up to 24 targets, 71 tests each), and none can change what the next one reads.
 */
export function loadDataset(runId: string): Dataset {
  let dataset = loaded.get(runId);
  if (!dataset) loaded.set(runId, (dataset = deepFreeze(JSON.parse(readFileSync(datasetFile(runId), 'utf8')) as Dataset)));
  return dataset;
}

/**
 * When a read of these groups of the run can no longer miss one (epoch ms): the latest of their creates plus the
 * visibility timeout. Within it a group may be missing, even after a read that listed it (replicas, a reloaded
 * snapshot). Undefined where one of them is not the phase's.
 */
export function visibilityBound(dataset: Dataset, ids: readonly unknown[], createdElsewhere: ReadonlyMap<string, number> = new Map()): number | undefined {
  const createdAt = new Map<unknown, number>([...createdElsewhere, ...dataset.groups.map((g) => [g.id, g.createdAt] as const)]);
  const times = ids.map((id) => createdAt.get(id as string));
  if (!times.length || times.some((t) => t === undefined)) return undefined;
  return Math.max(...(times as number[])) + dataset.visibilityTimeoutMs;
}

/** A group never listed to the token it was created through: VIS-01's finding, or CHAN-01's for a channel-bound token. */
export const visibilityOwner = (g: GroupRecord): string => (g.via === 'primary' ? 'VIS-01' : 'CHAN-01');

/**
 * The longest wait between polls for groups not listed yet (the phase's, everyGroupListed's), which bounds how late the kit sees a group that has shown up:
 * a run waits that much more, and the report states a lag that much too long. With waits growing to
 * 2 s, a group visible 2.1 s after its create was seen at 3.2 s (a 3 s snapshot: 1.1 s of a 3.6 s run
 * in every other bench run). Against a snapshot refreshed every 3 s, met at any point of its period, a cap of 750 ms saw
 * the groups 326 ms after they showed on average, 500 ms 239 ms, for one poll more (bench/README.md). At most two
 * rounds a second, each a list of the run's few Ids.
 */
export const POLL_CAP_MS = 500;

/**
 * The waits after polls that missed some of the run's groups: 100 ms first, doubling to POLL_CAP_MS (bench/README.md says
 * why doubling: fewer polls against a lag of seconds, and a group seen at most POLL_CAP_MS later).
 */
export const pollDelays = (): Generator<number, never, void> => backOff(100, POLL_CAP_MS);

/** How sharedPolls names a poll: its token role and its body. */
export const pollShared = (role: TokenRole, body: unknown): string => `${role} ${JSON.stringify(body)}`;

/** The filters other than the Id filter, each with the requirement that owns it. */
export const VALUE_FILTERS = { assetSpaceId: 'LIST-02', groupType: 'LIST-03', name: 'LIST-05' } as const;
export type ValueFilter = keyof typeof VALUE_FILTERS;
