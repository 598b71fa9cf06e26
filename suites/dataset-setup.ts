import { itemsOf } from './checks';
import { Api, CONCURRENCY, listBody, RawBody } from './api';
import type { KitConfig, TokenRole } from '../config';
import type { Exchange } from '../client/exchange';
import { firstPageHoldsMatches, listShape } from './checks';
import type { Profile } from '../schemas/profile';
import { lengthIn, readPointer } from '../schemas/profile';
import { namesakeNeeded, pollQuery, runNameParts } from './dataset-queries';
import { detectIdFilters, detectValueFilters } from './detect';
import { detectPaging } from './detect-paging';
import { GROUPS, polled, pollDelays, pollShared, type Dataset, type GroupName } from './dataset';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The create-and-wait phase, run once by suites/global-setup.ts before the suites: it creates the
 * run's groups (suites/dataset.ts names them), provokes the client mistakes several requirements
 * read, waits until every group is listed, and detects what the answers showed the target does
 * differently from the profile. It never throws: it records what happened in the Dataset.
 */

/**
 * Characters of every Unicode plane that has assigned or private-use characters (0, 1, 2, 3, 14,
 * 15, 16), composed and combining: a value made of them must come back as sent, not normalised,
 * re-encoded or cut at a UTF-16 boundary. Planes 4 to 13 are unassigned and not sent.
 */
const PLANES = ['é', 'e\u0301', '世', '🎬', '𝄞', '𠀀', '\u{30000}', '\u{E0100}', '\u{F0000}', '\u{10FFFD}'];

/** Every plane once: 10 code points, 17 UTF-16 units, 35 UTF-8 bytes, well inside any bound the kit tests. */
export const EVERY_PLANE = PLANES.join('');

/**
 * `start` padded to exactly `length` in the profile's length unit, or left as is when longer. The
 * unit of a bound is not shown: with none stated, the padding is ASCII, whose length is the same in
 * code points, UTF-16 units and bytes; with one stated, it is text of every plane measured in it.
 */
export function atLength(start: string, length: number, unit?: Profile['create']['lengthUnit']): string {
  let out = start;
  for (let i = 0; lengthIn(out, unit) < length; i++) {
    const next = unit === undefined ? 'a' : PLANES[i % PLANES.length];
    // A character that would overshoot the bound in this unit is replaced by ASCII.
    out += lengthIn(out + next, unit) <= length ? next : 'a';
  }
  return out;
}

/** What each of the run's groups is created with. Kept small: it is the kit's whole footprint. */
type Planned = { key: string; via: TokenRole; judgedBy: string; sent: Record<string, string> };

