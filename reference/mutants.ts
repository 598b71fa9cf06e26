/**
 * Mutants: the reference server plus ONE small named modifier each, to prove that every check of
 * the kit can fail (STYLE 7). A modifier is a function replacing or wrapping one step of
 * `ReferenceHooks` (reference/behaviour.ts); everything else stays the reference behaviour.
 *
 * Each mutant breaks one requirement the way a real implementation might. Which requirements
 * the suites then actually fail is data, in reference/mutants.expected.yaml, and
 * tests/mutants.test.ts runs the suites against every mutant to prove that file right.
 *
 * `npm run reference -- --mutant NAME` serves one; `--list-mutants` lists them.
 *
 * Rules that keep kills deterministic: no randomness and no wall-clock conditions in a modifier;
 * per-server state lives in a WeakMap keyed by the server's HookContext.
 */
import {
  ApiError,
  badRequest,
  codePointLength,
  defaultHooks,
  JSON_CONTENT_TYPE,
  OPERATIONS,
  SPEC_VERSION,
  type CreateInput,
  type HookContext,
  type ListQuery,
  type ListResult,
  type Operation,
  type Principal,
  type ReferenceHooks,
  type ResponseMetadata,
} from './behaviour';
import { CHANNEL_B } from './config';
import type { GroupRecord } from './store';

export interface Mutant {
  /** camelCase, unique; the key in mutants.expected.yaml and the value of --mutant. */
  name: string;
  /** What is wrong with it, as a bug report would say. */
  description: string;
  /** The requirement ID it is designed to break; always among its expected failures. */
  breaks: string;
  hooks: Partial<ReferenceHooks>;
}

// ---------------------------------------------------------------- small helpers

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutRegion(meta: ResponseMetadata): ResponseMetadata {
  const { Region: _dropped, ...rest } = meta;
  return rest as ResponseMetadata;
}

/** The first unbound token of the directory (the primary user's): the "default user" of lax servers. */
function primaryPrincipal(ctx: HookContext): Principal {
  const first = [...ctx.tokens.values()].find((p) => p.channel === null);
  if (!first) throw new Error('no unbound token configured');
  return first;
}

const channelAllows = (group: GroupRecord, principal: Principal): boolean => principal.channel === null || group.channel === principal.channel;

/** The reference list computation with the visibility rule and the paging arithmetic swappable. */
function listWith(
  principal: Principal,
  query: ListQuery,
  ctx: HookContext,
  { visible = ctx.hooks.visibleTo, offsetOf = (q: ListQuery) => (q.pageNumber - 1) * q.pageSize, extra = 0 }: {
    visible?: (group: GroupRecord, principal: Principal) => boolean;
    offsetOf?: (q: ListQuery, matches: number) => number;
    extra?: number;
  } = {},
): ListResult {
  const matches = ctx.store.snapshot().filter((g) => visible(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx));
  const offset = offsetOf(query, matches.length);
  return {
    Items: matches.slice(offset, offset + query.pageSize + extra).map((g) => ctx.hooks.toListItem(g)),
    TotalCount: matches.length,
    PageNumber: query.pageNumber,
    PageSize: query.pageSize,
  };
}

/** Per-server state, so one mutant's hooks can serve several servers (tests start many). */
function perServer<T>(make: () => T): (ctx: HookContext) => T {
  const states = new WeakMap<HookContext, T>();
  return (ctx) => {
    let state = states.get(ctx);
    if (state === undefined) states.set(ctx, (state = make()));
    return state;
  };
}

// ---------------------------------------------------------------- ENV

/** The auth middleware answers 401 with an envelope of its own, without Region. */
function errorBodyWithoutRegionOn401(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  return defaultHooks.errorBody(error.status === 401 ? withoutRegion(meta) : meta, error, ctx);
}

function emptyRequestId(): string {
  return '';
}

function constantRequestId(): string {
  return 'req-00000000';
}

/** Serialises JSON but labels it text/plain, as `res.end(JSON.stringify(x))` without a header does. */
function encodeAsTextPlain(payload: unknown): { contentType: string; text: string } {
  return { contentType: 'text/plain; charset=utf-8', text: JSON.stringify(payload) };
}

/** The JSON body parser's own 400 is the bare words "Bad Request" under the API's JSON content type. */
function encodeParseErrorsAsPlainWords(payload: unknown, status: number): { contentType: string; text: string } {
  // The reference server always writes the reference profile's error body: ResponseMetadata.Error.Message.
  const message = (payload as { ResponseMetadata?: { Error?: { Message?: unknown } } } | undefined)?.ResponseMetadata?.Error?.Message;
  const parseError = status === 400 && typeof message === 'string' && message.includes('not valid JSON');
  return parseError ? { contentType: JSON_CONTENT_TYPE, text: 'Bad Request' } : defaultHooks.encodeResponse(payload, status);
}

/** An unfiltered, unpaged list comes back from the query layer as undefined; the envelope then has no Result. */
function listGroupsUndefinedWhenUnfiltered(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const { pageNumber, pageSize } = ctx.profile.list;
  const unfiltered = Object.keys(query.filter).length === 0 && query.pageNumber === pageNumber.default && query.pageSize === pageSize.default;
  return unfiltered ? (undefined as unknown as ListResult) : defaultHooks.listGroups(principal, query, ctx);
}

// ---------------------------------------------------------------- VER

/** The auth middleware runs before the query is read: its 401s carry an empty Version. */
function errorBodyWithoutVersionOn401(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  return defaultHooks.errorBody(error.status === 401 ? { ...meta, Version: '' } : meta, error, ctx);
}

