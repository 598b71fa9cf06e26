import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api, listBody, type RequestStats, type RetryCounts } from './api';
import type { KitConfig, TokenRole } from './config';
import type { Exchange } from './exchange';
import type { Profile } from '../schemas/profile';
import { readPointer } from '../schemas/profile';

/**
 * The run's own groups, created once before the suites start and shared by every test that needs
 * created groups: one create-and-wait phase per run instead of one per test. The phase never
 * throws; it records what happened, and the tests judge the record (CREATE-01, VIS-01, …).
 */
export interface GroupRecord {
  key: string;
  via: TokenRole;
  sent: Record<string, string>;
  id: string | null;
  create: Exchange;
  attempts: number;
  /** Epoch ms when the create answered. */
  createdAt: number;
  /** Create answer to the first list answer that showed the group; null if it never showed. */
  visibleAfterMs: number | null;
}

export interface Dataset {
  runId: string;
  prefix: string;
  startedAt: string;
  finishedAt: string;
  visibilityTimeoutMs: number;
  groups: GroupRecord[];
  /** The last visibility poll of each token role, as evidence. */
  lastPolls: Partial<Record<TokenRole, Exchange>>;
  polls: number;
  retries: RetryCounts;
  rateLimited: Exchange[];
  /** A problem of the phase itself (budget, kit bug), as opposed to a target's answer. */
  error?: string;
  /** What the phase sent, for the benchmarks (bench/run.ts): its creates alone, and in all (creates and polls). */
  requests?: { creates: RequestStats; all: RequestStats };
}

export function datasetFile(runId: string): string {
  return path.join(os.tmpdir(), `agc-run-${runId}`, 'dataset.json');
}

/** What each of the run's groups is created with. Kept small: it is the kit's whole footprint. */
type Planned = { key: string; via: TokenRole; sent: Record<string, string> };