function plan(prefix: string, has: (role: TokenRole) => boolean, profile: Profile): Planned[] {
  const salt = Math.random().toString(36).slice(2, 8);
  const name = (key: string) => `${prefix}ds-${key}-${salt}`;
  const planned = (group: GroupName, sent: Record<string, string>, judgedBy = 'CREATE-01'): Planned => {
    const { key, via } = GROUPS[group];
    return { key, via, judgedBy, sent: { Name: name(key), ...sent } };
  };
  const { maxLength, lengthUnit } = profile.create;
  const groups: Planned[] = [
    planned('plain', { Title: 'Conformance probe p0', Description: 'Created by the asset-group conformance kit', GroupType: 'AIGC', ProjectName: 'default' }),
    // Text of several scripts and of every Unicode plane, well inside any bound (CREATE-02).
    planned('everyScript', {
      Name: `${name('p1')}-Grüße-世界`,
      Title: `Grüße, 世界 — ✓ ${EVERY_PLANE}`,
      Description: `Unicode survives a round trip: Grüße, 世界, Ελληνικά, ${EVERY_PLANE}`,
      GroupType: 'AIGC',
      ProjectName: 'agc-project',
    }),
    // Mixed case in the Name: LIST-07 tells how the name filter treats case.
    planned('mixedCaseName', {
      Name: `${prefix}ds-p2-MixedCase-${salt}`,
      // What template layers escape (Jinja2's autoescape, Django's templates, PHP's htmlspecialchars): & < > " '.
      Title: `Conformance probe p2 <b>&amp;</b> "double" 'single'`,
      Description: '',
      GroupType: 'AIGC',
      ProjectName: 'default',
    }),
    // Leading, trailing and inner whitespace must come back as sent, not trimmed or folded (CREATE-02); and no
    // ProjectName: CREATE-04 looks for the profile's default in the list item. One group for both keeps the footprint small.
    planned('whitespace', {
      Name: `${name('p3')}  x `,
      Title: '  Conformance probe p3  ',
      Description: ' Third of four,\tinner  spaces and a line\nbreak; ProjectName omitted ',
      GroupType: 'AIGC',
    }),
    // At the profile's bounds (CREATE-05): the longest Name and Description allowed, and an empty optional Title.
    planned(
      'atBounds',
      {
        Name: atLength(`${name(GROUPS.atBounds.key)}-`, maxLength.Name ?? 64, lengthUnit),
        Title: '',
        Description: atLength('', maxLength.Description ?? 300, lengthUnit),
        GroupType: 'AIGC',
        ProjectName: 'default',
      },
      'CREATE-05',
    ),
    // What SQL layers escape by hand (a quote doubled, a backslash: MySQL without NO_BACKSLASH_ESCAPES) and LIKE's wildcards.
    planned('channelA', {
      Title: "Channel A probe: O'Brien \\ 100% a_b",
      Description: 'Created through the channel-A token',
      GroupType: 'AIGC',
      ProjectName: 'default',
    }),
    // Strings that loosely typed layers take for other values (YAML 1.1, PHP, a JavaScript Number()): null, a number with leading zeros.
    planned('channelB', { Title: 'null', Description: '1e3', GroupType: 'AIGC', ProjectName: '0012' }),
    // The second user's (GROUPS.secondUser): for VIS-02's last read and the oracle; its token may only read, refused it fails nothing.
    planned('secondUser', { Title: 'Created through the second user token', Description: '', GroupType: 'AIGC', ProjectName: 'default' }, 'SCOPE-02'),
    // p0's very Name a second time, where no other query lists the run's groups alone (namesakeNeeded): sent after p0 (buildDataset).
    ...(namesakeNeeded(profile)
      ? [
          planned(
            'namesake',
            { Name: name(GROUPS.plain.key), Title: 'Conformance probe p0, the second of its Name', Description: '', GroupType: 'AIGC', ProjectName: 'default' },
            'PAGE-05',
          ),
        ]
      : []),
  ];
  return groups.filter((g) => has(g.via));
}

