/**
 * The reference server's behaviour, one named step per rule of the spec or the reference profile.
 *
 * The HTTP layer (server.ts) only sequences these steps. Each step is a field of `ReferenceHooks`,
 * so a mutant (a deliberately broken variant) is `startReferenceServer({ hooks: { oneStep } })`:
 * one small, named change, with everything else still the reference behaviour. Composite steps
 * reach the others through `ctx.hooks`, so overriding a small step also changes the composites
 * that use it.
 */
import { randomUUID } from 'node:crypto';
import type { Profile } from '../schemas/profile';
import type { GroupRecord, GroupStore, TokenBuckets } from './store';

export const SPEC_PATH = '/v1/media_assets/';
export const SPEC_VERSION = '2024-01-01';
export const OPERATIONS = ['CreateAssetGroup', 'ListAssetGroups'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Body limit; the spec shows none, the reference server needs one to never buffer without bound. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A rejection with the status and error kind of the spec's error table. Plain data, not thrown. */
export class ApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

export interface Principal {
  userId: string;
  /** null for a token not bound to a channel. */
  channel: string | null;
  /** The bearer value; used as the rate-limit key, never logged or echoed. */
  token: string;
}

export interface ResponseMetadata {
  RequestId: string;
  Action: string;
  Version: string;
  Service: string;
  Region: string;
}

export interface CreateInput {
  Name: string;
  Title: string;
  Description: string;
  GroupType: string;
  ProjectName: string;
}

export interface ListFilter {
  assetSpaceId?: string;
  groupType?: string;
  /** Absent or empty = no id filter. */
  groupIds?: string[];
  name?: string;
}

export interface ListQuery {
  filter: ListFilter;
  pageNumber: number;
  pageSize: number;
}

export interface ListItem {
  Id: string;
  AssetSpaceId: string;
  Name: string;
  Title: string;
  Description: string;
  GroupType: string;
  ProjectName: string;
  CreateTime: string;
  UpdateTime: string;
}

export interface ListResult {
  Items: ListItem[];
  TotalCount: number;
  PageNumber: number;
  PageSize: number;
}

export interface HookContext {
  profile: Profile;
  store: GroupStore;
  /** null when create-rate limiting is off. */
  rate: TokenBuckets | null;
  tokens: ReadonlyMap<string, Principal>;
  hooks: ReferenceHooks;
}

export interface ReferenceHooks {
  /** Path, then method: 404 for any path but the spec's, 405 for any method but POST. */
  route(method: string, path: string): ApiError | null;
  /** Action and Version from the query; null = parameter absent. */
  selectOperation(action: string | null, version: string | null): Operation | ApiError;
  authenticate(authorization: string | undefined, ctx: HookContext): Principal | ApiError;
  maxBodyBytes(op: Operation): number;
  /** Decodes and parses the body; anything but a JSON object is a 400 of the operation's kind. */
  parseBody(raw: Buffer, op: Operation): Record<string, unknown> | ApiError;
  validateCreate(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError;
  /** Runs after validation: the limit is on the "upstream", which only valid creates reach. */
  limitCreate(principal: Principal, ctx: HookContext): ApiError | null;
  assetSpaceFor(principal: Principal): string;
  newGroupId(): string;
  newRequestId(): string;
  timestamp(): string;
  createGroup(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord;
  validateList(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError;
  /** May refuse a valid list query for this caller (a variant's 403 for foreign filter values); the reference refuses none. */
  authorizeList(principal: Principal, query: ListQuery, ctx: HookContext): ApiError | null;
  /** The spec's list rules 1 and 3: the caller's user only, and a bound token's channel only. */
  visibleTo(group: GroupRecord, principal: Principal): boolean;
  matchesFilter(group: GroupRecord, filter: ListFilter, ctx: HookContext): boolean;
  /** Reads the lagging snapshot (list rule 2), never the store's latest state. */
  listGroups(principal: Principal, query: ListQuery, ctx: HookContext): ListResult;
  toListItem(group: GroupRecord): ListItem;
  successBody(meta: ResponseMetadata, result: unknown, ctx: HookContext): unknown;
  errorBody(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown;
  /** The wire form of an answer: its Content-Type and body text. */
  encodeResponse(payload: unknown, status: number): EncodedResponse;
}

export interface EncodedResponse {
  contentType: string;
  text: string;
}

/** The 400 kind differs per operation in the spec's error table. */
export function badRequestKind(op: Operation | null): string {
  return op === 'CreateAssetGroup' ? 'AssetError' : 'AssetBadRequest';
}

export function badRequest(op: Operation | null, message: string): ApiError {
  return new ApiError(400, badRequestKind(op), message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: a body such as {"constructor": ...} must not reach Object.prototype. */
function own(body: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, key) ? body[key] : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Unicode code points, not UTF-16 units: an emoji is one character of a name. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function route(method: string, path: string): ApiError | null {
  if (path !== SPEC_PATH) return new ApiError(404, 'AssetBadRequest', `no such path ${JSON.stringify(path.slice(0, 200))}; the only path is ${SPEC_PATH}`);
  if (method !== 'POST') return new ApiError(405, 'AssetBadRequest', `method ${method} not allowed; use POST`, { Allow: 'POST' });
  return null;
}

export function selectOperation(action: string | null, version: string | null): Operation | ApiError {
  const op = OPERATIONS.find((o) => o === action);
  if (!op) {
    const message = action === null ? 'query parameter Action is required' : `unknown Action ${JSON.stringify(action.slice(0, 100))}; expected ${OPERATIONS.join(' or ')}`;
    return badRequest(null, message);
  }
  if (version !== SPEC_VERSION) {
    const message = version === null ? 'query parameter Version is required' : `unsupported Version ${JSON.stringify(version.slice(0, 100))}; expected ${SPEC_VERSION}`;
    return badRequest(op, message);
  }
  return op;
}

export function authenticate(authorization: string | undefined, ctx: HookContext): Principal | ApiError {
  const reject = (message: string) => new ApiError(401, 'TokenAuthError', message);
  if (authorization === undefined) return reject('missing Authorization header');
  // The spec: the word Bearer, one space, the token. Only the scheme's case is forgiven.
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return reject('Authorization must be "Bearer <token>"');
  const token = authorization.slice(7);
  if (token === '') return reject('empty bearer token');
  return ctx.tokens.get(token) ?? reject('invalid token');
}

export function maxBodyBytes(): number {
  return MAX_BODY_BYTES;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseBody(raw: Buffer, op: Operation): Record<string, unknown> | ApiError {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return badRequest(op, 'request body is not valid UTF-8');
  }
  if (text.trim() === '') return badRequest(op, 'request body is empty; expected a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return badRequest(op, 'request body is not valid JSON');
  }
  if (!isObject(value)) return badRequest(op, `request body must be a JSON object, got ${describe(value)}`);
  return value;
}

const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'] as const;

export function validateCreate(body: Record<string, unknown>, ctx: HookContext): CreateInput | ApiError {
  const { create } = ctx.profile;
  const fail = (message: string) => badRequest('CreateAssetGroup', message);
  const given: Partial<Record<(typeof CREATE_FIELDS)[number], string>> = {};
  for (const field of CREATE_FIELDS) {
    const value = own(body, field);
    if (value === undefined) continue;
    if (typeof value !== 'string') return fail(`${field} must be a string, got ${describe(value)}`);
    given[field] = value;
  }
  for (const field of create.requiredFields) {
    const value = (given as Record<string, string | undefined>)[field];
    if (value === undefined) return fail(`${field} is required`);
    if (value === '') return fail(`${field} must not be empty`);
  }
  for (const [field, max] of Object.entries(create.maxLength)) {
    const value = (given as Record<string, string | undefined>)[field];
    if (value === undefined) continue;
    const length = codePointLength(value);
    if (length > max) return fail(`${field} must be at most ${max} characters, got ${length}`);
  }
  const groupType = given.GroupType ?? create.groupTypes[0];
  if (!create.groupTypes.includes(groupType)) {
    return fail(`GroupType must be ${create.groupTypes.join(' or ')}, got ${JSON.stringify(groupType.slice(0, 100))}`);
  }
  const fallback = (field: (typeof CREATE_FIELDS)[number]) => given[field] ?? create.defaults[field] ?? '';
  return {
    Name: fallback('Name'),
    Title: fallback('Title'),
    Description: fallback('Description'),
    GroupType: groupType,
    ProjectName: fallback('ProjectName'),
  };
}

export function limitCreate(principal: Principal, ctx: HookContext): ApiError | null {
  if (!ctx.rate) return null;
  const decision = ctx.rate.take(principal.token);
  if (decision.allowed) return null;
  return new ApiError(429, 'UpstreamRateLimit', `create rate exceeded; retry after ${decision.retryAfterSeconds} s`, {
    'Retry-After': String(decision.retryAfterSeconds),
  });
}

/** One user's groups span several asset spaces: one per channel, one for unbound tokens. */
export function assetSpaceFor(principal: Principal): string {
  return principal.channel === null ? `space-${principal.userId}` : `space-${principal.userId}-${principal.channel}`;
}

export function newGroupId(): string {
  return `agp-${randomUUID().replace(/-/g, '')}`;
}

export function newRequestId(): string {
  return randomUUID();
}

export function timestamp(): string {
  return new Date().toISOString();
}

export function createGroup(principal: Principal, input: CreateInput, ctx: HookContext): GroupRecord {
  const { hooks, store } = ctx;
  const now = hooks.timestamp();
  const group: GroupRecord = {
    Id: hooks.newGroupId(),
    AssetSpaceId: hooks.assetSpaceFor(principal),
    ...input,
    CreateTime: now,
    UpdateTime: now,
    ownerUserId: principal.userId,
    channel: principal.channel,
    createdAt: store.now(),
  };
  store.add(group);
  return group;
}

export function validateList(body: Record<string, unknown>, ctx: HookContext): ListQuery | ApiError {
  const { list } = ctx.profile;
  const fail = (message: string) => badRequest('ListAssetGroups', message);
  const filter: ListFilter = {};
  const rawFilter = own(body, list.filterField);
  if (rawFilter !== undefined) {
    if (!isObject(rawFilter)) return fail(`${list.filterField} must be an object, got ${describe(rawFilter)}`);
    const names = list.filters;
    for (const key of ['assetSpaceId', 'groupType', 'name'] as const) {
      const value = own(rawFilter, names[key]);
      if (value === undefined) continue;
      if (typeof value !== 'string') return fail(`${list.filterField}.${names[key]} must be a string, got ${describe(value)}`);
      filter[key] = value;
    }
    const ids = own(rawFilter, names.groupIds);
    if (ids !== undefined) {
      if (!Array.isArray(ids)) return fail(`${list.filterField}.${names.groupIds} must be an array of strings, got ${describe(ids)}`);
      const bad = ids.findIndex((id) => typeof id !== 'string');
      if (bad >= 0) return fail(`${list.filterField}.${names.groupIds}[${bad}] must be a string, got ${describe(ids[bad])}`);
      filter.groupIds = ids as string[];
    }
  }
  const paging = (spec: { field: string; default: number; minimum: number; maximum?: number }): number | ApiError => {
    const value = own(body, spec.field);
    if (value === undefined) return spec.default;
    const range = spec.maximum === undefined ? `>= ${spec.minimum}` : `between ${spec.minimum} and ${spec.maximum}`;
    const ok = typeof value === 'number' && Number.isInteger(value) && value >= spec.minimum && (spec.maximum === undefined || value <= spec.maximum);
    return ok ? value : fail(`${spec.field} must be an integer ${range}, got ${typeof value === 'number' ? value : describe(value)}`);
  };
  const pageNumber = paging(list.pageNumber);
  if (pageNumber instanceof ApiError) return pageNumber;
  const pageSize = paging(list.pageSize);
  if (pageSize instanceof ApiError) return pageSize;
  return { filter, pageNumber, pageSize };
}

export function authorizeList(): ApiError | null {
  return null;
}

export function visibleTo(group: GroupRecord, principal: Principal): boolean {
  if (group.ownerUserId !== principal.userId) return false;
  return principal.channel === null || group.channel === principal.channel;
}

export function matchesFilter(group: GroupRecord, filter: ListFilter, ctx: HookContext): boolean {
  if (filter.assetSpaceId !== undefined && group.AssetSpaceId !== filter.assetSpaceId) return false;
  if (filter.groupType !== undefined && group.GroupType !== filter.groupType) return false;
  if (filter.groupIds !== undefined && filter.groupIds.length > 0 && !filter.groupIds.includes(group.Id)) return false;
  if (filter.name !== undefined) {
    if (ctx.profile.list.nameMatch === 'exact') return group.Name === filter.name;
    return group.Name.toLowerCase().includes(filter.name.toLowerCase());
  }
  return true;
}

export function listGroups(principal: Principal, query: ListQuery, ctx: HookContext): ListResult {
  const { hooks } = ctx;
  const matches = ctx.store.snapshot().filter((g) => hooks.visibleTo(g, principal) && hooks.matchesFilter(g, query.filter, ctx));
  // Page numbers can be huge integers; slice clamps, so a page past the end is simply empty.
  const offset = (query.pageNumber - 1) * query.pageSize;
  return {
    Items: matches.slice(offset, offset + query.pageSize).map((g) => hooks.toListItem(g)),
    TotalCount: matches.length,
    PageNumber: query.pageNumber,
    PageSize: query.pageSize,
  };
}

export function toListItem(g: GroupRecord): ListItem {
  return {
    Id: g.Id,
    AssetSpaceId: g.AssetSpaceId,
    Name: g.Name,
    Title: g.Title,
    Description: g.Description,
    GroupType: g.GroupType,
    ProjectName: g.ProjectName,
    CreateTime: g.CreateTime,
    UpdateTime: g.UpdateTime,
  };
}

export function successBody(meta: ResponseMetadata, result: unknown): unknown {
  return { ResponseMetadata: meta, Result: result };
}

/** Writes Code and Message where the profile's JSON pointers say; the reference profile: ResponseMetadata.Error. */
export function errorBody(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  const body: Record<string, unknown> = { ResponseMetadata: { ...meta } };
  setPointer(body, ctx.profile.error.codePointer, error.code);
  setPointer(body, ctx.profile.error.messagePointer, error.message);
  return body;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function encodeResponse(payload: unknown): EncodedResponse {
  return { contentType: JSON_CONTENT_TYPE, text: JSON.stringify(payload) };
}

function setPointer(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

export const defaultHooks: ReferenceHooks = {
  route,
  selectOperation,
  authenticate,
  maxBodyBytes,
  parseBody,
  validateCreate,
  limitCreate,
  assetSpaceFor,
  newGroupId,
  newRequestId,
  timestamp,
  createGroup,
  validateList,
  authorizeList,
  visibleTo,
  matchesFilter,
  listGroups,
  toListItem,
  successBody,
  errorBody,
  encodeResponse,
};