function plan(prefix: string, has: (role: TokenRole) => boolean): Planned[] {
  const salt = Math.random().toString(36).slice(2, 8);
  const name = (key: string) => `${prefix}ds-${key}-${salt}`;
  const groups: Planned[] = [
    { key: 'p0', via: 'primary', sent: { Name: name('p0'), Title: 'Conformance probe p0', Description: 'Created by the asset-group conformance kit', GroupType: 'AIGC', ProjectName: 'default' } },
    { key: 'p1', via: 'primary', sent: { Name: `${name('p1')}-Grüße-世界-🎬-e\u0301`, Title: 'Grüße, 世界 — ✓', Description: 'Unicode survives a round trip: Grüße, 世界, emoji 🎬', GroupType: 'AIGC', ProjectName: 'agc-project' } },
    { key: 'p2', via: 'primary', sent: { Name: name('p2'), Title: 'Conformance probe p2', Description: '', GroupType: 'AIGC', ProjectName: 'default' } },
    { key: 'p3', via: 'primary', sent: { Name: name('p3'), Title: 'Conformance probe p3', Description: 'Third of five', GroupType: 'AIGC', ProjectName: 'agc-project' } },
    // No ProjectName: CREATE-04 looks for the profile's default in the list item.
    { key: 'p4', via: 'primary', sent: { Name: name('p4'), Title: 'Conformance probe p4', Description: 'ProjectName omitted', GroupType: 'AIGC' } },
    { key: 'a', via: 'channelA', sent: { Name: name('a'), Title: 'Channel A probe', Description: 'Created through the channel-A token', GroupType: 'AIGC', ProjectName: 'default' } },
    { key: 'b', via: 'channelB', sent: { Name: name('b'), Title: 'Channel B probe', Description: 'Created through the channel-B token', GroupType: 'AIGC', ProjectName: 'default' } },
  ];
  return groups.filter((g) => has(g.via));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The largest page the profile allows, not one the size of the pending Ids: then a target that
 * mishandles the Id filter still shows the run's few new groups on its first page, and what fails
 * is the filter's own requirement (LIST-04), deterministically, not visibility by chance.
 */
function idsFilter(profile: Profile, ids: string[]): Record<string, unknown> {
  return listBody(profile, { groupIds: ids, pageSize: profile.list.pageSize.maximum });
}

/** Items of a list answer, or [] when the answer is not a list result. */
export function itemsOf(exchange: Exchange | undefined): Record<string, unknown>[] {
  const items = readPointer(exchange?.response?.json, '/Result/Items');
  return Array.isArray(items) ? items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

export async function buildDataset(config: KitConfig & { baseURL: string }, profile: Profile): Promise<Dataset> {
  const started = new Date();
  const api = new Api(config, (_role, variable) => {
    throw new Error(`${variable} is not configured`);
  });
  const dataset: Dataset = {
    runId: config.runId,
    prefix: config.namePrefix,
    startedAt: started.toISOString(),
    finishedAt: '',
    visibilityTimeoutMs: config.visibilityTimeoutMs,
    groups: [],
    lastPolls: {},
    polls: 0,
    retries: api.retries,
    rateLimited: api.rateLimited,
  };
  let creates = api.requestStats();
  try {
    const planned = plan(config.namePrefix, (role) => api.has(role));
    // A few creates at a time: enough to overlap the target's latency, few enough to stay gentle.
    const queue = [...planned];
    const workers = Array.from({ length: 3 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { exchange, attempts } = await api.create(next.sent, next.via);
        const id = readPointer(exchange.response?.json, '/Result/Id');
        dataset.groups.push({ ...next, id: exchange.response?.status === 200 && typeof id === 'string' && id !== '' ? id : null, create: exchange, attempts, createdAt: Date.now(), visibleAfterMs: null });
      }
    });
    await Promise.all(workers);
    creates = api.requestStats();
    dataset.groups.sort((a, b) => planned.findIndex((p) => p.key === a.key) - planned.findIndex((p) => p.key === b.key));
    await waitForVisibility(api, profile, dataset, config.visibilityTimeoutMs);
  } catch (error) {
    dataset.error = (error as Error).message;
  }
  dataset.finishedAt = new Date().toISOString();
  dataset.requests = { creates, all: api.requestStats() };
  return dataset;
}

/**
 * Polls each token's list, filtered by the Ids created through that token, until every group has
 * shown up or its visibility timeout has passed. Gentle: one request per token per round, and
 * rounds back off from 100 ms to 2 s.
 */
async function waitForVisibility(api: Api, profile: Profile, dataset: Dataset, timeoutMs: number): Promise<void> {
  let delay = 100;
  for (;;) {
    const pending = dataset.groups.filter((g) => g.id !== null && g.visibleAfterMs === null && Date.now() - g.createdAt <= timeoutMs);
    if (pending.length === 0) return;
    const roles = [...new Set(pending.map((g) => g.via))];
    await Promise.all(
      roles.map(async (role) => {
        const ids = pending.filter((g) => g.via === role).map((g) => g.id!);
        const exchange = await api.call('ListAssetGroups', idsFilter(profile, ids), { as: role });
        dataset.polls++;
        dataset.lastPolls[role] = exchange;
        const seen = new Set(itemsOf(exchange).map((item) => item.Id));
        const answeredAt = Date.now();
        for (const group of pending) if (group.via === role && seen.has(group.id)) group.visibleAfterMs = answeredAt - group.createdAt;
      }),
    );
    const nextDeadline = Math.min(...pending.map((g) => g.createdAt + timeoutMs)) - Date.now();
    await sleep(Math.max(0, Math.min(delay, nextDeadline + 1)));
    delay = Math.min(Math.round(delay * 1.5), 2000);
  }
}

export function saveDataset(dataset: Dataset): string {
  const file = datasetFile(dataset.runId);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(dataset));
  return file;
}

export function loadDataset(runId = process.env.AG_RUN_ID ?? 'local'): Dataset {
  return JSON.parse(readFileSync(datasetFile(runId), 'utf8')) as Dataset;
}

/** Groups of the dataset, with an error that names the cause when the phase could not provide them. */
export function groupsOf(dataset: Dataset, filter: (g: GroupRecord) => boolean, { visible = true } = {}): (GroupRecord & { id: string })[] {
  if (dataset.error) throw new Error(`the run's groups could not be created: ${dataset.error}`);
  const chosen = dataset.groups.filter(filter);
  const broken = chosen.filter((g) => g.id === null || (visible && g.visibleAfterMs === null));
  if (broken.length) {
    const why = broken
      .map((g) => (g.id === null ? `${g.key}: create answered HTTP ${g.create.response?.status ?? `nothing (${g.create.networkError})`}` : `${g.key}: never became visible within ${dataset.visibilityTimeoutMs} ms`))
      .join('; ');
    throw new Error(`this check needs the run's groups, and some are missing (${why}); see CREATE-01 and VIS-01`);
  }
  return chosen as (GroupRecord & { id: string })[];
}