/** Successes name the response type instead of echoing the Action. */
function successBodyWithResponseSuffix(meta: ResponseMetadata, result: unknown, ctx: HookContext): unknown {
  return defaultHooks.successBody({ ...meta, Action: `${meta.Action}Response` }, result, ctx);
}

/** Error answers write the supported Version, a constant, instead of echoing the request's. */
function errorBodyWithConstantVersion(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  return defaultHooks.errorBody({ ...meta, Version: SPEC_VERSION }, error, ctx);
}

/** Only known Actions are echoed; an unknown one is blanked. */
function errorBodyBlankingUnknownActions(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  const known = OPERATIONS.includes(meta.Action as Operation);
  return defaultHooks.errorBody(known ? meta : { ...meta, Action: '' }, error, ctx);
}

// ---------------------------------------------------------------- AUTH

/** A missing header is treated as a malformed request (400) rather than an authentication failure. */
function authenticateMissingAs400(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  if (authorization === undefined) return new ApiError(400, 'AssetBadRequest', 'Authorization header is required');
  return defaultHooks.authenticate(authorization, ctx);
}

/** `Bearer ` with nothing after it falls through to the default user. (Node's parser trims the trailing space.) */
function authenticateEmptyBearerAsDefaultUser(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  return authorization?.trim().toLowerCase() === 'bearer' ? primaryPrincipal(ctx) : defaultHooks.authenticate(authorization, ctx);
}

/** Takes the last word of the header as the token, whatever the scheme (or none). */
function authenticateAnyScheme(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  if (authorization === undefined) return defaultHooks.authenticate(authorization, ctx);
  const token = authorization.split(' ').pop() ?? '';
  return ctx.tokens.get(token) ?? defaultHooks.authenticate(authorization, ctx);
}

/** Any well-formed bearer token is accepted as the default user: the signature is never verified. */
function authenticateUnknownTokens(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  const result = defaultHooks.authenticate(authorization, ctx);
  const wellFormed = authorization !== undefined && /^bearer \S/i.test(authorization);
  return result instanceof ApiError && wellFormed ? primaryPrincipal(ctx) : result;
}

/** A token the directory does not know is reported with the generic kind, as a failed lookup. */
function authenticateUnknownTokensWithAssetErrorKind(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  const result = defaultHooks.authenticate(authorization, ctx);
  const wellFormed = authorization !== undefined && /^bearer \S/i.test(authorization);
  return result instanceof ApiError && wellFormed ? new ApiError(401, 'AssetError', result.message) : result;
}

// ---------------------------------------------------------------- ERR

/** Error answers carry an empty Result beside the error. */
function errorBodyWithResult(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  return { ...(defaultHooks.errorBody(meta, error, ctx) as object), Result: {} };
}

/** One 400 kind for both operations: ListAssetGroups' 400s say AssetError too. */
function errorBodyOneBadRequestKind(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  const kind = error.status === 400 && error.code === 'AssetBadRequest' ? 'AssetError' : error.code;
  return defaultHooks.errorBody(meta, new ApiError(error.status, kind, error.message, error.headers), ctx);
}

/** Bodies that are not a JSON object are answered 422 Unprocessable Content, a status the spec does not list. */
function parseBodyWith422(raw: Buffer, op: Operation): Record<string, unknown> | ApiError {
  const result = defaultHooks.parseBody(raw, op);
  return result instanceof ApiError ? new ApiError(422, result.code, result.message) : result;
}

// ---------------------------------------------------------------- CREATE

/**
 * Channel B's upstream connector answers a blank Id (a space) and the group is filed under it.
 * Blank, not empty, so the kit's create phase still tracks the group: only the checks of the
 * create answer itself can tell.
 */
