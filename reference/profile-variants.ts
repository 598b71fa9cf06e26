/**
 * Profile variants: the reference server serving ONE other legitimate choice each, on a point the
 * spec leaves "not shown" (STYLE 12). A variant is a profile override, merged over
 * spec/profile.yaml exactly as a target's AG_PROFILE file would be, plus, rarely, hooks for a
 * choice the profile cannot express (refusing unknown list fields).
 *
 * They exist to prove two things: that `agc profile discover` finds each choice from the target's
 * answers alone (tests/discover.test.ts), and that the kit, given the discovered profile, rates
 * such a server `conformant`. Serve one with
 *
 *   startReferenceServer({ profile: profileFromOverride(v.profile, v.name), hooks: v.hooks })
 *
 * Each override states its `$defs` in full, written out here rather than derived from the settings,
 * so that a mistake in the kit's consistency check or in the discovery's own $defs builder cannot
 * hide behind the same mistake made here.
 */
import { badRequest, defaultHooks, type HookContext, type ReferenceHooks } from './behaviour';

export interface ProfileVariant {
  /** camelCase, unique. */
  name: string;
  /** The choice, as an implementer would describe it. */
  description: string;
  /** A sentence quoted verbatim from spec/asset-group-interface.md that leaves this point open. */
  allows: string;
  /** An override merged over spec/profile.yaml ($defs included); passes checkProfileConsistency. */
  profile: Record<string, unknown>;
  hooks?: Partial<ReferenceHooks>;
}

const NAMES_NOT_SHOWN = 'Names of the filter fields and of the pagination request fields: not shown.';
const ERROR_SHAPE_NOT_SHOWN = 'Shape of the error body (the ErrorResponse carries ResponseMetadata and an error part): not shown.';
const FILTER_BY_NAME = 'Filters: the body supports filtering by asset space, group type, logical ID and name.';
const LENGTHS_NOT_SHOWN = 'Length bounds, formats and required/optional status of Name, Title, Description, ProjectName: not shown.';
const LIMITS_NOT_SHOWN = 'Limits: not shown (rate limits, page-size bounds, field-length limits).';

const ERROR_KINDS = ['AssetBadRequest', 'AssetError', 'TokenAuthError', 'UpstreamRateLimit'];

/** ProfileListRequest with these names and bounds; the reference values where not given. */
function listRequest(o: { ids?: string; name?: string; pageNumber?: string; pageSize?: string; sizeDefault?: number; sizeMax?: number; description: string }): Record<string, unknown> {
  return {
    description: o.description,
    type: 'object',
    properties: {
      Filter: {
        type: 'object',
        properties: {
          AssetSpaceId: { type: 'string' },
          GroupType: { type: 'string' },
          [o.ids ?? 'GroupIds']: { type: 'array', items: { type: 'string' } },
          [o.name ?? 'Name']: { type: 'string' },
        },
      },
      [o.pageNumber ?? 'PageNumber']: { type: 'integer', minimum: 1, default: 1 },
      [o.pageSize ?? 'PageSize']: { type: 'integer', minimum: 1, maximum: o.sizeMax ?? 100, default: o.sizeDefault ?? 10 },
    },
  };
}

