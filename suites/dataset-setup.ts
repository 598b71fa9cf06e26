import { Api, CONCURRENCY, listBody, nthPage, RawBody, type ListQuery } from './api';
import type { KitConfig, TokenRole } from '../config';
import type { Exchange } from '../client/exchange';
import { firstPageHoldsMatches, idFilterHoldsAll, listShape } from './checks';
import type { Profile } from '../schemas/profile';
import { FIELD_NAME_CANDIDATES, filterLabel, lengthIn, readPointer, withFilters } from '../schemas/profile';
import {
  confinedQuery,
  GROUPS,
  itemsOf,
  matchingNothing,
  namesakeNeeded,
  nextPollDelay,
  pollShared,
  primaryNamePart,
  readAlone,
  VALUE_FILTERS,
  type Dataset,
  type GroupName,
  type ValueFilter,
} from './dataset';
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
      Title: 'Conformance probe p2',
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
    planned('channelA', { Title: 'Channel A probe', Description: 'Created through the channel-A token', GroupType: 'AIGC', ProjectName: 'default' }),
    planned('channelB', { Title: 'Channel B probe', Description: 'Created through the channel-B token', GroupType: 'AIGC', ProjectName: 'default' }),
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

/**
 * The largest page the profile allows, not one the size of the pending Ids: then a target that
 * mishandles the Id filter still shows the run's few new groups on its first page, and what fails
 * is the filter's own requirement (LIST-04), deterministically, not visibility by chance.
 */
function pollQuery(profile: Profile, ids: string[]): ListQuery {
  return { groupIds: ids, pageSize: profile.list.pageSize.maximum };
}

export async function buildDataset(config: KitConfig & { baseURL: string }, profile: Profile, emptyList: Exchange): Promise<Dataset> {
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
    const queue = planned.filter((p) => !isNamesake(p));
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
    await waitForVisibility(api, profile, dataset, config.visibilityTimeoutMs);
    // The detection's pages are the suites' too (PAGE-01's first page, the reads of every seen group): shared with them (api.ts).
    const settled = new Set(dataset.groups.filter((g) => g.visibleAfterMs !== null).map((g) => g.id));
    api.shareSettledReads(profile, (id) => settled.has(id));
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
 * shown up or a poll sent after its visibility timeout has missed it. Gentle: rounds back off from 100 ms to POLL_CAP_MS (nextPollDelay), and
 * while the primary token's groups are pending, the channel tokens are asked only when their own
 * deadline is near: a snapshot that lags for one token usually lags for all, so they are asked as
 * soon as the primary's groups show up, without waiting for the next round.
 */
async function waitForVisibility(api: Api, profile: Profile, dataset: Dataset, timeoutMs: number): Promise<void> {
  let delay = 100;
  for (;;) {
    // Until seen, or missed by a poll sent after its timeout: a group whose timeout passed before the kit could poll (creates
    // retried after a 429, a busy machine) is polled once more, so that only the target's lag can make it late.
    const pending = dataset.groups.filter((g) => g.id !== null && g.visibleAfterMs === null && !((g.missedAtMs ?? 0) > timeoutMs));
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
    if (pending.every((g) => Date.now() - g.createdAt > timeoutMs - delay))
      dataset.unseenBecause ??= notVisibility(
        dataset,
        pending.map((g) => g.id!),
      );
    // The primary's groups all showed up in this round: the channel tokens are asked at once.
    if (
      primaryPending &&
      !dataset.groups.some((g) => g.via === 'primary' && g.id !== null && g.visibleAfterMs === null) &&
      pending.some((g) => g.via !== 'primary')
    )
      continue;
    const nextDeadline = Math.min(...pending.map((g) => g.createdAt + timeoutMs)) - Date.now();
    await sleep(Math.max(0, Math.min(delay, nextDeadline + 1)));
    delay = nextPollDelay(delay);
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

/**
 * The run's primary groups the polls saw, as the suites read them (groupsOf: the group at the
 * profile's bounds left out), so that the detection's pages are the suites' pages too (api.ts shares them).
 */
const seenPrimary = (dataset: Dataset): string[] =>
  dataset.groups.filter((g) => g.via === 'primary' && !readAlone(g) && g.visibleAfterMs !== null).map((g) => g.id!);

/**
 * Pages of size 1 over the run's visible primary groups (or the user's whole list, which holds them:
 * pagesOf): does the target read the profile's paging fields at all? A first page holding more than one, or a second page holding the first page's group
 * under another PageNumber than the second's, shows it does not. And does it count pages from where the
 * profile does? A page before the profile's first, served with its items under that very PageNumber,
 * shows a target that counts from 0 (Spring Data's Pageable). Either way the paging requirements are
 * then not assessable, with the settings that fit.
 */
async function detectPaging(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  if (seen.length < 2) return;
  const { pageNumber, pageSize } = profile.list;
  // The suites' paged query (pagesOf): the Ids, or under a one-Id filter the Name part the primary groups share, or where
  // the Name filter matches whole Names the user's whole list, which holds them and maybe more.
  const confined = confinedQuery(profile, seen, primaryNamePart(dataset));
  const query = confined ?? {};
  const before = pageNumber.minimum - 1;
  const [first, second, earlier] = await Promise.all([
    ...[1, 2].map((n) => api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: nthPage(profile, n), pageSize: 1 }))),
    // The page before the first, of the same query: a target that clamps a negative offset to 0 (SQLite) serves the first page's group there.
    api.call('ListAssetGroups', listBody(profile, { ...query, pageNumber: before, pageSize: 1 })),
  ]);
  const held = itemsOf(first).length;
  const echoed = readPointer(first.response?.json, '/Result/PageSize');
  if (held > 1 && echoed !== 1) {
    (dataset.profileMismatch ??= {}).paging =
      `a page asked with ${pageSize.field}: 1 held ${held} items and Result.PageSize ${JSON.stringify(echoed)}: the target seems not to read ${pageSize.field} (and ${pageNumber.field}); set list.pageSize.field and list.pageNumber.field`;
    return;
  }
  const ids = (ex: Exchange) => itemsOf(ex).map((item) => item.Id);
  const number = readPointer(second.response?.json, '/Result/PageNumber');
  if (held === 1 && JSON.stringify(ids(first)) === JSON.stringify(ids(second)) && number !== nthPage(profile, 2)) {
    (dataset.profileMismatch ??= {}).paging =
      `pages asked with ${pageNumber.field}: ${nthPage(profile, 1)} and ${nthPage(profile, 2)} held the same group, and the second said Result.PageNumber ${JSON.stringify(number)}: the target seems not to read ${pageNumber.field}; set list.pageNumber.field`;
    return;
  }
  // Another group than the first page's, under the PageNumber asked: a page of its own. One that only echoes the number
  // over the first page's group (an offset below 0 clamped) is an invalid value served, PAGE-07's finding.
  const earlierIds = ids(earlier);
  if (
    earlier.response?.status === 200 &&
    readPointer(earlier.response.json, '/Result/PageNumber') === before &&
    earlierIds.length === 1 &&
    held === 1 &&
    earlierIds[0] !== ids(first)[0] &&
    (!confined || seen.includes(earlierIds[0] as string))
  ) {
    const defaultToo = readPointer(dataset.shared.emptyList.response?.json, '/Result/PageNumber') === before ? ` and list.pageNumber.default: ${before}` : '';
    (dataset.profileMismatch ??= {}).paging =
      `${pageNumber.field}: ${before} of size 1 was served with Result.PageNumber ${before} and another group than ${pageNumber.field}: ${pageNumber.minimum}: the target counts pages from ${before}, not ${pageNumber.minimum}; set list.pageNumber.minimum: ${before}${defaultToo}`;
  }
}

