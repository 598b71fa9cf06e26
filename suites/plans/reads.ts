/** Reads of the run's groups (CHAN, SCOPE, LIST, CREATE, VIS): by Id, by Name, by filter, as each token. */
import type { KitConfig, TokenRole } from '../../config';
import { type CallOptions } from '../api';
import { listBody } from '../list-body';
import { channelNamePart, confinedQuery, roleGroupsQuery } from '../dataset-queries';
import { CREATING_ROLES, pollShared, secondUserIds, type Dataset } from '../dataset';
import { groupNamed, groupsOf } from '../dataset-needs';
import { nameMatchParts, type Profile } from '../../schemas/profile';
import { eachIdAlone, idReads, nthPage, type ListQuery } from '../list-body';
import type { NameQueries } from '../checks';
import { type PlannedRequest, listRequest } from './plan';

// ---------------------------------------------------------------- reads of the run's groups (CHAN, SCOPE, LIST, PAGE)

type Role = NonNullable<CallOptions['as']>;
export const read = (profile: Profile, query: ListQuery, as?: Role): PlannedRequest => listRequest(listBody(profile, query), as === undefined ? {} : { as });
export const firstPages = (profile: Profile, query: ListQuery): ListQuery => ({ ...query, pageSize: profile.list.pageSize.maximum });

/**
 * CHAN-02's reads: each channel's token asks for the other channel's groups by Id (and by the run's prefix, where the
 * Name filter matches a part), then both channels' groups one a page, pages 1 and 2.
 */
export function otherChannelReads(config: KitConfig, profile: Profile, dataset: Dataset): { others: string[]; query: ListQuery; planned: PlannedRequest }[] {
  const roles = ['channelA', 'channelB'] as const;
  if (!roles.every((role) => config.tokens[role])) return [];
  // The run's prefix finds its groups under every setting but exact matching.
  const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
  const othersOf = (role: Role) => groupsOf(dataset, (g) => g.via !== role && g.via !== 'primary').map((g) => g.id);
  const reads = roles.flatMap((role) => {
    const others = othersOf(role);
    const queries: ListQuery[] = [...eachIdAlone(profile, { groupIds: others }), ...(substring ? [{ name: dataset.prefix }] : [])];
    return queries.map((query) => ({ others, query, planned: read(profile, firstPages(profile, query), role) }));
  });
  // Both channels' groups by Id, one a page: scoping must hold on every page, not only the first. Under a one-Id filter
  // (list.idFilterTakes: one), by the Name part the two alone share, where the Name filter matches a part.
  const channels = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
  const walked = confinedQuery(profile, channels, channelNamePart(dataset));
  const walks = roles.flatMap((role) =>
    !walked
      ? []
      : [1, 2].map((n) => ({
          others: othersOf(role),
          query: walked,
          planned: read(profile, { ...walked, pageNumber: nthPage(profile, n), pageSize: 1 }, role),
        })),
  );
  return [...reads, ...walks];
}

/** SCOPE-01's reads as the second user: the plain first page, and (where the Name filter matches a part) the run's prefix. */
export function otherUserFirstPages(config: KitConfig, profile: Profile, dataset: Dataset): PlannedRequest[] {
  if (!config.tokens.otherUser) return [];
  const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
  return [
    read(profile, firstPages(profile, {}), 'otherUser'),
    ...(substring ? [read(profile, firstPages(profile, { name: dataset.prefix }), 'otherUser')] : []),
  ];
}

/**
 * AUTH-05's: the plain first page of every configured token, once the run's groups are there (the phase's first list, the
 * preflight, came before them). Every other read of the run's groups filters; the run-wide oracle judges these lists
 * against the groups the run created, so a rule or a projection a server applies only with filters, or only without,
 * shows here. The second user's is SCOPE-01's too.
 */
export function everyTokenFirstPage(config: KitConfig, profile: Profile, dataset: Dataset): PlannedRequest[] {
  if (!dataset.groups.length) return [];
  return (['primary', 'channelA', 'channelB', 'otherUser'] as const)
    .filter((role) => config.tokens[role])
    .map((role) => read(profile, firstPages(profile, {}), role));
}

/**
 * SCOPE-02's: the primary user's groups by Id as the second user, the first page and a later one (scoping must not stop at
 * page 1); under a one-Id filter (list.idFilterTakes: one) each Id alone, whose only page is the first.
 */
export function otherUserByIds(config: KitConfig, profile: Profile, dataset: Dataset): { query: ListQuery; planned: PlannedRequest }[] {
  if (!config.tokens.otherUser) return [];
  const mine = groupsOf(dataset, () => true).map((g) => g.id);
  const queries: ListQuery[] =
    profile.list.idFilterTakes === 'one'
      ? eachIdAlone(profile, { groupIds: mine })
      : [{}, { pageNumber: nthPage(profile, 2), pageSize: 1 }].map((paging) => ({ groupIds: mine, ...paging }));
  return queries.map((query) => ({ query, planned: read(profile, query, 'otherUser') }));
}

/** SCOPE-03's: two of the primary user's groups by their exact Names, as the second user. */
export function otherUserByNames(config: KitConfig, profile: Profile, dataset: Dataset): { name: string; planned: PlannedRequest }[] {
  if (!config.tokens.otherUser) return [];
  return groupsOf(dataset, () => true)
    .slice(0, 2)
    .map((group) => ({ name: group.sent.Name, planned: read(profile, { name: group.sent.Name }, 'otherUser') }));
}

