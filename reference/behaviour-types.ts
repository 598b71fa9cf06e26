/**
 * The types of the reference server's behaviour steps (what `ReferenceHooks` holds and what its steps
 * take and give), apart from behaviour.ts so that the step files import them without importing the
 * hooks table that imports the steps.
 */
import type { Profile } from '../schemas/profile';
import type { ApiError, ListItem, Operation } from './behaviour-base';
import type { GroupRecord, GroupStore, TokenBuckets } from './store';

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

/** What a create takes: the fields of the list item the caller gives. */
export type CreateInput = Pick<ListItem, 'Name' | 'Title' | 'Description' | 'GroupType' | 'ProjectName'>;

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
  /**
   * `headers` (all of the request's, optional) lets a mutant authenticate by something else than the Authorization header: a cookie, the
   * User-Agent; `connection` (the request's socket) lets a variant keep state per connection, as an HTTP server's parser can.
   */
  authenticate(
    authorization: string | undefined,
    ctx: HookContext,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
    connection?: object,
  ): Principal | ApiError;
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

/** A legitimate choice the spec leaves open: the reference server with these steps changed. */
export interface Variant {
  /** camelCase, unique; the value of --variant. */
  name: string;
  /** The choice it makes, as its implementer would describe it. */
  description: string;
  /** The spec's own sentence that leaves this choice open, verbatim. */
  allows: string;
  /**
   * SHOULDs its run must pass, not merely fail as a warning: where the choice is what that SHOULD's check could
   * mistake for a deviation (tests/matrices/variants.test.ts).
   */
  passes?: readonly string[];
  hooks: Partial<ReferenceHooks>;
}