function createGroupWithBlankIdOnChannelB(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord {
  const group = defaultHooks.createGroup(principal, input, ctx);
  if (principal.channel === CHANNEL_B) group.Id = ' ';
  return group;
}

/** Channel-bound creates take Ids from a per-channel sequence: two channels repeat each other's Ids. */
function createGroupWithChannelSequenceIds(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord {
  const group = defaultHooks.createGroup(principal, input, ctx);
  if (principal.channel !== null) group.Id = `agp-${ctx.store.all().filter((g) => g.channel === principal.channel).length}`;
  return group;
}

/** An omitted ProjectName is stored as an empty string instead of the default. */
function validateCreateWithEmptyProjectDefault(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const input = defaultHooks.validateCreate(body, ctx);
  const omitted = !Object.prototype.hasOwnProperty.call(body, 'ProjectName');
  return input instanceof ApiError || !omitted ? input : { ...input, ProjectName: '' };
}

// ---------------------------------------------------------------- LIST

/** `{}` is refused as "empty", a common JavaScript slip (`Object.keys(body).length === 0`). */
function validateListRefusingEmptyBody(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  return Object.keys(body).length === 0 ? badRequest('ListAssetGroups', 'request body is empty') : defaultHooks.validateList(body, ctx);
}

function matchesIgnoringAssetSpace(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  return defaultHooks.matchesFilter(group, { ...filter, assetSpaceId: undefined }, ctx);
}

function matchesIgnoringGroupType(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  return defaultHooks.matchesFilter(group, { ...filter, groupType: undefined }, ctx);
}

function matchesIgnoringName(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  return defaultHooks.matchesFilter(group, { ...filter, name: undefined }, ctx);
}

function matchesIgnoringGroupIds(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  return defaultHooks.matchesFilter(group, { ...filter, groupIds: undefined }, ctx);
}

/** The name filter is a case-sensitive substring match. */
function matchesNameCaseSensitively(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  if (filter.name !== undefined && !group.Name.includes(filter.name)) return false;
  return defaultHooks.matchesFilter(group, { ...filter, name: undefined }, ctx);
}

// ---------------------------------------------------------------- PAGE

/** `slice(offset, offset + size + 1)`: one item too many on every full page. */
function listGroupsOneTooMany(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return listWith(principal, query, ctx, { extra: 1 });
}

/** PageSize is clamped to 50 and the clamped value echoed. */
function validateListClampingPageSize(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  const query = defaultHooks.validateList(body, ctx);
  return query instanceof ApiError ? query : { ...query, pageSize: Math.min(query.pageSize, 50) };
}

/** The default page size is 20 rather than the profile's 10. */
function validateListWithDefaultPageSize20(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  const query = defaultHooks.validateList(body, ctx);
  const omitted = !Object.prototype.hasOwnProperty.call(body, ctx.profile.list.pageSize.field);
  return query instanceof ApiError || !omitted ? query : { ...query, pageSize: 20 };
}

/** TotalCount is the length of the page. */
function listGroupsCountingThePage(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const result = defaultHooks.listGroups(principal, query, ctx);
  return { ...result, TotalCount: result.Items.length };
}

/** Pages after the first start one item early, so neighbouring pages share an item. */
function listGroupsOverlappingPages(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return listWith(principal, query, ctx, { offsetOf: (q) => Math.max(0, (q.pageNumber - 1) * q.pageSize - 1) });
}

/** A page past the end is answered with the last page instead of an empty one. */
function listGroupsClampingPastEnd(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return listWith(principal, query, ctx, {
    offsetOf: (q, matches) => {
      const offset = (q.pageNumber - 1) * q.pageSize;
      return offset >= matches && matches > 0 ? Math.floor((matches - 1) / q.pageSize) * q.pageSize : offset;
    },
  });
}

/** Invalid paging values silently fall back to the defaults. */
function validateListWithLenientPaging(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  const { pageNumber, pageSize } = ctx.profile.list;
  const lenient = { ...body };
  for (const spec of [pageNumber, pageSize]) {
    const value = lenient[spec.field];
    const max = (spec as { maximum?: number }).maximum ?? Infinity;
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= spec.minimum && value <= max)) delete lenient[spec.field];
  }
  return defaultHooks.validateList(lenient, ctx);
}

// ---------------------------------------------------------------- SCOPE

/** The "list everything" fast path (no filter) forgets the user check. */
function listGroupsUnscopedWhenUnfiltered(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const unfiltered = Object.keys(query.filter).length === 0;
  return listWith(principal, query, ctx, { visible: unfiltered ? channelAllows : ctx.hooks.visibleTo });
}

/** A GroupIds filter is served by primary-key lookup, which skips the user check. */
function listGroupsUnscopedByIds(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const byIds = (query.filter.groupIds?.length ?? 0) > 0;
  return listWith(principal, query, ctx, { visible: byIds ? channelAllows : ctx.hooks.visibleTo });
}

/** An exact Name is served from a global name index, which skips the user check. */
function listGroupsUnscopedByExactName(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const name = query.filter.name;
  return listWith(principal, query, ctx, { visible: (g, p) => (name !== undefined && g.Name === name ? channelAllows(g, p) : ctx.hooks.visibleTo(g, p)) });
}

// ---------------------------------------------------------------- CHAN