/** LIST-05's: the mixed-case group by its full Name, then wildcards a filter built on LIKE, glob or regex without escaping would widen. */
export function nameAndWildcards(profile: Profile, dataset: Dataset): { name: string; wildcards: string[]; plannedRequests: PlannedRequest[] } {
  const name = groupNamed(dataset, 'mixedCaseName').sent.Name;
  const wildcards = [`${dataset.prefix}%`, `${name.slice(0, -2)}_${name.slice(-1)}`, `${dataset.prefix}.*`];
  // The full Name is also LIST-07's first planned request: one answer for both.
  return { name, wildcards, plannedRequests: [name, ...wildcards].map((query) => read(profile, firstPages(profile, { name: query }))) };
}

/**
 * LIST-07's: the mixed-case group's Name is agc-<run>-ds-p2-MixedCase-<salt>: a leading part, an inner part and the whole,
 * each as written and in upper case, tell exact from prefix from substring, and whether case matters.
 */
export function nameParts(profile: Profile, dataset: Dataset): { plannedRequests: NameQueries; keys: (keyof NameQueries)[]; reads: PlannedRequest[] } {
  const name = groupNamed(dataset, 'mixedCaseName').sent.Name;
  const leading = name.slice(0, -3);
  const inner = name.slice(dataset.prefix.length, -3);
  const plannedRequests: NameQueries = {
    whole: name,
    leading,
    inner,
    wholeUpper: name.toUpperCase(),
    leadingUpper: leading.toUpperCase(),
    innerUpper: inner.toUpperCase(),
  };
  const keys = Object.keys(plannedRequests) as (keyof NameQueries)[];
  return { plannedRequests, keys, reads: keys.map((key) => read(profile, firstPages(profile, { name: plannedRequests[key] }))) };
}

/** roleGroupsRead's reads of one role's groups (CREATE-02's, and the AssetSpaceId of a group: spaceOf), where the role has any. */
export function roleReads(config: KitConfig, profile: Profile, dataset: Dataset, role: TokenRole, options: { bounds?: boolean } = {}): PlannedRequest[] {
  const query = roleGroupsQuery(profile, dataset, role, options);
  if (!config.tokens[role] || !query.groupIds?.length) return [];
  return idReads(profile, query).map(({ body }) => listRequest(body, { as: role }));
}

/** everyGroupListed's first read (LIST-02's and CHAN-03's): every group of the run by its Ids, on one page. */
export function everyGroupRead(profile: Profile, dataset: Dataset): PlannedRequest[] {
  const all = groupsOf(dataset, () => true).map((g) => g.id);
  return idReads(profile, { groupIds: all, pageSize: profile.list.pageSize.maximum }).map(({ body }) => listRequest(body));
}

/** LIST-03's: the run's primary groups of type AIGC. */
export function aigcReads(profile: Profile, dataset: Dataset): { query: ListQuery; planned: PlannedRequest }[] {
  const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
  return eachIdAlone(profile, { groupType: 'AIGC', groupIds: ids }).map((query) => ({ query, planned: read(profile, query) }));
}

/** VIS-02's reads in a row: this many rounds, each a read of every creating token's groups by their Ids. */
export const VISIBILITY_ROUNDS = 3;

/** One read of a VIS-02 round. */
export interface VisibilityRead {
  role: TokenRole;
  query: ListQuery;
  /** The Ids of the query the token must list: its own groups, not the second user's. */
  expected: string[];
  planned: PlannedRequest;
}

/**
 * One round of VIS-02's reads: each creating role's groups by their Ids (one read, or one per Id under a one-Id filter), as that role.
 * The first round is the suites' plain read of them (CREATE-02's), sent after the phase, unless that read is a phase's poll,
 * which saw them first: then every round is a read of VIS-02's own, so that each is read again that many times. The last
 * round's primary read also asks for the second user's group (GROUPS.secondUser), in the same list (not where the Id filter
 * takes one Id: a request more): the model says it must never be listed there, which the run-wide oracle judges.
 */
export function visibilityRound(profile: Profile, dataset: Dataset, round: number): VisibilityRead[] {
  const foreign = secondUserIds(dataset);
  return CREATING_ROLES.flatMap((role) => {
    const groups = groupsOf(dataset, (g) => g.via === role);
    if (!groups.length) return [];
    const own = groups.map((g) => g.id);
    const alsoAsked = role === 'primary' && round === VISIBILITY_ROUNDS && profile.list.idFilterTakes !== 'one' ? foreign : [];
    return eachIdAlone(profile, { groupIds: [...own, ...alsoAsked], pageSize: profile.list.pageSize.maximum }).map((query) => {
      const plain = round === 1 && !dataset.sharedPolls.includes(pollShared(role, listBody(profile, query)));
      return {
        role,
        query,
        expected: query.groupIds!.filter((id) => own.includes(id)),
        planned: {
          ...read(profile, query, role),
          options: plain ? { as: role } : { as: role, round },
          chain: `VIS-02 ${role} ${JSON.stringify(query.groupIds)}`,
        },
      };
    });
  });
}
