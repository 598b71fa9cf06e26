/** The steps of CreateAssetGroup: validation, the create rate, and the new group's values. */
import { randomUUID } from 'node:crypto';
import { lengthIn } from '../schemas/profile';
import { ApiError, badRequest, describe, own } from './behaviour-base';
import type { CreateInput, HookContext, Principal } from './behaviour-types';
import type { GroupRecord } from './store';

const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'] as const;
const UNIT_WORDS = { 'code-points': 'characters', utf16: 'UTF-16 code units', bytes: 'UTF-8 bytes' } as const;

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
    // The unit is the profile's (code points when it states none).
    const length = lengthIn(value, create.lengthUnit);
    if (length > max) return fail(`${field} must be at most ${max} ${UNIT_WORDS[create.lengthUnit ?? 'code-points']}, got ${length}`);
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
