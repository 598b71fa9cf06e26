/**
 * Profile variants of the list request (the profile's list.* settings): what its fields are called
 * and where the filters sit, how the Name filter matches, and the paging. With them, the hooks of
 * list choices the profile cannot express: refusing unknown fields, and an Id filter of one Id
 * served under the reference profile (ONE_ID_FILTER).
 */
import { ApiError, badRequest, defaultHooks, type HookContext, type ReferenceHooks } from '../behaviour';
import { isObject } from '../../schemas/spec';
import { CONDITIONS_NOT_SHOWN, FILTER_BY_NAME, LIMITS_NOT_SHOWN, NAMES_NOT_SHOWN, PAGINATION_IMPLIED, type ProfileVariant } from './helpers';

/** The profile of a server whose Id filter, a list of strings, has another name in the Filter object. */
function idFilterNamed(name: string, field: string): ProfileVariant['profile'] {
  return {
    name,
    list: { filters: { groupIds: field } },
    $defs: { ProfileListRequest: listRequest({ ids: field, description: `Variant ${name}: the Id filter is Filter.${field}.` }) },
  };
}

/** ProfileListRequest with these names and bounds; the reference values where not given. */
function listRequest(o: {
  ids?: string;
  name?: string;
  type?: string;
  space?: string;
  pageNumber?: string;
  pageSize?: string;
  sizeDefault?: number;
  sizeMax?: number;
  /** The first page's number, and the default: 1 unless stated. */
  firstPage?: number;
  /** '' puts the filters at the top level. */
  wrapper?: string;
  /** The Id filter takes one Id as a string (list.idFilterTakes: one). */
  oneId?: boolean;
  description: string;
}): Record<string, unknown> {
  const filters = {
    [o.space ?? 'AssetSpaceId']: { type: 'string' },
    [o.type ?? 'GroupType']: { type: 'string' },
    [o.ids ?? 'GroupIds']: o.oneId ? { type: 'string' } : { type: 'array', items: { type: 'string' } },
    [o.name ?? 'Name']: { type: 'string' },
  };
  return {
    description: o.description,
    type: 'object',
    properties: {
      ...(o.wrapper === '' ? filters : { [o.wrapper ?? 'Filter']: { type: 'object', properties: filters } }),
      [o.pageNumber ?? 'PageNumber']: { type: 'integer', minimum: o.firstPage ?? 1, default: o.firstPage ?? 1 },
      [o.pageSize ?? 'PageSize']: { type: 'integer', minimum: 1, maximum: o.sizeMax ?? 100, default: o.sizeDefault ?? 10 },
    },
  };
}

/**
 * A server that refuses list fields it does not know, with 400 AssetBadRequest, instead of
 * ignoring them ("Conditions that trigger each status: not shown."). The profile cannot say this;
 * it matters to discovery, which must read a 400 for a guessed name as "not this name".
 */
function refuseUnknownListFields(body: Record<string, unknown>, ctx: HookContext): ReturnType<ReferenceHooks['validateList']> {
  const { list } = ctx.profile;
  const known = [...(list.filterField === '' ? Object.values(list.filters) : [list.filterField]), list.pageNumber.field, list.pageSize.field];
  const unknown = Object.keys(body).find((key) => !known.includes(key));
  if (unknown !== undefined) return badRequest('ListAssetGroups', `unknown field ${JSON.stringify(unknown.slice(0, 100))}; known fields: ${known.join(', ')}`);
  const filter = list.filterField === '' ? undefined : body[list.filterField];
  if (isObject(filter)) {
    const names = Object.values(list.filters);
    const unknownFilter = Object.keys(filter).find((key) => !names.includes(key));
    if (unknownFilter !== undefined)
      return badRequest('ListAssetGroups', `unknown filter ${JSON.stringify(unknownFilter.slice(0, 100))}; known filters: ${names.join(', ')}`);
  }
  return defaultHooks.validateList(body, ctx);
}

/**
 * A server whose Id filter takes one logical ID as a string, `"Filter": {"Id": "..."}`, as three of
 * four servers built blind from the spec did (Flask, gin and Fastify binding a string field): the
 * spec says the list filters "by logical ID", not whether by one Id or several. GroupIds is a field
 * it does not know, and ignores. Served under the reference profile otherwise, so that
 * tests/matrices/profile-mismatch.test.ts and tests/matrices/discover.test.ts find the Id filter at the profile's own
 * place (the oneIdFilter variant serves it at the top level, through list.idFilterTakes: one).
 */