type FilterKey = keyof Profile['list']['filters'];
interface Placement {
  wrapper: string;
  name: string;
}

/** The profile with its filters under another wrapper and one of them under another name. */
function placedAs(profile: Profile, key: FilterKey, { wrapper, name }: Placement): Profile {
  return { ...profile, list: { ...profile.list, filterField: wrapper, filters: { ...profile.list.filters, [key]: name } } };
}

/**
 * Every other place APIs of this family keep a filter: its other names under the profile's wrapper
 * first, then every name under the other wrappers (the top level of the body among them).
 */
function otherPlacements(profile: Profile, key: FilterKey): Placement[] {
  const { filterField, filters } = profile.list;
  const names = FIELD_NAME_CANDIDATES[key].filter((name) => name === filters[key] || !Object.values(filters).includes(name));
  return wrappersFrom(profile)
    .flatMap((wrapper) => names.map((name) => ({ wrapper, name })))
    .filter((p) => p.wrapper !== filterField || p.name !== filters[key]);
}

/** Where APIs of this family keep their filters: the profile's place first, then the others (the top level of the body among them). */
function wrappersFrom(profile: Profile): string[] {
  const { filterField } = profile.list;
  return [filterField, ...FIELD_NAME_CANDIDATES.filterField.filter((w) => w !== filterField)];
}

/** The settings that put a filter where the target reads it. */
function placementSettings(profile: Profile, key: FilterKey, fit: Placement): string {
  return `${filterLabel(profile.list, profile.list.filters[key])} was ignored, ${filterLabel({ filterField: fit.wrapper }, fit.name)} filters: set ${settingsFor(profile, key, fit)}`;
}

