/**
 * The reference server's behaviour, one named step per rule of the spec or the reference profile.
 *
 * The HTTP layer (server.ts) only sequences these steps. Each step is a field of `ReferenceHooks`,
 * so a mutant (a deliberately broken variant) is `startReferenceServer({ hooks: { oneStep } })`:
 * one small, named change, with everything else still the reference behaviour. Composite steps
 * reach the others through `ctx.hooks`, so overriding a small step also changes the composites
 * that use it.
 */
import type { ReferenceHooks } from './behaviour-types';
import { authenticate, maxBodyBytes, parseBody, route, selectOperation } from './behaviour-request';
import { assetSpaceFor, createGroup, limitCreate, newGroupId, timestamp, validateCreate } from './behaviour-create';
import { authorizeList, listGroups, matchesFilter, toListItem, validateList, visibleTo } from './behaviour-list';
import { encodeResponse, errorBody, newRequestId, successBody } from './behaviour-response';

export {
  ApiError,
  badRequest,
  badRequestKind,
  codePointLength,
  LONE_SURROGATE,
  MAX_BODY_BYTES,
  OPERATIONS,
  SPEC_PATH,
  SPEC_VERSION,
  type ListItem,
  type Operation,
} from './behaviour-base';
export * from './behaviour-request';
export * from './behaviour-create';
export * from './behaviour-list';
export * from './behaviour-response';

export * from './behaviour-types';

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