export const ONE_ID_FILTER: Partial<ReferenceHooks> = {
  validateList(body, ctx) {
    // Where the profile keeps its filters: a Filter object, or the top level of the body.
    const wrapper = ctx.profile.list.filterField;
    const filter = wrapper === '' ? body : isObject(body[wrapper]) ? (body[wrapper] as Record<string, unknown>) : undefined;
    const id = filter?.Id;
    if (id !== undefined && id !== null && typeof id !== 'string') return badRequest('ListAssetGroups', 'Id must be a string');
    const rest = filter ? Object.fromEntries(Object.entries(filter).filter(([key]) => key !== 'Id' && key !== ctx.profile.list.filters.groupIds)) : undefined;
    const query = defaultHooks.validateList(rest === undefined ? body : wrapper === '' ? rest : { ...body, [wrapper]: rest }, ctx);
    if (query instanceof ApiError || typeof id !== 'string' || id === '') return query;
    return { ...query, filter: { ...query.filter, groupIds: [id] } };
  },
};

/** What the list request's fields are called, and where the filters sit. */
export const FIELD_NAMES: readonly ProfileVariant[] = [
  {
    name: 'pageNoLimit',
    description: 'Paging fields named PageNo and Limit instead of PageNumber and PageSize.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'pageNoLimit',
      list: { pageNumber: { field: 'PageNo' }, pageSize: { field: 'Limit' } },
      $defs: {
        ProfileListRequest: listRequest({ pageNumber: 'PageNo', pageSize: 'Limit', description: 'Variant pageNoLimit: paging fields PageNo and Limit.' }),
      },
    },
    advises: 'set list.pageSize.field: Limit and list.pageNumber.field: PageNo',
  },
  {
    name: 'pageIndexOnly',
    description: 'The page number named PageIndex (as ASP.NET samples name it); the page size is PageSize.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'pageIndexOnly',
      list: { pageNumber: { field: 'PageIndex' } },
      $defs: { ProfileListRequest: listRequest({ pageNumber: 'PageIndex', description: 'Variant pageIndexOnly: page number PageIndex.' }) },
    },
    advises: 'set list.pageNumber.field: PageIndex',
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
    advises: 'or list.pageSize.field and list.pageNumber.field',
    hooks: { validateList: refuseUnknownListFields },
  },
  {
    name: 'jacksonStrictIds',
    description:
      "The Id filter named Ids, and any list field the server does not know refused with 400: Jackson's default FAIL_ON_UNKNOWN_PROPERTIES binding the body into a class, as a Jetty + Jackson server built blind from the spec did.",
    allows: NAMES_NOT_SHOWN,
    profile: idFilterNamed('jacksonStrictIds', 'Ids'),
    hooks: { validateList: refuseUnknownListFields },
  },
  {
    name: 'oneIdFilter',
    description:
      'The Id filter takes one logical ID as a string ("Id": "<group_id>"), with every filter at the top level of the body: what Flask, gin and Fastify servers built blind from the spec did, binding a string field.',
    allows: FILTER_BY_NAME,
    profile: {
      name: 'oneIdFilter',
      list: { filterField: '', filters: { groupIds: 'Id' }, idFilterTakes: 'one' },
      $defs: {
        ProfileListRequest: listRequest({ wrapper: '', ids: 'Id', oneId: true, description: 'Variant oneIdFilter: filters at the top level, Id one string.' }),
      },
    },
    advises: 'list.idFilterTakes: one',
  },
  {
    name: 'groupIdList',
    description: 'The logical-ID filter named GroupIdList instead of GroupIds.',
    allows: NAMES_NOT_SHOWN,
    profile: idFilterNamed('groupIdList', 'GroupIdList'),
  },
  {
    name: 'topLevelFilters',
    description: 'The filters at the top level of the body, beside PageNumber and PageSize, with no Filter object.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'topLevelFilters',
      list: { filterField: '' },
      $defs: { ProfileListRequest: listRequest({ wrapper: '', description: 'Variant topLevelFilters: the filters at the top level of the body.' }) },
    },
  },
  {
    name: 'shortFilterNames',
    description: 'Filters named Id, SpaceId, Type and Keyword instead of GroupIds, AssetSpaceId, GroupType and Name.',
    allows: NAMES_NOT_SHOWN,
    profile: {
      name: 'shortFilterNames',
      list: { filters: { groupIds: 'Id', assetSpaceId: 'SpaceId', groupType: 'Type', name: 'Keyword' } },
      $defs: {
        ProfileListRequest: listRequest({
          ids: 'Id',
          space: 'SpaceId',
          type: 'Type',
          name: 'Keyword',
          description: 'Variant shortFilterNames: filters Filter.Id, Filter.SpaceId, Filter.Type and Filter.Keyword.',
        }),
      },
    },
  },
];

/** The Name filter matching whole Names. */
export const EXACT_NAME: ProfileVariant = {
  name: 'exactName',
  description: 'The Name filter matches the whole Name exactly (case-sensitive), not as a case-insensitive substring.',
  allows: FILTER_BY_NAME,
  profile: { name: 'exactName', list: { nameMatch: 'exact' } },
};