/** The settings that differ from the profile's for a filter at this place (and, for the Id filter, of this form). */
function settingsFor(profile: Profile, key: FilterKey, fit: Placement, takes = profile.list.idFilterTakes): string {
  return [
    ...(fit.wrapper !== profile.list.filterField ? [`list.filterField: ${JSON.stringify(fit.wrapper)}${fit.wrapper === '' ? ' (the top level)' : ''}`] : []),
    ...(fit.name !== profile.list.filters[key] ? [`list.filters.${key}: ${fit.name}`] : []),
    ...(takes !== profile.list.idFilterTakes ? [`list.idFilterTakes: ${takes}`] : []),
  ].join(' and ');
}

/** The first other place of a filter where the same query is answered as `fits` says, if any. */
async function placementThatFits(
  api: Api,
  profile: Profile,
  key: FilterKey,
  query: ListQuery,
  fits: (ex: Exchange) => boolean,
): Promise<Placement | undefined> {
  const others = otherPlacements(profile, key);
  const answers = await Promise.all(others.map((p) => api.call('ListAssetGroups', listBody(placedAs(profile, key, p), query))));
  const index = answers.findIndex(fits);
  return index < 0 ? undefined : others[index];
}

/** The first other place of the Id filter where the target lists exactly these groups, if any. */
export function idFilterNamed(api: Api, profile: Profile, ids: string[]): Promise<Placement | undefined> {
  return placementThatFits(api, profile, 'groupIds', { groupIds: ids }, (ex) => {
    const listed = itemsOf(ex).map((item) => item.Id);
    return listed.length === ids.length && ids.every((id) => listed.includes(id));
  });
}

/**
 * Does the target filter by the profile's Id filter, and keep every Id asked? Two reads the suites
 * make anyway (shared with them, api.ts): LIST-04's, some of the seen primary groups, and the read of
 * all of them (CREATE-02's and others'). A list holding a group it was not asked for means the Id
 * filter was ignored: whether it is the profile's name that the target does not know is detectIdFilter's
 * question. The polls alone cannot tell: when every group they ask for shows up in one round and the
 * token has no other group yet (a channel's groups may reach the unbound token's snapshot later), an
 * ignored filter lists exactly what was asked.
 */
async function detectIdFilters(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  const listsOthers = (ex: Exchange, asked: string[]) => itemsOf(ex).some((item) => !asked.includes(item.Id as string));
  if (profile.list.idFilterTakes === 'one' && seen.length && !dataset.idFilterLeaked) {
    // Each seen group alone: the suites' reads by Id (LIST-04's, CREATE-02's), shared with them.
    const reads = await api.listByIds(profile, pollQuery(profile, seen));
    if (reads.some((r) => listsOthers(r.exchange, r.query.groupIds!))) dataset.idFilterLeaked = true;
  } else if (seen.length >= 2 && !dataset.idFilterLeaked) {
    const some = seen.filter((_, i) => i % 2 === 1);
    const [subset, all] = await Promise.all([
      api.call('ListAssetGroups', listBody(profile, { groupIds: some })),
      api.call('ListAssetGroups', listBody(profile, pollQuery(profile, seen))),
    ]);
    if (listsOthers(subset, some) || listsOthers(all, seen)) dataset.idFilterLeaked = true;
    else idFilterKeepsAll(dataset, seen, all);
  }
  if (dataset.idFilterLeaked) await detectIdFilter(api, profile, dataset);
}

/**
 * The Id filter was ignored: under a name APIs of this family also use, a target that filters follows
 * another profile; one that filters under no name is broken (LIST-04 fails).
 */
async function detectIdFilter(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const seen = seenPrimary(dataset);
  if (!seen.length) return;
  const { filterField, filters, idFilterTakes } = profile.list;
  const ignored = `the Id filter ${filterLabel(profile.list, filters.groupIds)}${idFilterTakes === 'one' ? ' (one Id)' : ''} was ignored`;
  const many: Profile = { ...profile, list: { ...profile.list, idFilterTakes: 'many' } };
  // A list of Ids elsewhere (or, under a one-Id profile, at its own place too), then one Id as a string elsewhere.
  const listFit =
    seen.length < 2
      ? undefined
      : idFilterTakes === 'one' && (await idFilterLists(api, many, { wrapper: filterField, name: filters.groupIds }, seen.slice(0, 2)))
        ? { wrapper: filterField, name: filters.groupIds }
        : await idFilterNamed(api, many, seen.slice(0, 2));
  if (listFit) {
    (dataset.profileMismatch ??= {}).idFilter =
      `${ignored}, ${filterLabel({ filterField: listFit.wrapper }, listFit.name)} filters by a list of Ids: set ${settingsFor(profile, 'groupIds', listFit, 'many')}`;
    return;
  }
  const single = await oneIdPlacement(api, profile, seen[0]);
  if (single)
    (dataset.profileMismatch ??= {}).idFilter =
      `${ignored}, and ${filterLabel({ filterField: single.wrapper }, single.name)} filters by one Id given as a string: set ${settingsFor(profile, 'groupIds', single, 'one')}. ` +
      'The spec says the list filters "by logical ID", not whether by one Id or by several; under list.idFilterTakes: one the kit reads groups one request each';
}