/** The group record does not keep the channel it was created through. */
function createGroupForgettingChannel(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord {
  const group = defaultHooks.createGroup(principal, input, ctx);
  group.channel = null;
  return group;
}

/** The channel binding of the token is not applied to lists. */
function visibleToIgnoringChannel(group: GroupRecord, principal: Principal): boolean {
  return group.ownerUserId === principal.userId;
}

/** "No channel" is treated as one more channel: an unbound token sees only unbound groups. */
function visibleToOnlySameChannel(group: GroupRecord, principal: Principal): boolean {
  return group.ownerUserId === principal.userId && group.channel === principal.channel;
}

// ---------------------------------------------------------------- VIS

const channelReads = perServer(() => new Map<string, number>());

/** Drops items a channel-bound token may not see (yet), keeping TotalCount consistent. */
function hideFromChannel(principal: Principal, query: ListQuery, ctx: HookContext, hidden: (reads: number) => boolean): ListResult {
  const result = defaultHooks.listGroups(principal, query, ctx);
  if (principal.channel === null) return result;
  const reads = channelReads(ctx);
  const kept = result.Items.filter((item) => {
    const key = `${principal.token}\u0000${item.Id}`;
    const n = (reads.get(key) ?? 0) + 1;
    reads.set(key, n);
    return !hidden(n);
  });
  return { ...result, Items: kept, TotalCount: result.TotalCount - (result.Items.length - kept.length) };
}

/** A channel's read cache evicts a group after it has been read twice. */
function listGroupsEvictingAfterTwoChannelReads(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return hideFromChannel(principal, query, ctx, (n) => n > 2);
}

/** A channel's reads alternate between two replicas, one of which lacks the group. */
function listGroupsFlappingForChannels(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return hideFromChannel(principal, query, ctx, (n) => n % 2 === 0);
}

// ---------------------------------------------------------------- SCHEMA

/** Creates through a channel-bound token are answered by the channel gateway, whose envelope has no Region. */
function successBodyWithoutRegionForChannelCreates(meta: ResponseMetadata, result: unknown, ctx: HookContext): unknown {
  const id = isObject(result) ? result.Id : undefined;
  const viaChannel = typeof id === 'string' && ctx.store.all().some((g) => g.Id === id && g.channel !== null);
  return defaultHooks.successBody(viaChannel ? withoutRegion(meta) : meta, result, ctx);
}

/** Groups created through an unbound token have no asset space: AssetSpaceId null in list items. */
function toListItemWithNullSpace(group: GroupRecord): ReturnType<ReferenceHooks['toListItem']> {
  const item = defaultHooks.toListItem(group);
  return group.channel === null ? { ...item, AssetSpaceId: null as unknown as string } : item;
}

/** Timestamps in the server's local zone, UTC+08:00. */
function localTimestamp(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().replace('Z', '+08:00');
}

/** UpdateTime is written from a clock one second behind the one CreateTime comes from. */
function createGroupWithEarlierUpdateTime(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord {
  const group = defaultHooks.createGroup(principal, input, ctx);
  group.UpdateTime = new Date(Date.parse(group.CreateTime) - 1000).toISOString();
  return group;
}

// ---------------------------------------------------------------- INPUT

/** A hand-written parser crashes on an invalid escape sequence (500) instead of refusing it. */
function parseBodyCrashingOnBadEscapes(raw: Buffer, op: Operation): Record<string, unknown> | ApiError {
  const text = raw.toString('utf8');
  const parses = (() => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  })();
  if (!parses && /\\[^"\\/bfnrtu]/.test(text)) throw new Error('unexpected escape sequence');
  return defaultHooks.parseBody(raw, op);
}

/** Any JSON value is taken as the body; only objects were ever tested. */
function parseBodyAcceptingAnyJson(raw: Buffer, op: Operation): Record<string, unknown> | ApiError {
  const result = defaultHooks.parseBody(raw, op);
  if (!(result instanceof ApiError) || !/must be a JSON object/.test(result.message)) return result;
  return JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
}

/** Create fields are coerced with String() instead of type-checked. */
function validateCreateCoercingFields(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const coerced: Record<string, unknown> = { ...body };
  for (const field of ['Name', 'Title', 'Description', 'GroupType', 'ProjectName']) {
    if (coerced[field] !== undefined && typeof coerced[field] !== 'string') coerced[field] = String(coerced[field]);
  }
  return defaultHooks.validateCreate(coerced, ctx);
}

/** The Name length limit is not enforced. */
function validateCreateWithoutNameLimit(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const max = ctx.profile.create.maxLength.Name;
  const name = body.Name;
  if (typeof name !== 'string' || max === undefined || codePointLength(name) <= max) return defaultHooks.validateCreate(body, ctx);
  const input = defaultHooks.validateCreate({ ...body, Name: [...name].slice(0, max).join('') }, ctx);
  return input instanceof ApiError ? input : { ...input, Name: name };
}

/** An unknown Action reaches a dispatch table lookup that throws (500). */
function selectOperationCrashingOnUnknownAction(action: string | null, version: string | null): Operation | ApiError {
  if (!OPERATIONS.includes(action as Operation)) throw new TypeError(`handlers[${JSON.stringify(action)}] is not a function`);
  return defaultHooks.selectOperation(action, version);
}

/** The Version parameter is never checked. */
function selectOperationIgnoringVersion(action: string | null): Operation | ApiError {
  return defaultHooks.selectOperation(action, SPEC_VERSION);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A strict UTF-8 encoder in the storage layer throws on a lone surrogate (500). */
function validateCreateCrashingOnLoneSurrogates(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const input = defaultHooks.validateCreate(body, ctx);
  if (!(input instanceof ApiError) && Object.values(input).some((v) => LONE_SURROGATE.test(v))) throw new Error('invalid UTF-16: lone surrogate');
  return input;
}

/** Strings are normalised to NFC on the way in, so combining marks do not round-trip. */
function validateCreateNormalisingUnicode(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const input = defaultHooks.validateCreate(body, ctx);
  if (input instanceof ApiError) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v.normalize('NFC')])) as unknown as CreateInput;
}

const rateLimitedOnce = perServer(() => new Set<string>());

/** The first create of each token is rate limited, with no Retry-After header. */
function limitFirstCreateWithoutRetryAfter(principal: Principal, ctx: HookContext): ApiError | null {
  const seen = rateLimitedOnce(ctx);
  if (seen.has(principal.token)) return null;
  seen.add(principal.token);
  return new ApiError(429, 'UpstreamRateLimit', 'create rate exceeded');
}

// ---------------------------------------------------------------- near-miss credentials (AUTH-06)

/** The token after "Bearer ", looked up after `normalise`: each mutant forgives one kind of near miss. */
function authenticateNormalising(normalise: (token: string, known: string) => boolean) {
  return (authorization: string | undefined, ctx: HookContext): Principal | ApiError => {
    const result = defaultHooks.authenticate(authorization, ctx);
    if (!(result instanceof ApiError) || authorization === undefined || !/^bearer ./i.test(authorization)) return result;
    const sent = authorization.slice(7);
    const match = [...ctx.tokens.entries()].find(([known]) => normalise(sent, known));
    return match ? match[1] : result;
  };
}

// ---------------------------------------------------------------- every filter x every scope boundary (SCOPE-04, CHAN-04)

/** The reference list, but the user and channel rules are skipped when `unscoped` says so for this query. */
function listUnscopedWhen(unscoped: (query: ListQuery) => boolean, { channelOnly = false, userOnly = false } = {}) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    if (!unscoped(query)) return defaultHooks.listGroups(principal, query, ctx);
    const visible = channelOnly ? (g: GroupRecord, p: Principal) => g.ownerUserId === p.userId : userOnly ? channelAllows : () => true;
    return listWith(principal, query, ctx, { visible });
  };
}