/** The create-and-wait phase; `onCreated` hears when its creates are answered, before the polls (global-setup.ts sendEarly). */
export async function buildDataset(
  config: KitConfig & { baseURL: string },
  profile: Profile,
  emptyList: Exchange,
  onCreated?: (dataset: Dataset) => void,
): Promise<Dataset> {
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
    shared: { emptyList, provoked: [] },
    lastPolls: {},
    sharedPolls: [],
    polls: 0,
    retries: api.retries,
    rateLimited: api.rateLimited,
  };
  let creates = api.requestStats();
  try {
    const planned = plan(config.namePrefix, (role) => api.has(role), profile);
    // As many at once as a test's independent requests (client/concurrency.ts): the run's few groups in one round trip.
    // p0's namesake goes after the others: a target that keeps Names unique then refuses it, not p0.
    const isNamesake = (p: Planned) => p.key === GROUPS.namesake.key;
    // The second user's first: any snapshot that holds the primary's groups holds it then, though it is never polled.
    const queue = planned.filter((p) => !isNamesake(p)).sort((a, b) => Number(b.key === GROUPS.secondUser.key) - Number(a.key === GROUPS.secondUser.key));
    const createOne = async (next: Planned) => {
      const { exchange, attempts } = await api.create(next.sent, next.via);
      const id = readPointer(exchange.response?.json, '/Result/Id');
      dataset.groups.push({
        ...next,
        id: exchange.response?.status === 200 && typeof id === 'string' && id !== '' ? id : null,
        create: exchange,
        attempts,
        createdAt: Date.now(),
        visibleAfterMs: null,
      });
    };
    const workers = Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await createOne(next);
    });
    // Sent beside the creates, so they cost the run no round trip of their own.
    const provoked = provokeErrors(api, config.namePrefix);
    await Promise.all(workers);
    for (const namesake of planned.filter(isNamesake)) await createOne(namesake);
    creates = api.requestStats();
    dataset.shared.provoked = await provoked;
    dataset.groups.sort((a, b) => planned.findIndex((p) => p.key === a.key) - planned.findIndex((p) => p.key === b.key));
    onCreated?.(dataset);
    await waitForVisibility(api, profile, dataset, config.visibilityTimeoutMs);
    // The detection's pages are the suites' too (PAGE-01's first page, the reads of every seen group): shared with them (api.ts).
    const settled = new Set(dataset.groups.filter((g) => g.visibleAfterMs !== null).map((g) => g.id));
    api.shareSettledReads(profile, (id) => settled.has(id), runNameParts(dataset));
    await Promise.all([detectPaging(api, profile, dataset), detectIdFilters(api, profile, dataset), detectValueFilters(api, profile, dataset)]);
  } catch (error) {
    dataset.error = (error as Error).message;
  }
  dataset.finishedAt = new Date().toISOString();
  dataset.requests = { creates, all: api.requestStats() };
  return dataset;
}

/**
 * Polls each token's list, filtered by the Ids created through that token, until every group has
 * shown up or a poll sent after its visibility timeout has missed it. Gentle: rounds back off from 100 ms to POLL_CAP_MS (pollDelays), and
 * while the primary token's groups are pending, the channel tokens are asked only when their own
 * deadline is near: a snapshot that lags for one token usually lags for all, so they are asked as
 * soon as the primary's groups show up, without waiting for the next round.
 */
async function waitForVisibility(api: Api, profile: Profile, dataset: Dataset, timeoutMs: number): Promise<void> {
  const delays = pollDelays();
  let delay = delays.next().value;
  for (;;) {
    // Until seen, or missed by a poll sent after its timeout: a group whose timeout passed before the kit could poll (creates
    // retried after a 429, a busy machine) is polled once more, so that only the target's lag can make it late.
    const pending = dataset.groups.filter((g) => polled(g) && g.id !== null && g.visibleAfterMs === null && !((g.missedAtMs ?? 0) > timeoutMs));
    if (pending.length === 0) return;
    const primaryPending = pending.some((g) => g.via === 'primary');
    const nearDeadline = (role: TokenRole) => pending.some((g) => g.via === role && Date.now() + 2 * delay >= g.createdAt + timeoutMs);
    const waiting = [...new Set(pending.map((g) => g.via))];
    // Once the Id filter itself is refused, each token is asked once more at most, so that its own refusal is on record (CHAN-01 reads it).
    const roles = dataset.pollsRefused
      ? waiting.filter((role) => !dataset.lastPolls[role])
      : waiting.filter((role) => role === 'primary' || !primaryPending || nearDeadline(role));
    if (dataset.pollsRefused && !roles.length) return;
    await Promise.all(
      roles.map(async (role) => {
        const ids = pending.filter((g) => g.via === role).map((g) => g.id!);
        const sentAt = Date.now();
        // One list of the role's pending groups, or under a one-Id filter one per group.
        const reads = await api.listByIds(profile, pollQuery(profile, ids), { as: role });
        const answeredAt = Date.now();
        dataset.polls += reads.length;
        const judged = reads.map(({ query, exchange }) => {
          const seen = new Set(itemsOf(exchange).map((item) => item.Id));
          const all = exchange.response?.status === 200 && seen.size === query.groupIds!.length && query.groupIds!.every((id) => seen.has(id));
          return { query, exchange, seen, all };
        });
        // The evidence of the round: a read that missed some of its groups, if any.
        dataset.lastPolls[role] = (judged.find((r) => !r.all) ?? judged[judged.length - 1]).exchange;
        for (const { query, exchange, seen, all } of judged) {
          // A poll that listed every group it asked for, and only those, is the suites' read of them too (CHAN-01's, CREATE-02's).
          if (all) {
            api.offer('ListAssetGroups', listBody(profile, query), { as: role }, exchange);
            dataset.sharedPolls.push(pollShared(role, listBody(profile, query)));
          }
          if ([...seen].some((id) => !query.groupIds!.includes(id as string))) dataset.idFilterLeaked = true;
          // Refused: by the Id filter itself when the same filter holding no Id is refused too. Waiting changes neither.
          if (exchange.response?.status === 400 && dataset.pollsRefused === undefined)
            dataset.pollsRefused = (await api.call('ListAssetGroups', listBody(profile, { groupIds: [] }), { as: role })).response?.status === 400;
          for (const group of pending)
            if (group.via === role && query.groupIds!.includes(group.id!))
              if (seen.has(group.id)) group.visibleAfterMs = answeredAt - group.createdAt;
              else group.missedAtMs = sentAt - group.createdAt;
        }
      }),
    );
    if (dataset.pollsRefused) continue;
    if (pending.every((g) => g.visibleAfterMs !== null)) return; // not one wait later: up to POLL_CAP_MS on every run's critical path
    const pendingIds = pending.map((g) => g.id!);
    if (pending.every((g) => Date.now() - g.createdAt > timeoutMs - delay)) dataset.unseenBecause ??= notVisibility(dataset, pendingIds);
    // The primary's groups all showed up in this round: the channel tokens are asked at once.
    if (
      primaryPending &&
      !dataset.groups.some((g) => g.via === 'primary' && g.id !== null && g.visibleAfterMs === null) &&
      pending.some((g) => g.via !== 'primary')
    )
      continue;
    const nextDeadline = Math.min(...pending.map((g) => g.createdAt + timeoutMs)) - Date.now();
    await sleep(Math.max(0, Math.min(delay, nextDeadline + 1)));
    delay = delays.next().value;
  }
}

