/**
 * What every behaviour step shares: the spec's path, version and operations, the ApiError of its
 * error table, and small readers of a request body. Kept apart from behaviour.ts so the step
 * files import it without importing the hooks table that imports them.
 */
import { isObject, OPERATIONS, SPEC_PATH, SPEC_VERSION, type Operation } from '../schemas/spec';

export { isObject, OPERATIONS, SPEC_PATH, SPEC_VERSION, type Operation };

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

/** The 400 kind differs per operation in the spec's error table. */
export function badRequestKind(op: Operation | null): string {
  return op === 'CreateAssetGroup' ? 'AssetError' : 'AssetBadRequest';
}

export function badRequest(op: Operation | null, message: string): ApiError {
  return new ApiError(400, badRequestKind(op), message);
}

/** A UTF-16 surrogate with no partner: what strict UTF-8 encoders (Python's, PostgreSQL's drivers) cannot write. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Own properties only: a body such as {"constructor": ...} must not reach Object.prototype. */
export function own(body: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, key) ? body[key] : undefined;
}

export function describe(value: unknown): string {
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

/** A group as ListAssetGroups shows it: what the store keeps of each group, and the list answer's item. */
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