/** Items are scoped, but TotalCount counts the matches before scoping: the count leaks what the caller may not see. */
function listCountingBeyondScope(countVisible: (g: GroupRecord, p: Principal) => boolean) {
  return (principal: Principal, query: ListQuery, ctx: HookContext): ListResult => {
    const result = defaultHooks.listGroups(principal, query, ctx);
    const total = ctx.store.snapshot().filter((g) => countVisible(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx)).length;
    return { ...result, TotalCount: total };
  };
}

// ---------------------------------------------------------------- values at the bounds (CREATE-05)

/** Stores each field through `store`, after the reference validation. */
function validateCreateStoring(store: (field: string, value: string) => string) {
  return (body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError => {
    const input = defaultHooks.validateCreate(body, ctx);
    if (input instanceof ApiError) return input;
    return Object.fromEntries(Object.entries(input).map(([field, value]) => [field, store(field, value)])) as unknown as CreateInput;
  };
}

/** Length bounds counted in UTF-16 code units, as String.length does: a character outside the BMP counts twice. */
function validateCreateCountingUtf16(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  for (const [field, max] of Object.entries(ctx.profile.create.maxLength)) {
    const value = body[field];
    if (typeof value === 'string' && value.length > max) return badRequest('CreateAssetGroup', `${field} must be at most ${max} characters`);
  }
  return defaultHooks.validateCreate(body, ctx);
}

// ---------------------------------------------------------------- more for the list

/** The name filter goes into a LIKE pattern unescaped: % and _ are wildcards. */
function matchesNameAsLikePattern(group: GroupRecord, filter: ListQuery['filter'], ctx: HookContext): boolean {
  if (filter.name === undefined || !/[%_]/.test(filter.name)) return defaultHooks.matchesFilter(group, filter, ctx);
  const pattern = new RegExp(filter.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.'), 'i');
  return defaultHooks.matchesFilter(group, { ...filter, name: undefined }, ctx) && pattern.test(group.Name);
}

/** Pages after the first start one item late (off-by-one the other way): one match per page boundary is never shown. */
function listGroupsSkippingOne(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  return listWith(principal, query, ctx, { offsetOf: (q) => (q.pageNumber - 1) * q.pageSize + (q.pageNumber > 1 ? 1 : 0) });
}

/** 400 answers carry a Message but no Code: the error kind is nowhere in the body. */
function errorBodyWithoutKindOn400(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  const body = defaultHooks.errorBody(meta, error, ctx) as { ResponseMetadata: { Error?: Record<string, unknown> } };
  if (error.status === 400 && body.ResponseMetadata.Error) delete body.ResponseMetadata.Error.Code;
  return body;
}

/** A list with an empty body is taken as an anonymous call and refused 401, though the token is valid. */
function validateListTreatingEmptyAsAnonymous(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  if (Object.keys(body).length === 0) return new ApiError(401, 'TokenAuthError', 'no credentials in the request');
  return defaultHooks.validateList(body, ctx);
}

const firstRead = perServer(() => ({ at: undefined as number | undefined }));

/** The list snapshot is taken at the first read and never refreshed: nothing created later is ever listed. */
function listGroupsFromFrozenSnapshot(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const state = firstRead(ctx);
  state.at ??= ctx.store.now();
  const frozen = Object.assign(Object.create(ctx.store), { snapshot: () => ctx.store.snapshot().filter((g) => g.createdAt < state.at!) });
  return defaultHooks.listGroups(principal, query, { ...ctx, store: frozen } as HookContext);
}

/** The create answers the whole new group as its Result, not the Id alone. */
function successBodyWithWholeGroupOnCreate(meta: ResponseMetadata, result: unknown, ctx: HookContext): unknown {
  const id = isObject(result) && Object.keys(result).length === 1 ? result.Id : undefined;
  const group = typeof id === 'string' ? ctx.store.all().find((g) => g.Id === id) : undefined;
  return defaultHooks.successBody(meta, group ? ctx.hooks.toListItem(group) : result, ctx);
}

/** A filtered list that matches nothing is answered 404 "no groups found" instead of an empty page. */
function listGroupsAnswering404WhenNothingMatches(principal: Principal, query: ListQuery, ctx: HookContext): ApiError | null {
  const filtered = Object.values(query.filter).some((v) => v !== undefined);
  if (!filtered) return null;
  const any = ctx.store.snapshot().some((g) => ctx.hooks.visibleTo(g, principal) && ctx.hooks.matchesFilter(g, query.filter, ctx));
  return any ? null : new ApiError(404, 'AssetBadRequest', 'no asset groups found');
}

/** A page of one item carries the item itself as Items, not an array of one (a serializer that unwraps singletons). */
function listGroupsUnwrappingSingletons(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const result = defaultHooks.listGroups(principal, query, ctx);
  return result.Items.length === 1 ? { ...result, Items: result.Items[0] as unknown as ListResult['Items'] } : result;
}

// ---------------------------------------------------------------- the mutants

export const MUTANTS: readonly Mutant[] = [
  // ENV
  { name: 'authEnvelopeWithoutRegion', breaks: 'ENV-02', description: '401 answers carry an envelope without Region (the auth layer builds its own)', hooks: { errorBody: errorBodyWithoutRegionOn401 } },
  { name: 'emptyRequestId', breaks: 'ENV-03', description: 'ResponseMetadata.RequestId is an empty string', hooks: { newRequestId: emptyRequestId } },
  { name: 'constantRequestId', breaks: 'ENV-04', description: 'every response has the same RequestId', hooks: { newRequestId: constantRequestId } },
  { name: 'malformedJsonPlainText', breaks: 'ENV-05', description: 'malformed JSON gets 400 with the bare words "Bad Request" under a JSON content type', hooks: { encodeResponse: encodeParseErrorsAsPlainWords } },
  { name: 'textPlainContentType', breaks: 'ENV-05', description: 'JSON bodies are sent as Content-Type text/plain', hooks: { encodeResponse: encodeAsTextPlain } },
  { name: 'resultOmittedWhenUnfiltered', breaks: 'ENV-06', description: 'an unfiltered, unpaged list ({}) answers 200 with no Result', hooks: { listGroups: listGroupsUndefinedWhenUnfiltered } },
  // VER
  { name: 'authErrorsWithoutVersion', breaks: 'VER-01', description: '401 answers carry ResponseMetadata.Version ""', hooks: { errorBody: errorBodyWithoutVersionOn401 } },
  { name: 'actionWithResponseSuffix', breaks: 'VER-02', description: 'successes answer Action "<Action>Response" instead of echoing it', hooks: { successBody: successBodyWithResponseSuffix } },
  { name: 'versionEcho', breaks: 'VER-03', description: 'error answers write the constant Version 2024-01-01 instead of echoing the request\'s', hooks: { errorBody: errorBodyWithConstantVersion } },
  { name: 'unknownActionNotEchoed', breaks: 'VER-04', description: 'an unknown Action is answered with Action ""', hooks: { errorBody: errorBodyBlankingUnknownActions } },
  // AUTH
  { name: 'missingAuthorizationIs400', breaks: 'AUTH-01', description: 'a request without Authorization gets 400 AssetBadRequest instead of 401', hooks: { authenticate: authenticateMissingAs400 } },
  { name: 'emptyBearerAccepted', breaks: 'AUTH-02', description: '"Bearer " with no token is served as the default user', hooks: { authenticate: authenticateEmptyBearerAsDefaultUser } },
  { name: 'anySchemeAccepted', breaks: 'AUTH-03', description: 'the token is the header\'s last word, whatever the scheme (Basic, Token, none)', hooks: { authenticate: authenticateAnyScheme } },
  { name: 'unknownTokenAccepted', breaks: 'AUTH-04', description: 'any well-formed Bearer token is accepted as the default user', hooks: { authenticate: authenticateUnknownTokens } },
  { name: 'unknownTokenKindAssetError', breaks: 'ERR-02', description: 'an unknown token gets 401 with the error kind AssetError instead of TokenAuthError', hooks: { authenticate: authenticateUnknownTokensWithAssetErrorKind } },
  // ERR
  { name: 'errorBodyWithResult', breaks: 'ERR-01', description: 'error answers carry an empty Result beside the error', hooks: { errorBody: errorBodyWithResult } },
  { name: 'listBadRequestAsAssetError', breaks: 'ERR-02', description: 'ListAssetGroups 400s carry AssetError instead of AssetBadRequest', hooks: { errorBody: errorBodyOneBadRequestKind } },
  { name: 'badBody422', breaks: 'ERR-03', description: 'a body that is not a JSON object gets 422, a status the spec does not list', hooks: { parseBody: parseBodyWith422 } },
  // CREATE
  { name: 'blankIdFromOneChannel', breaks: 'CREATE-01', description: 'creates through channel B answer 200 with a blank Result.Id (" ")', hooks: { createGroup: createGroupWithBlankIdOnChannelB } },
  { name: 'unicodeNormalised', breaks: 'CREATE-05', description: 'create fields are normalised to NFC, so combining marks do not round-trip', hooks: { validateCreate: validateCreateNormalisingUnicode } },
  { name: 'channelSequenceIds', breaks: 'CREATE-03', description: 'channel-bound creates take Ids from a per-channel sequence, so channels repeat each other\'s Ids', hooks: { createGroup: createGroupWithChannelSequenceIds } },
  { name: 'projectNameDefaultEmpty', breaks: 'CREATE-04', description: 'an omitted ProjectName is stored as "" instead of "default"', hooks: { validateCreate: validateCreateWithEmptyProjectDefault } },
  // LIST
  { name: 'emptyListBodyRefused', breaks: 'LIST-01', description: 'ListAssetGroups with body {} gets 400 "request body is empty"', hooks: { validateList: validateListRefusingEmptyBody } },
  { name: 'assetSpaceFilterIgnored', breaks: 'LIST-02', description: 'the AssetSpaceId filter is ignored', hooks: { matchesFilter: matchesIgnoringAssetSpace } },
  { name: 'groupTypeFilterIgnored', breaks: 'LIST-03', description: 'the GroupType filter is ignored', hooks: { matchesFilter: matchesIgnoringGroupType } },
  { name: 'groupIdsFilterIgnored', breaks: 'LIST-04', description: 'the GroupIds filter is ignored', hooks: { matchesFilter: matchesIgnoringGroupIds } },
  { name: 'nameFilterCaseSensitive', breaks: 'LIST-07', description: 'the Name filter matches case-sensitively', hooks: { matchesFilter: matchesNameCaseSensitively } },
  { name: 'nameFilterIgnored', breaks: 'LIST-05', description: 'the Name filter is ignored', hooks: { matchesFilter: matchesIgnoringName } },
  // PAGE
  { name: 'pageOneTooMany', breaks: 'PAGE-01', description: 'a full page holds PageSize + 1 items', hooks: { listGroups: listGroupsOneTooMany } },
  { name: 'pageSizeClamped', breaks: 'PAGE-02', description: 'PageSize is clamped to 50 silently and the clamped value echoed', hooks: { validateList: validateListClampingPageSize } },
  { name: 'defaultPageSize20', breaks: 'PAGE-03', description: 'the default PageSize is 20, not the profile\'s 10', hooks: { validateList: validateListWithDefaultPageSize20 } },
  { name: 'totalCountOfPage', breaks: 'PAGE-04', description: 'TotalCount counts the items of the page', hooks: { listGroups: listGroupsCountingThePage } },
  { name: 'pagesOverlapByOne', breaks: 'PAGE-05', description: 'pages after the first start one item early (off-by-one offset)', hooks: { listGroups: listGroupsOverlappingPages } },
  { name: 'pastEndShowsLastPage', breaks: 'PAGE-06', description: 'a page past the end answers the last page', hooks: { listGroups: listGroupsClampingPastEnd } },
  { name: 'pagingNotValidated', breaks: 'PAGE-07', description: 'invalid PageNumber or PageSize silently fall back to the defaults', hooks: { validateList: validateListWithLenientPaging } },
  // SCOPE
  { name: 'unfilteredListIgnoresUser', breaks: 'SCOPE-01', description: 'a list without a filter shows every user\'s groups', hooks: { listGroups: listGroupsUnscopedWhenUnfiltered } },
  { name: 'idFilterIgnoresUser', breaks: 'SCOPE-02', description: 'another user\'s groups leak through a GroupIds filter', hooks: { listGroups: listGroupsUnscopedByIds } },
  { name: 'exactNameIgnoresUser', breaks: 'SCOPE-03', description: 'another user\'s group leaks through an exact Name filter', hooks: { listGroups: listGroupsUnscopedByExactName } },
  // CHAN
  { name: 'evictedAfterTwoReads', breaks: 'VIS-02', description: 'a channel-bound token\'s read cache drops a group after two reads', hooks: { listGroups: listGroupsEvictingAfterTwoChannelReads } },
  { name: 'channelIgnored', breaks: 'CHAN-02', description: 'a channel-bound token sees every channel of its user', hooks: { visibleTo: visibleToIgnoringChannel } },
  { name: 'unboundSeesOnlyUnbound', breaks: 'CHAN-03', description: 'an unbound token sees only groups created without a channel', hooks: { visibleTo: visibleToOnlySameChannel } },
  // VIS
  { name: 'channelNotRecorded', breaks: 'CHAN-01', description: 'groups do not keep the channel they were created through, so channel-bound tokens never see them', hooks: { createGroup: createGroupForgettingChannel } },
  { name: 'flappingReplica', breaks: 'VIS-02', description: 'every second read of a group by a channel-bound token misses it', hooks: { listGroups: listGroupsFlappingForChannels } },
  // SCHEMA
  { name: 'channelCreateWithoutRegion', breaks: 'ENV-01', description: 'creates through a channel-bound token answer an envelope without Region', hooks: { successBody: successBodyWithoutRegionForChannelCreates } },
  { name: 'nullAssetSpace', breaks: 'SCHEMA-02', description: 'groups created through an unbound token list AssetSpaceId null', hooks: { toListItem: toListItemWithNullSpace } },
  { name: 'localTimeTimestamps', breaks: 'SCHEMA-03', description: 'timestamps are written in local time, +08:00', hooks: { timestamp: localTimestamp } },
  { name: 'updateBeforeCreate', breaks: 'SCHEMA-04', description: 'UpdateTime is one second before CreateTime', hooks: { createGroup: createGroupWithEarlierUpdateTime } },
  // INPUT
  { name: 'badEscapeCrashes', breaks: 'INPUT-01', description: 'an invalid escape sequence in the JSON body gets a 500', hooks: { parseBody: parseBodyCrashingOnBadEscapes } },
  { name: 'nonObjectBodyAccepted', breaks: 'INPUT-02', description: 'a JSON body that is not an object is accepted (or crashes) instead of being refused', hooks: { parseBody: parseBodyAcceptingAnyJson } },
  { name: 'createFieldsCoerced', breaks: 'INPUT-03', description: 'create fields of the wrong type are coerced with String()', hooks: { validateCreate: validateCreateCoercingFields } },
  { name: 'overlongNameAccepted', breaks: 'INPUT-04', description: 'a Name over 64 characters is accepted', hooks: { validateCreate: validateCreateWithoutNameLimit } },
  { name: 'unknownActionCrashes', breaks: 'INPUT-05', description: 'an unknown or missing Action gets a 500', hooks: { selectOperation: selectOperationCrashingOnUnknownAction } },
  { name: 'anyVersionAccepted', breaks: 'INPUT-06', description: 'any Version, or none, is served as 2024-01-01', hooks: { selectOperation: selectOperationIgnoringVersion } },
  { name: 'loneSurrogateCrashes', breaks: 'INPUT-07', description: 'a lone surrogate in a create field gets a 500', hooks: { validateCreate: validateCreateCrashingOnLoneSurrogates } },
  { name: 'rateLimitWithoutRetryAfter', breaks: 'INPUT-08', description: 'the first create of each token gets 429 without a Retry-After header', hooks: { limitCreate: limitFirstCreateWithoutRetryAfter } },
  // near-miss credentials
  { name: 'tokenCaseInsensitive', breaks: 'AUTH-06', description: 'tokens are compared without regard to case', hooks: { authenticate: authenticateNormalising((sent, known) => sent.toLowerCase() === known.toLowerCase()) } },
  { name: 'tokenTruncationAccepted', breaks: 'AUTH-06', description: 'a token missing its last characters is accepted (prefix comparison)', hooks: { authenticate: authenticateNormalising((sent, known) => sent.length >= 8 && known.startsWith(sent)) } },
  { name: 'tokenExtensionAccepted', breaks: 'AUTH-06', description: 'a token with characters appended is accepted (only the issued length is compared)', hooks: { authenticate: authenticateNormalising((sent, known) => sent.startsWith(known)) } },
  { name: 'tokenSuffixAccepted', breaks: 'AUTH-06', description: 'any value ending in a valid token is accepted, another user\'s token with one appended included', hooks: { authenticate: authenticateNormalising((sent, known) => sent.endsWith(known)) } },
  { name: 'tokenWhitespaceStripped', breaks: 'AUTH-06', description: 'whitespace inside the token is removed before the lookup', hooks: { authenticate: authenticateNormalising((sent, known) => sent.replace(/\s+/g, '') === known) } },
  { name: 'tokenFirstWordOnly', breaks: 'AUTH-06', description: 'only the first word after Bearer is read as the token', hooks: { authenticate: authenticateNormalising((sent, known) => sent.split(' ')[0] === known && sent.includes(' ')) } },
  { name: 'emptyListBodyUnauthenticated', breaks: 'AUTH-05', description: 'a list with body {} is refused 401 as anonymous, though the token is valid', hooks: { validateList: validateListTreatingEmptyAsAnonymous } },
  // every filter x every scope boundary
  { name: 'spaceFilterIgnoresUser', breaks: 'SCOPE-04', description: 'a list filtered by AssetSpaceId skips the user rule (the channel rule still holds)', hooks: { listGroups: listUnscopedWhen((q) => q.filter.assetSpaceId !== undefined, { userOnly: true }) } },
  { name: 'typeAndIdsIgnoreUser', breaks: 'SCOPE-04', description: 'a list filtered by GroupType and Ids together skips the user rule (the channel rule still holds)', hooks: { listGroups: listUnscopedWhen((q) => q.filter.groupType !== undefined && (q.filter.groupIds?.length ?? 0) > 0, { userOnly: true }) } },
  { name: 'totalCountUnscoped', breaks: 'SCOPE-02', description: 'TotalCount counts every user\'s matches while Items are scoped', hooks: { listGroups: listCountingBeyondScope(() => true) } },
  { name: 'laterPagesUnscoped', breaks: 'SCOPE-02', description: 'pages after the first skip the user and channel rules', hooks: { listGroups: listUnscopedWhen((q) => q.pageNumber > 1) } },
  { name: 'nameFilterIgnoresChannel', breaks: 'CHAN-04', description: 'a list filtered by Name skips the channel rule', hooks: { listGroups: listUnscopedWhen((q) => q.filter.name !== undefined, { channelOnly: true }) } },
  { name: 'spaceFilterIgnoresChannel', breaks: 'CHAN-04', description: 'a list filtered by AssetSpaceId skips the channel rule', hooks: { listGroups: listUnscopedWhen((q) => q.filter.assetSpaceId !== undefined, { channelOnly: true }) } },
  { name: 'totalCountIgnoresChannel', breaks: 'CHAN-04', description: 'TotalCount counts the user\'s matches of every channel while Items keep to the token\'s channel', hooks: { listGroups: listCountingBeyondScope((g, p) => g.ownerUserId === p.userId) } },
  // values at the bounds
  { name: 'longNameTruncated', breaks: 'CREATE-05', description: 'Names are stored cut to 60 characters', hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'Name' ? [...value].slice(0, 60).join('') : value)) } },
  { name: 'utf16LengthLimit', breaks: 'CREATE-05', description: 'length bounds count UTF-16 code units, so text outside the BMP is refused before its bound', hooks: { validateCreate: validateCreateCountingUtf16 } },
  { name: 'astralCharsReplaced', breaks: 'CREATE-05', description: 'characters outside the BMP are stored as U+FFFD', hooks: { validateCreate: validateCreateStoring((_field, value) => value.replace(/[\u{10000}-\u{10FFFF}]/gu, '\ufffd')) } },
  { name: 'emptyTitleDefaulted', breaks: 'CREATE-05', description: 'an empty Title is stored as "Untitled"', hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'Title' && value === '' ? 'Untitled' : value)) } },
  // more for the list
  { name: 'nameFilterLikeWildcards', breaks: 'LIST-05', description: 'the Name filter is a LIKE pattern: % and _ are wildcards', hooks: { matchesFilter: matchesNameAsLikePattern } },
  { name: 'pagesSkipOne', breaks: 'PAGE-05', description: 'pages after the first start one item late, so one group per boundary is never shown', hooks: { listGroups: listGroupsSkippingOne } },
  { name: 'filteredNoMatchIs404', breaks: 'LIST-06', description: 'a filtered list that matches nothing answers 404 "no asset groups found"', hooks: { authorizeList: listGroupsAnswering404WhenNothingMatches } },
  { name: 'projectNameIgnored', breaks: 'CREATE-02', description: 'the ProjectName sent is ignored and every group is stored under "default"', hooks: { validateCreate: validateCreateStoring((field, value) => (field === 'ProjectName' ? 'default' : value)) } },
  { name: 'singleItemNotInArray', breaks: 'SCHEMA-02', description: 'a page of one item carries that item as Items instead of an array of one', hooks: { listGroups: listGroupsUnwrappingSingletons } },
  { name: 'snapshotFrozenAtFirstRead', breaks: 'VIS-01', description: 'the list snapshot is taken at the first read and never refreshed', hooks: { listGroups: listGroupsFromFrozenSnapshot } },
  { name: 'createReturnsWholeGroup', breaks: 'SCHEMA-01', description: 'a create answers the whole new group as its Result, not the Id alone', hooks: { successBody: successBodyWithWholeGroupOnCreate } },
  { name: 'errorKindOmittedOn400', breaks: 'ERR-01', description: '400 answers carry a Message but no Code', hooks: { errorBody: errorBodyWithoutKindOn400 } },
];

export function findMutant(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name);
}