/**
 * The last polls, read for what else than lag could hide the pending groups: a list the kit cannot
 * read (Ids of another JSON type among it), or a first page holding fewer matches than it had room for.
 */
function notVisibility(dataset: Dataset, pending: string[]): Dataset['unseenBecause'] {
  for (const exchange of Object.values(dataset.lastPolls)) {
    if (!exchange || exchange.response?.status !== 200) continue;
    // A list the kit cannot read at all (Items not an array, a TotalCount string) is SCHEMA-02's, whatever else it hides.
    const shape = listShape(exchange);
    if (shape) return { owner: 'SCHEMA-02', failure: shape, exchange };
    // Ids listed as another JSON type than create answered are listShape's (SCHEMA-02's) finding above.
    const late = firstPageHoldsMatches(pending)(exchange);
    if (late) return { owner: 'PAGE-05', failure: late, exchange };
  }
  return undefined;
}

/** The client mistakes every error requirement reads: each is one the spec documents an error for. */
function provokeErrors(api: Api, prefix: string): Promise<Exchange[]> {
  const create = {
    Name: `${prefix}provoked-${Math.random().toString(36).slice(2, 8)}`,
    Title: 'Must be refused',
    Description: '',
    GroupType: 'AIGC',
    ProjectName: 'default',
  };
  return Promise.all([
    api.createRefused(create, { as: null }),
    api.call('ListAssetGroups', {}, { as: null }),
    // "A missing or invalid token yields HTTP 401": whatever the body, so a body checked first must not answer 400 (AUTH-01).
    api.createRefused(new RawBody('{"Name": '), { as: null }),
    api.call('ListAssetGroups', 'not an object', { as: null }),
    api.call('CreateAssetGroup', new RawBody('{"Name": ')),
    api.call('ListAssetGroups', new RawBody('{"Filter": ')),
    api.call('CreateAssetGroup', [create]),
    api.call('ListAssetGroups', 'not an object'),
  ]);
}
