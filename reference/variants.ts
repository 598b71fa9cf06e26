/**
 * Variants: the reference server plus ONE legitimate choice the spec leaves open each, the mirror of
 * the mutants. A conforming server may make any of them, so the kit must rate every
 * variant conformant with no failed MUST: tests/matrices/variants.test.ts runs the suites against each.
 *
 * `allows` quotes the sentence of spec/asset-group-interface.md that leaves the point open,
 * verbatim; reference/variants.md is generated from this file (npm run variants-table, reference/variants-table.ts).
 *
 * `npm run reference -- --variant NAME` serves one; `--list-variants` lists them.
 */
import {
  ApiError,
  badRequest,
  defaultHooks,
  SPEC_VERSION,
  OPERATIONS,
  type CreateInput,
  type HookContext,
  type ListItem,
  type ListQuery,
  type ListResult,
  type Operation,
  type Principal,
  type ResponseMetadata,
} from './behaviour';
import { CHANNEL_A, OTHER_USER_ID } from './config';
import type { GroupRecord } from './store';
import { isObject } from '../schemas/spec';
import { STACK_VARIANTS } from './stack-variants';
import { LAG_VARIANTS } from './lag-variants';
import { TIMESTAMP_VARIANTS } from './timestamp-variants';
import type { Variant } from './behaviour-types';

export type { Variant };

/** The reference list with the matches put in another (stable) order before paging. */
function listInOrder(order: (a: GroupRecord, b: GroupRecord) => number) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    const matches = ctx.store
      .snapshot()
      .filter((g) => ctx.hooks.visibleTo(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx))
      .sort(order);
    const offset = (query.pageNumber - 1) * query.pageSize;
    return {
      Items: matches.slice(offset, offset + query.pageSize).map((g) => ctx.hooks.toListItem(g)),
      TotalCount: matches.length,
      PageNumber: query.pageNumber,
      PageSize: query.pageSize,
    };
  };
}

/**
 * Authentication behind Jetty 9.4's header field cache (HttpParser): each connection remembers the
 * Authorization values it carried, and a later value on that connection that equals one of them
 * ignoring case is read as the remembered one. Seen on a Jetty 9.4.57 + Jackson server built blind from the spec:
 * after AUTH-06's case-flipped token, the kit's valid token on the same keep-alive connection was refused.
 */
function jettyFieldCache() {
  const cached = new WeakMap<object, string[]>();
  return (authorization: string | undefined, ctx: HookContext, headers?: Readonly<Record<string, string | string[] | undefined>>, connection?: object) => {
    let seen = authorization;
    if (connection && authorization !== undefined) {
      const values = cached.get(connection) ?? cached.set(connection, []).get(connection)!;
      const previous = values.find((value) => value.toLowerCase() === authorization.toLowerCase());
      if (previous !== undefined) seen = previous;
      else values.push(authorization);
    }
    return defaultHooks.authenticate(seen, ctx, headers);
  };
}

function firstCreatesLimited(retryAfter: () => string) {
  const seen = new WeakMap<HookContext, Set<string>>();
  return (principal: Principal, ctx: HookContext): ApiError | null => {
    const tokens = seen.get(ctx) ?? seen.set(ctx, new Set()).get(ctx)!;
    if (tokens.has(principal.token)) return null;
    tokens.add(principal.token);
    return new ApiError(429, 'UpstreamRateLimit', 'upstream rate limit', { 'Retry-After': retryAfter() });
  };
}

/** Whether a group of another user, or of another channel of the caller, carries this Id or space. */
function foreign(principal: Principal, ctx: HookContext, match: (g: GroupRecord) => boolean): boolean {
  return ctx.store.all().some((g) => match(g) && !ctx.hooks.visibleTo(g, principal));
}

let sequence = 100000;

let regionTurn = 0;
const nextRegion = () => (regionTurn++ % 2 === 0 ? 'region-a' : 'region-b');

