/**
 * What the mutant families share: the `Mutant` shape, `family()` (a family's mutants keyed by name,
 * each entry whole), and the pieces of reference behaviour several modifiers swap one part of.
 */
import {
  ApiError,
  defaultHooks,
  type HookContext,
  type ListQuery,
  type ListResult,
  type Principal,
  type ReferenceHooks,
  type ResponseMetadata,
} from '../behaviour';
import type { GroupRecord } from '../store';

export interface Mutant {
  /** camelCase, unique; the key in mutants.expected.yaml and the value of --mutant. */
  name: string;
  /** The requirement ID it is designed to break; always among its expected failures. */
  breaks: string;
  /** What is wrong with it, as a bug report would say. */
  description: string;
  hooks: Partial<ReferenceHooks>;
  /**
   * The profile the mutant's own documentation states, given to the kit as AG_PROFILE (an override;
   * `{ name }` alone states the reference profile): for a mutant that breaks a promise only a
   * target's own profile makes (a length bound: the spec shows none). Unset: the kit runs without one.
   */
  kitProfile?: Record<string, unknown>;
}

/** A family's mutants keyed by name; the key becomes the mutant's `name`. */
export function family<K extends string>(entries: Record<K, Omit<Mutant, 'name'>>): Record<K, Mutant> {
  return Object.fromEntries(Object.entries<Omit<Mutant, 'name'>>(entries).map(([name, entry]) => [name, { name, ...entry }])) as Record<K, Mutant>;
}

export { isObject } from '../../schemas/spec';

export function withoutRequestId(meta: ResponseMetadata): ResponseMetadata {
  const { RequestId: _dropped, ...rest } = meta;
  return rest as ResponseMetadata;
}

export function withoutRegion(meta: ResponseMetadata): ResponseMetadata {
  const { Region: _dropped, ...rest } = meta;
  return rest as ResponseMetadata;
}

export const channelAllows = (group: GroupRecord, principal: Principal): boolean => principal.channel === null || group.channel === principal.channel;

/** The reference list computation with the visibility rule and the paging arithmetic swappable. */
export function listWith(
  principal: Principal,
  query: ListQuery,
  ctx: HookContext,
  {
    visible = ctx.hooks.visibleTo,
    offsetOf = (q: ListQuery) => (q.pageNumber - 1) * q.pageSize,
    extra = 0,
    order,
  }: {
    visible?: (group: GroupRecord, principal: Principal) => boolean;
    offsetOf?: (q: ListQuery, matches: number) => number;
    extra?: number;
    /** The order the matches are paged in; the store's (creation order) where none is given. */
    order?: (a: GroupRecord, b: GroupRecord) => number;
  } = {},
): ListResult {
  const matches = ctx.store.snapshot().filter((g) => visible(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx));
  if (order) matches.sort(order);
  const offset = offsetOf(query, matches.length);
  return {
    Items: matches.slice(offset, offset + query.pageSize + extra).map((g) => ctx.hooks.toListItem(g)),
    TotalCount: matches.length,
    PageNumber: query.pageNumber,
    PageSize: query.pageSize,
  };
}

/** Per-server state, so one mutant's hooks can serve several servers (tests start many). */
export function perServer<T>(make: () => T): (ctx: HookContext) => T {
  const states = new WeakMap<HookContext, T>();
  return (ctx) => {
    let state = states.get(ctx);
    if (state === undefined) states.set(ctx, (state = make()));
    return state;
  };
}

/** The reference list, but the user and channel rules are skipped when `unscoped` says so for this query. */
export function listUnscopedWhen(unscoped: (query: ListQuery) => boolean, { channelOnly = false, userOnly = false } = {}) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    if (!unscoped(query)) return defaultHooks.listGroups(principal, query, ctx);
    const visible = channelOnly ? (g: GroupRecord, p: Principal) => g.ownerUserId === p.userId : userOnly ? channelAllows : () => true;
    return listWith(principal, query, ctx, { visible });
  };
}

/** Items are scoped, but TotalCount counts the matches before scoping: the count leaks what the caller may not see. */
export function listCountingBeyondScope(countVisible: (g: GroupRecord, p: Principal) => boolean) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    // Items and the count from one snapshot: two reads of it can straddle a refresh, and the count would then also
    // hold a group the page does not, a deviation of another kind than this mutant's (a flaky PAGE-05 in the matrix).
    const groups = ctx.store.snapshot();
    const pinned: HookContext = { ...ctx, store: ctx.store.readingAs(() => groups.slice()) };
    const result = defaultHooks.listGroups(principal, query, pinned);
    const total = groups.filter((g) => countVisible(g, principal) && ctx.hooks.matchesFilter(g, query.filter, pinned)).length;
    return { ...result, TotalCount: total };
  };
}

/** The reference authentication, but a well-formed Bearer header it refuses is answered by `instead`. */
export function onRefusedBearer(instead: (refused: ApiError, ctx: HookContext) => Principal | ApiError) {
  return (authorization: string | undefined, ctx: HookContext): Principal | ApiError => {
    const result = defaultHooks.authenticate(authorization, ctx);
    const wellFormed = authorization !== undefined && /^bearer \S/i.test(authorization);
    return result instanceof ApiError && wellFormed ? instead(result, ctx) : result;
  };
}

export const utf8 = new TextDecoder('utf-8');

/** JSON.parse's complaint about a body, or null when it parses. */
export function syntaxError(raw: Buffer): string | null {
  try {
    JSON.parse(utf8.decode(raw));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The list's authorization step refusing a GroupType other than AIGC with this error, as a validation step written for the create would. */
export const refusingOtherGroupTypes =
  (error: ApiError): ReferenceHooks['authorizeList'] =>
  (principal, query, ctx) =>
    query.filter.groupType !== undefined && query.filter.groupType !== 'AIGC' ? error : defaultHooks.authorizeList(principal, query, ctx);

/** A list that asks no filter (an empty Id list asks none either): the plain list, whose code path some servers keep apart. */
export const unfiltered = (query: ListQuery): boolean =>
  Object.values(query.filter).every((value) => value === undefined || (Array.isArray(value) && !value.length));

/** Marks a name search's result for its envelope (not enumerable: never on the wire). */
const NAME_SEARCH = Symbol('name search');

/**
 * The search by name as a handler of its own, written later, whose result `edit` changes (its items, its count): the
 * tests of the result's own family read the run's groups by their Ids, so only the run-wide oracle reads a name search's.
 */
export function nameSearchResult(edit: (result: ListResult) => ListResult): Partial<ReferenceHooks> {
  return {
    listGroups: (principal, query, ctx) => {
      const result = defaultHooks.listGroups(principal, query, ctx);
      return query.filter.name === undefined ? result : edit(result);
    },
  };
}

/**
 * The search by name as a handler of its own, written later, whose envelope `edit` changes: the suites' own tests of the
 * envelope judge the preflight's and the provoked errors' answers, so only the run-wide oracle reads a name search's.
 */
export function nameSearchEnvelope(edit: (meta: ResponseMetadata) => ResponseMetadata): Partial<ReferenceHooks> {
  return {
    listGroups: (principal, query, ctx) => {
      const result = defaultHooks.listGroups(principal, query, ctx);
      return query.filter.name === undefined ? result : Object.defineProperty({ ...result }, NAME_SEARCH, { value: true });
    },
    successBody: (meta, result, ctx) =>
      defaultHooks.successBody(typeof result === 'object' && result !== null && NAME_SEARCH in result ? edit(meta) : meta, result, ctx),
  };
}