function createConstraints(o: { nameMax: number; descriptionMax: number; description: string }): Record<string, unknown> {
  return {
    description: o.description,
    type: 'object',
    required: ['Name'],
    properties: {
      Name: { type: 'string', minLength: 1, maxLength: o.nameMax },
      Description: { type: 'string', maxLength: o.descriptionMax },
      GroupType: { type: 'string', enum: ['AIGC'] },
      ProjectName: { type: 'string', default: 'default' },
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A server that refuses list fields it does not know, with 400 AssetBadRequest, instead of
 * ignoring them ("Conditions that trigger each status: not shown."). The profile cannot say this;
 * it matters to discovery, which must read a 400 for a guessed name as "not this name".
 */
function refuseUnknownListFields(body: Record<string, unknown>, ctx: HookContext): ReturnType<ReferenceHooks['validateList']> {
  const { list } = ctx.profile;
  const known = [list.filterField, list.pageNumber.field, list.pageSize.field];
  const unknown = Object.keys(body).find((key) => !known.includes(key));
  if (unknown !== undefined) return badRequest('ListAssetGroups', `unknown field ${JSON.stringify(unknown.slice(0, 100))}; known fields: ${known.join(', ')}`);
  const filter = body[list.filterField];
  if (isObject(filter)) {
    const names = Object.values(list.filters);
    const unknownFilter = Object.keys(filter).find((key) => !names.includes(key));
    if (unknownFilter !== undefined) return badRequest('ListAssetGroups', `unknown filter ${JSON.stringify(unknownFilter.slice(0, 100))}; known filters: ${names.join(', ')}`);
  }
  return defaultHooks.validateList(body, ctx);
}

export const PROFILE_VARIANTS: readonly ProfileVariant[] = [
  {
    name: 'pageNoLimit',
    description: 'Paging fields named PageNo and Limit instead of PageNumber and PageSize.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'pageNoLimit',
      list: { pageNumber: { field: 'PageNo' }, pageSize: { field: 'Limit' } },
      $defs: { ProfileListRequest: listRequest({ pageNumber: 'PageNo', pageSize: 'Limit', description: 'Variant pageNoLimit: paging fields PageNo and Limit.' }) },
    },
  },
  {
    name: 'pageSizeStrict',
    description: 'Paging fields named Page and Size, and any list field the server does not know refused with 400 AssetBadRequest rather than ignored.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'pageSizeStrict',
      list: { pageNumber: { field: 'Page' }, pageSize: { field: 'Size' } },
      $defs: { ProfileListRequest: listRequest({ pageNumber: 'Page', pageSize: 'Size', description: 'Variant pageSizeStrict: paging fields Page and Size.' }) },
    },
    hooks: { validateList: refuseUnknownListFields },
  },
  {
    name: 'groupIdList',
    description: 'The logical-ID filter named GroupIdList instead of GroupIds.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'groupIdList',
      list: { filters: { groupIds: 'GroupIdList' } },
      $defs: { ProfileListRequest: listRequest({ ids: 'GroupIdList', description: 'Variant groupIdList: the Id filter is Filter.GroupIdList.' }) },
    },
  },
  {
    name: 'topLevelError',
    description: 'The error part at the top level of the body, Error = { Code, Message }, beside ResponseMetadata.',
    allows: ERROR_SHAPE_NOT_SHOWN,
    profile: {
      name: 'topLevelError',
      error: { codePointer: '/Error/Code', messagePointer: '/Error/Message' },
      $defs: {
        ProfileErrorDetail: {
          description: 'Variant topLevelError: the error part is a top-level Error = { Code, Message }; no Result.',
          type: 'object',
          required: ['Error'],
          properties: {
            Error: {
              type: 'object',
              required: ['Code', 'Message'],
              properties: { Code: { type: 'string', enum: ERROR_KINDS }, Message: { type: 'string' } },
            },
            Result: false,
          },
        },
      },
    },
  },
  {
    name: 'exactName',
    description: 'The Name filter matches the whole Name exactly (case-sensitive), not as a case-insensitive substring.',
    allows: FILTER_BY_NAME,
    profile: { name: 'exactName', list: { nameMatch: 'exact' } },
  },
  {
    name: 'longerFields',
    description: 'Name up to 128 characters and Description up to 1000, instead of 64 and 300.',
    allows: LENGTHS_NOT_SHOWN,
    profile: {
      name: 'longerFields',
      create: { maxLength: { Name: 128, Description: 1000 } },
      $defs: { ProfileCreateConstraints: createConstraints({ nameMax: 128, descriptionMax: 1000, description: 'Variant longerFields: Name 1-128 characters, Description at most 1000.' }) },
    },
  },
  {
    name: 'shorterFields',
    description: 'Name up to 56 characters and Description up to 200, instead of 64 and 300.',
    allows: LENGTHS_NOT_SHOWN,
    profile: {
      name: 'shorterFields',
      create: { maxLength: { Name: 56, Description: 200 } },
      $defs: { ProfileCreateConstraints: createConstraints({ nameMax: 56, descriptionMax: 200, description: 'Variant shorterFields: Name 1-56 characters, Description at most 200.' }) },
    },
  },
  {
    name: 'smallPages',
    description: 'At most 20 groups per page (larger pages refused with 400), and 5 per page when no page size is given.',
    allows: LIMITS_NOT_SHOWN,
    profile: {
      name: 'smallPages',
      list: { pageSize: { default: 5, maximum: 20 } },
      $defs: { ProfileListRequest: listRequest({ sizeDefault: 5, sizeMax: 20, description: 'Variant smallPages: PageSize 1-20, default 5.' }) },
    },
  },
];

export function findProfileVariant(name: string): ProfileVariant | undefined {
  return PROFILE_VARIANTS.find((v) => v.name === name);
}