/** Whether the target lists exactly these groups when asked for them by a list of Ids at this place. */
async function idFilterLists(api: Api, profile: Profile, place: Placement, ids: string[]): Promise<boolean> {
  const ex = await api.call('ListAssetGroups', listBody(placedAs(profile, 'groupIds', place), { groupIds: ids }));
  const listed = itemsOf(ex).map((item) => item.Id);
  return ex.response?.status === 200 && listed.length === ids.length && ids.every((id) => listed.includes(id));
}

/**
 * The first place where the target filters by one Id given as a string (`"Filter": {"Id": "..."}`,
 * what a framework binding a string field makes of the filter), if any: one group of several, listed
 * alone. An Id filter the target ignores lists the others too. Under a one-Id profile its own place,
 * which was just ignored, is not asked again.
 */
async function oneIdPlacement(api: Api, profile: Profile, id: string): Promise<Placement | undefined> {
  const { filterField, filters, idFilterTakes } = profile.list;
  const names = [...new Set([filters.groupIds, ...FIELD_NAME_CANDIDATES.oneId])];
  const places = wrappersFrom(profile)
    .flatMap((wrapper) => names.map((name) => ({ wrapper, name })))
    .filter((p) => idFilterTakes !== 'one' || p.wrapper !== filterField || p.name !== filters.groupIds);
  const answers = await Promise.all(places.map((p) => api.call('ListAssetGroups', withFilters({ filterField: p.wrapper }, { [p.name]: id }))));
  const index = answers.findIndex((ex) => ex.response?.status === 200 && itemsOf(ex).length === 1 && itemsOf(ex)[0].Id === id);
  return index < 0 ? undefined : places[index];
}

const FILTER_LABEL: Record<ValueFilter, string> = { assetSpaceId: 'asset-space', groupType: 'group-type', name: 'name' };

/**
 * Does the target read the profile's asset-space, group-type and name filters? A query under each
 * that matches none of the run's groups (LIST-02's, LIST-03's, LIST-06's, shared with them) and lists
 * some shows the filter was ignored. Under a name APIs of this family also use, a target that filters
 * follows another profile (the requirements that filter by it are not assessable); one that filters
 * under no name is broken, and only the filter's owner judges that (Dataset.ignoredFilters).
 */
async function detectValueFilters(api: Api, profile: Profile, dataset: Dataset): Promise<void> {
  const primary = seenPrimary(dataset);
  if (!primary.length) return;
  const all = dataset.groups.filter((g) => !readAlone(g) && g.visibleAfterMs !== null).map((g) => g.id!);
  await Promise.all(
    (Object.keys(VALUE_FILTERS) as ValueFilter[]).map(async (key) => {
      const query = matchingNothing(profile, dataset, key, { all, primary });
      const answer = await api.call('ListAssetGroups', listBody(profile, query), { shared: key === 'name' });
      if (answer.response?.status !== 200 || itemsOf(answer).length === 0) return;
      const fit = await valueFilterNamed(api, profile, key, query);
      if (fit === undefined) (dataset.ignoredFilters ??= []).push(key);
      else ((dataset.profileMismatch ??= {}).filters ??= {})[key] = `the ${FILTER_LABEL[key]} filter ${placementSettings(profile, key, fit)}`;
    }),
  );
}

/**
 * The first other place of this filter where the same query lists nothing. Values of GroupType and
 * asset spaces no group has may be refused too (not shown): a 400 there is the filter read.
 */
function valueFilterNamed(api: Api, profile: Profile, key: ValueFilter, query: ListQuery): Promise<Placement | undefined> {
  return placementThatFits(
    api,
    profile,
    key,
    query,
    (ex) => (ex.response?.status === 200 && itemsOf(ex).length === 0) || (key !== 'name' && ex.response?.status === 400),
  );
}

/**
 * The run's seen primary groups asked for together, with room for all: an Id filter that keeps only
 * some of the Ids asked (the first, bound to `WHERE id = ?`) is LIST-04's finding, once, and every
 * test that reads groups by their Ids is blocked by it instead of failing its own requirement.
 */
function idFilterKeepsAll(dataset: Dataset, seen: string[], exchange: Exchange): void {
  const failure = idFilterHoldsAll(seen)(exchange);
  if (!failure) return;
  dataset.unseenBecause ??= { owner: 'LIST-04', failure, exchange };
  dataset.idFilterDrops = true;
}