/** Page sizes, page numbers and a page past the end. */
export const PAGING: readonly ProfileVariant[] = [
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
  {
    name: 'pageSizeClamped',
    description:
      "A PageSize above the maximum (100) is served as 100 and Result.PageSize says 100, not refused: Django REST framework's PageNumberPagination cuts the requested size off at max_page_size, and Spring Data's PageableHandlerMethodArgumentResolver at max-page-size (spring.data.web.pageable.max-page-size, 2000 by default).",
    allows: LIMITS_NOT_SHOWN,
    profile: { name: 'pageSizeClamped', list: { pageSize: { aboveMaximum: 'clamp' } } },
  },
  {
    name: 'adjustsPaging',
    description:
      'A PageNumber or PageSize below 1, or a fraction, served as the default page (Result.PageNumber and Result.PageSize say which) instead of refused, as Go and Express handlers often do.',
    allows: LIMITS_NOT_SHOWN,
    profile: { name: 'adjustsPaging', list: { invalidPaging: 'adjust' } },
  },
  {
    name: 'fractionsTruncated',
    description:
      "A fractional PageNumber or PageSize read as its whole part (1.5 as 1), while one below 1 is refused with 400: Spring Boot's defaults, Jackson's ACCEPT_FLOAT_AS_INT binding the number to an int and Bean Validation's @Min(1) checking it after.",
    allows: LIMITS_NOT_SHOWN,
    profile: { name: 'fractionsTruncated', list: { fractionalPaging: 'adjust' } },
    advises: 'set list.fractionalPaging: adjust',
  },
  {
    name: 'pastEndLastPage',
    description:
      "A page past the end answers the last page, with that page's own PageNumber (page 1, empty, when nothing matches), as Django's Paginator.get_page() does: it catches EmptyPage and serves num_pages.",
    allows: PAGINATION_IMPLIED,
    profile: { name: 'pastEndLastPage', list: { pageNumber: { pastEnd: 'last' } } },
  },
  {
    name: 'zeroBasedPages',
    description:
      "Pages counted from 0: PageNumber 0 is the first page and the default, as Spring Data's Pageable counts them (PageRequest.of(page, size), spring.data.web.pageable.one-indexed-parameters false by default).",
    allows: '| PageNumber | integer | Page number of this result. |',
    profile: {
      name: 'zeroBasedPages',
      list: { pageNumber: { minimum: 0, default: 0 } },
      $defs: { ProfileListRequest: listRequest({ firstPage: 0, description: 'Variant zeroBasedPages: PageNumber counts from 0.' }) },
    },
    advises: 'list.pageNumber.minimum: 0',
  },
  {
    name: 'pastEndRefused',
    description:
      'A page past the end is refused with 400 AssetBadRequest, as Django\'s Paginator.page() raises EmptyPage ("That page contains no results") and the view answers it as a bad request (page 1 always exists, empty or not).',
    allows: CONDITIONS_NOT_SHOWN,
    profile: { name: 'pastEndRefused', list: { pageNumber: { pastEnd: 'refuse' } } },
  },
  {
    name: 'oneIdWholeNamePastEndRefused',
    description:
      "One Id as a string, Names matched whole, and a page past the end refused: choices that servers built blind from the spec made (Fastify, Sinatra and Mojolicious the first two, Django the third), together. No list then holds the run's groups alone, so a page past the end is found through the user's whole list, by the TotalCount it reports.",
    allows: FILTER_BY_NAME,
    profile: {
      name: 'oneIdWholeNamePastEndRefused',
      list: { filterField: '', filters: { groupIds: 'Id' }, idFilterTakes: 'one', nameMatch: 'exact', pageNumber: { pastEnd: 'refuse' } },
      $defs: {
        ProfileListRequest: listRequest({
          wrapper: '',
          ids: 'Id',
          oneId: true,
          description: 'Variant oneIdWholeNamePastEndRefused: filters at the top level, Id one string.',
        }),
      },
    },
    advises: 'list.idFilterTakes: one',
  },
];

/** The Name filter matching a part of the Name, other than the reference's part. */
export const NAME_MATCHING: readonly ProfileVariant[] = [
  {
    name: 'prefixName',
    description:
      "The Name filter matches the start of the Name, ignoring case: `WHERE name LIKE CONCAT(?, '%')` on MySQL 8, whose default collation utf8mb4_0900_ai_ci compares case-insensitively.",
    allows: FILTER_BY_NAME,
    profile: { name: 'prefixName', list: { nameMatch: 'case-insensitive-prefix' } },
  },
  {
    name: 'caseSensitiveSubstring',
    description:
      "The Name filter matches any part of the Name, respecting case: `WHERE name LIKE '%' || ? || '%'` on PostgreSQL, whose LIKE is case-sensitive (ILIKE is not).",
    allows: FILTER_BY_NAME,
    profile: { name: 'caseSensitiveSubstring', list: { nameMatch: 'substring' } },
  },
];