export const VARIANTS: readonly Variant[] = [
  // ---------------------------------------------------------------- order and paging
  {
    name: 'newestFirst',
    description: 'lists newest groups first',
    allows: 'Pagination is implied by the response fields.',
    hooks: { listGroups: listInOrder((a, b) => b.createdAt - a.createdAt || (a.Id < b.Id ? 1 : -1)) },
  },
  {
    name: 'orderedByName',
    description: 'lists groups in the order of their Name, then Id',
    allows: 'Pagination is implied by the response fields.',
    hooks: { listGroups: listInOrder((a, b) => (a.Name === b.Name ? (a.Id < b.Id ? -1 : 1) : a.Name < b.Name ? -1 : 1)) },
  },
  {
    name: 'wholeSecondOrderThenId',
    description: 'lists groups by CreateTime to the whole second, ties broken by Id (ORDER BY created_at, id on a DATETIME column)',
    allows: 'Pagination is implied by the response fields.',
    hooks: {
      listGroups: listInOrder((a, b) => Math.floor(Date.parse(a.CreateTime) / 1000) - Math.floor(Date.parse(b.CreateTime) / 1000) || (a.Id < b.Id ? -1 : 1)),
    },
  },
  // ---------------------------------------------------------------- formats
  ...TIMESTAMP_VARIANTS,
  {
    name: 'otherIdFormats',
    description: 'numeric group Ids from a counter, and RequestIds of the form 20261122T120000-000001',
    allows: 'Id | string, platform logical ID of the form <group_id>',
    hooks: {
      newGroupId: () => String(++sequence),
      newRequestId: () => `${new Date().toISOString().replace(/[-:]|\.\d+Z$/g, '')}-${String(++sequence).padStart(6, '0')}`,
    },
  },
  {
    name: 'extraFields',
    description: 'adds fields of its own to the envelope, the result, every item and the error part',
    allows: 'Result | object | Operation result; shape depends on the operation.',
    hooks: {
      // Not in a create's Result: "It is the only field returned by create."
      successBody: (meta: ResponseMetadata, result: unknown) => ({
        ResponseMetadata: { ...meta, Partition: 'p-1' },
        Result: isObject(result) && 'Items' in result ? { ...result, Cursor: null } : result,
        Trace: { node: 'ref' },
      }),
      toListItem: (g: GroupRecord): ListItem => ({ ...defaultHooks.toListItem(g), Status: 'Active', Labels: [] }) as ListItem,
      errorBody: (meta: ResponseMetadata, error: ApiError, ctx: HookContext) => {
        const body = defaultHooks.errorBody({ ...meta, Partition: 'p-1' } as ResponseMetadata, error, ctx) as {
          ResponseMetadata: { Error?: Record<string, unknown> };
        };
        if (body.ResponseMetadata.Error) body.ResponseMetadata.Error.CodeN = error.status * 100;
        return body;
      },
    },
  },
  {
    name: 'problemJsonErrors',
    description: 'labels error bodies application/problem+json; charset=utf-8',
    allows: 'The service is an HTTP/JSON interface.',
    hooks: {
      encodeResponse: (payload: unknown, status: number) => ({
        contentType: status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json',
        text: JSON.stringify(payload),
      }),
    },
  },
  {
    name: 'regionPerRequest',
    description: 'a multi-region deployment behind one address: answers name region-a and region-b in turn as ResponseMetadata.Region',
    allows: 'ResponseMetadata.Region | string | Region name <region>.',
    hooks: {
      successBody: (meta: ResponseMetadata, result: unknown, ctx: HookContext) => defaultHooks.successBody({ ...meta, Region: nextRegion() }, result, ctx),
      errorBody: (meta: ResponseMetadata, error: ApiError, ctx: HookContext) => defaultHooks.errorBody({ ...meta, Region: nextRegion() }, error, ctx),
    },
  },
  // ---------------------------------------------------------------- visibility lag
  ...LAG_VARIANTS,
  // ---------------------------------------------------------------- versions, actions, headers
  {
    name: 'lenientVersion',
    description: 'serves any Version, or none, as 2024-01-01 (and echoes what was sent)',
    allows: 'Behaviour with any other Version value: not shown.',
    hooks: { selectOperation: (action: string | null) => defaultHooks.selectOperation(action, SPEC_VERSION) },
  },
  {
    name: 'unknownAction404',
    description: 'answers an unknown or missing Action with 404 AssetBadRequest',
    allows: 'Their paths, payloads and behaviour: not shown.',
    hooks: {
      selectOperation: (action: string | null, version: string | null): Operation | ApiError =>
        OPERATIONS.includes(action as Operation) ? defaultHooks.selectOperation(action, version) : new ApiError(404, 'AssetBadRequest', 'no such Action'),
    },
  },
  {
    name: 'lenientAuthHeader',
    description: 'accepts a valid token with any scheme word, in any case, any spacing, or bare',
    allows: 'Every request carries the header Authorization with the value "Bearer <ACCESS_TOKEN>" (the word Bearer, a space, then the token).',
    hooks: {
      authenticate: (authorization: string | undefined, ctx: HookContext) => {
        const words = (authorization ?? '').trim().split(/ +/);
        const token = words.length === 2 ? words[1] : words.length === 1 ? words[0] : undefined;
        const known = token === undefined ? undefined : ctx.tokens.get(token);
        return known ?? defaultHooks.authenticate(authorization, ctx);
      },
    },
  },
  {
    name: 'jettyHeaderFieldCache',
    description:
      "Jetty 9.4's HTTP parser defaults: header fields are cached per connection and a cached value matches ignoring case, so after `Bearer <TOKEN>` a connection's `Bearer <token>` reaches the application as the cached value",
    allows: 'Every request carries the header Authorization with the value "Bearer <ACCESS_TOKEN>" (the word Bearer, a space, then the token).',
    hooks: { authenticate: jettyFieldCache() },
  },
  {
    name: 'retryAfterHttpDate',
    description: 'answers the first create of each token 429 with Retry-After as an HTTP date',
    allows: 'Limits: not shown (rate limits, page-size bounds, field-length limits). The only hint is that create can answer 429.',
    hooks: { limitCreate: firstCreatesLimited(() => new Date(Date.now() + 1000).toUTCString()) },
  },
  {
    name: 'retryAfterSeconds',
    description: 'answers the first create of each token 429 with Retry-After: 1',
    allows: 'Limits: not shown (rate limits, page-size bounds, field-length limits). The only hint is that create can answer 429.',
    hooks: { limitCreate: firstCreatesLimited(() => '1') },
  },
  // ---------------------------------------------------------------- filters and scoping
  {
    name: 'unknownFilterValuesRefused',
    description: 'refuses with 400 AssetBadRequest a GroupType it does not offer and an AssetSpaceId no group has',
    allows: 'Allowed values of GroupType other than AIGC: not shown.',
    hooks: {
      validateList: (body: Record<string, unknown>, ctx: HookContext) => {
        const query = defaultHooks.validateList(body, ctx);
        if (query instanceof ApiError) return query;
        const { groupType, assetSpaceId } = query.filter;
        if (groupType !== undefined && !ctx.profile.create.groupTypes.includes(groupType))
          return badRequest('ListAssetGroups', `unknown GroupType ${groupType}`);
        if (assetSpaceId !== undefined && !ctx.store.all().some((g) => g.AssetSpaceId === assetSpaceId))
          return badRequest('ListAssetGroups', `unknown AssetSpaceId ${assetSpaceId}`);
        return query;
      },
    },
  },
  {
    name: 'foreignFilterValuesForbidden',
    description: 'refuses with 403 AssetError a list whose filter names a group Id or asset space the caller may not see',
    allows: 'Conditions that trigger each status: not shown.',
    hooks: {
      authorizeList: (principal: Principal, query: ListQuery, ctx: HookContext) => {
        const { groupIds = [], assetSpaceId } = query.filter;
        const named = foreign(
          principal,
          ctx,
          (g) =>
            groupIds.includes(g.Id) ||
            (assetSpaceId !== undefined &&
              g.AssetSpaceId === assetSpaceId &&
              !ctx.store.all().some((o) => o.AssetSpaceId === assetSpaceId && ctx.hooks.visibleTo(o, principal))),
        );
        return named ? new ApiError(403, 'AssetError', 'the filter names groups you may not see') : null;
      },
    },
  },
  {
    name: 'secondUserReadOnly',
    description: "the second user's token may only read: its creates are refused with 403 AssetError",
    allows: 'Conditions that trigger each status: not shown.',
    hooks: {
      limitCreate: (principal: Principal, ctx: HookContext) =>
        principal.userId === OTHER_USER_ID ? new ApiError(403, 'AssetError', 'this token may only read') : defaultHooks.limitCreate(principal, ctx),
    },
  },
  {
    name: 'unboundGroupsInEveryChannel',
    description: 'groups created through an unbound token belong to no channel and are listed to every channel-bound token of the user',
    allows: 'A token may be bound to a fixed channel; for the list operation this limits results to that channel.',
    hooks: { visibleTo: (g: GroupRecord, p: Principal) => g.ownerUserId === p.userId && (p.channel === null || g.channel === null || g.channel === p.channel) },
  },
  {
    name: 'unboundGroupsInChannelA',
    description: "groups created through an unbound token are filed under the user's default channel, channel A",
    allows: 'A token may be bound to a fixed channel; for the list operation this limits results to that channel.',
    hooks: {
      createGroup: (principal: Principal, input: CreateInput, ctx: HookContext) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        if (group.channel === null) group.channel = CHANNEL_A;
        return group;
      },
    },
  },
  {
    name: 'oneSpacePerUser',
    description: "keeps all of a user's groups in one asset space, whatever the channel",
    allows: 'Fields of the other resources (assets, asset spaces, verification sessions): not shown.',
    hooks: { assetSpaceFor: (p: Principal) => `space-${p.userId}` },
  },

  // ================================================================ real stacks' defaults, at the wire
  // What common stacks do without being told, none of which the spec rules out. Timestamps of
  // every ISO 8601 UTC form are here on purpose (SCHEMA-03 is to accept them all).

  ...STACK_VARIANTS,
];

export function findVariant(name: string): Variant | undefined {
  return VARIANTS.find((v) => v.name === name);
}
