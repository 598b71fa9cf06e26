/** PAGE: PageNumber, PageSize, TotalCount and the page arithmetic. */
import { ApiError, defaultHooks } from '../behaviour';
import type { ListQuery } from '../behaviour';
import { family, listWith, nameSearchResult, perServer } from './helpers';

/** What each list request sent for its paging fields, keyed by its validated query. */
const sentPaging = perServer(() => new WeakMap<ListQuery, { pageNumber?: number; pageSize?: number }>());

/** Marks a read that went to the export path (not enumerable: never on the wire). */
const EXPORTED = Symbol('export path');

export const PAGE = family({
  /** `slice(offset, offset + size + 1)`: one item too many on every full page. */
  pageOneTooMany: {
    breaks: 'PAGE-01',
    description: 'a full page holds PageSize + 1 items',
    hooks: { listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { extra: 1 }) },
  },
  /** PageSize is clamped to 50 and the clamped value echoed. */
  pageSizeClampedTo50: {
    breaks: 'PAGE-02',
    description: 'PageSize is clamped to 50 silently and the clamped value echoed',
    hooks: {
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        return query instanceof ApiError ? query : { ...query, pageSize: Math.min(query.pageSize, 50) };
      },
    },
  },
  /** The default page size is 20 rather than the profile's 10. */
  defaultPageSize20: {
    breaks: 'PAGE-03',
    description: "the default PageSize is 20, not the profile's 10",
    hooks: {
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        const omitted = !Object.prototype.hasOwnProperty.call(body, ctx.profile.list.pageSize.field);
        return query instanceof ApiError || !omitted ? query : { ...query, pageSize: 20 };
      },
    },
  },
  /** TotalCount is the length of the page. */
  totalCountOfPage: {
    breaks: 'PAGE-04',
    description: 'TotalCount counts the items of the page',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return { ...result, TotalCount: result.Items.length };
      },
    },
  },
  /**
   * TotalCount one too many: COUNT(*) over a LEFT JOIN that yields a row of NULLs. An Express server built blind from
   * the spec, changed to do this, failed LIST-02, -03, -04, -06, PAGE-05, SCOPE-02 and CHAN-04, every requirement that
   * reads a count, while PAGE-04, the one deviation, was left blocked.
   */
  totalCountPlusOne: {
    breaks: 'PAGE-04',
    description: 'TotalCount is one more than the groups the query matches',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return { ...result, TotalCount: result.TotalCount + 1 };
      },
    },
  },
  /** Pages after the first start one item early, so neighbouring pages share an item. */
  pagesOverlapByOne: {
    breaks: 'PAGE-05',
    description: 'pages after the first start one item early (off-by-one offset)',
    hooks: { listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { offsetOf: (q) => Math.max(0, (q.pageNumber - 1) * q.pageSize - 1) }) },
  },
  /** A page past the end is answered with the last page instead of an empty one. */
  pastEndShowsLastPage: {
    breaks: 'PAGE-06',
    description: 'a page past the end answers the last page',
    hooks: {
      listGroups: (principal, query, ctx) =>
        listWith(principal, query, ctx, {
          offsetOf: (q, matches) => {
            const offset = (q.pageNumber - 1) * q.pageSize;
            return offset >= matches && matches > 0 ? Math.floor((matches - 1) / q.pageSize) * q.pageSize : offset;
          },
        }),
    },
  },
  /** Invalid paging values silently fall back to the defaults. */
  pagingNotValidated: {
    breaks: 'PAGE-07',
    description: 'numeric PageNumber and PageSize go to the query unchecked: 0, -1 or 1.5 is served as asked, and Result says so (no valid page)',
    hooks: {
      validateList: (body, ctx) => {
        const { pageNumber, pageSize } = ctx.profile.list;
        const lenient = { ...body };
        const raw: { pageNumber?: number; pageSize?: number } = {};
        for (const [key, spec] of [
          ['pageNumber', pageNumber],
          ['pageSize', pageSize],
        ] as const) {
          const value = lenient[spec.field];
          const max = (spec as { maximum?: number }).maximum ?? Infinity;
          if (typeof value === 'number' && !(Number.isInteger(value) && value >= spec.minimum && value <= max)) {
            raw[key] = value;
            delete lenient[spec.field];
          }
        }
        const query = defaultHooks.validateList(lenient, ctx);
        return query instanceof ApiError ? query : { ...query, ...raw };
      },
    },
  },
  /**
   * SQLite's OFFSET: a PageNumber below 1 goes to the query unchecked, and a negative OFFSET reads as 0, so
   * page 0 is the first page again, said as PageNumber 0. Not a target that counts pages from 0: its page 0
   * and page 1 hold the same groups (the run's paging probe must not take it for one).
   */
  negativeOffsetClamped: {
    breaks: 'PAGE-07',
    description:
      'a PageNumber below 1 is not refused; the negative OFFSET reads as 0 (SQLite), so page 0 or -1 serves the first page again and Result says PageNumber 0 or -1',
    hooks: {
      validateList: (body, ctx) => {
        const field = ctx.profile.list.pageNumber.field;
        const value = body[field];
        if (!(typeof value === 'number' && Number.isInteger(value) && value < ctx.profile.list.pageNumber.minimum)) return defaultHooks.validateList(body, ctx);
        const { [field]: _below, ...rest } = body;
        const query = defaultHooks.validateList(rest, ctx);
        return query instanceof ApiError ? query : { ...query, pageNumber: value };
      },
      listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { offsetOf: (q) => Math.max(0, (q.pageNumber - 1) * q.pageSize) }),
    },
  },
  /**
   * Perl's numbers, as a Dancer2 server built blind from the spec read them: a fraction within a few units in the last place
   * of a whole number prints as that number (15 significant digits), so it passes a whole-number check. A PageSize so read
   * is served as that number and says so; a PageNumber so read reaches SQLite's OFFSET as a fraction, which answers 500.
   */
  nearIntegerPaging: {
    breaks: 'PAGE-07',
    description:
      'a PageNumber or PageSize within 1e-9 of a whole number passes as that number (Perl prints 1.0000000000000002 as 1): the PageSize is served as it, the PageNumber answers 500 (a fractional OFFSET)',
    hooks: {
      validateList: (body, ctx) => {
        const { pageNumber, pageSize } = ctx.profile.list;
        const near = (v: unknown): v is number => typeof v === 'number' && !Number.isInteger(v) && Math.abs(v - Math.round(v)) < 1e-9;
        if (near(body[pageNumber.field])) return new ApiError(500, 'AssetError', 'datatype mismatch');
        const size = body[pageSize.field];
        return defaultHooks.validateList(near(size) ? { ...body, [pageSize.field]: Math.round(size) } : body, ctx);
      },
    },
  },
  /** Pages after the first start one item late (off-by-one the other way): one match per page boundary is never shown. */
  pagesSkipOne: {
    breaks: 'PAGE-05',
    description: 'pages after the first start one item late, so one group per boundary is never shown',
    hooks: {
      listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { offsetOf: (q) => (q.pageNumber - 1) * q.pageSize + (q.pageNumber > 1 ? 1 : 0) }),
    },
  },
  /** `slice(offset, offset + size - 1)`: every full page is one item short, and that item is never shown. */
  pagesShortByOne: {
    breaks: 'PAGE-05',
    description: 'a full page holds PageSize - 1 items (the last item of each page is never shown)',
    hooks: { listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { extra: -1 }) },
  },
  /** A 0-based offset formula under 1-based page numbers: page 1 starts where page 2 should. */
  offsetTimesPageSize: {
    breaks: 'PAGE-05',
    description: "the offset is PageNumber * PageSize, so page 1 starts at the second page and the first page's groups are never shown",
    hooks: { listGroups: (principal, query, ctx) => listWith(principal, query, ctx, { offsetOf: (q) => q.pageNumber * q.pageSize }) },
  },
  /**
   * ORDER BY a creation date alone (a DATE column) under LIMIT and OFFSET: a day's groups tie, and the database orders
   * ties as the plan for each LIMIT and OFFSET happens to. PostgreSQL's manual (LIMIT and OFFSET): "you are very likely to
   * get different plans (yielding different row orders) depending on what you give for LIMIT and OFFSET". Modelled as one
   * order of the ties for an even page and the reverse for an odd one: the pages of one query overlap and leave gaps.
   */
  tiesOrderedPerPage: {
    breaks: 'PAGE-05',
    description: 'groups created on the same day are ordered one way for odd pages and the other way for even ones (ORDER BY a DATE column alone)',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const direction = (query.pageNumber - 1) % 2 ? -1 : 1;
        const day = (g: { CreateTime: string }) => g.CreateTime.slice(0, 10);
        return listWith(principal, query, ctx, { order: (a, b) => day(a).localeCompare(day(b)) || (a.Id < b.Id ? -direction : direction) });
      },
    },
  },
  /**
   * The Result echoes the request as decoded into a struct (Go's zero values): omitted paging fields
   * come back as 0, though the page itself was served with the defaults.
   */
  pagingEchoesZeroWhenOmitted: {
    breaks: 'PAGE-03',
    description: "omitted PageNumber and PageSize are echoed as 0 (the request struct's zero values), though the defaults were served",
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        const sent = sentPaging(ctx).get(query);
        return sent ? { ...result, PageNumber: sent.pageNumber ?? 0, PageSize: sent.pageSize ?? 0 } : result;
      },
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        if (query instanceof ApiError) return query;
        const { pageNumber, pageSize } = ctx.profile.list;
        const given = (field: string) => (typeof body[field] === 'number' ? (body[field] as number) : undefined);
        sentPaging(ctx).set(query, { pageNumber: given(pageNumber.field), pageSize: given(pageSize.field) });
        return query;
      },
    },
  },
  /**
   * The count query of a name search is built apart from the page's and loses the LIKE's parameter: it counts nothing,
   * while the page lists the matches. Only answers of a name search show it.
   */
  nameSearchCountsNothing: {
    breaks: 'PAGE-04',
    description: 'a list filtered by name answers TotalCount 0 beside the items it lists',
    hooks: nameSearchResult((result) => ({ ...result, TotalCount: 0 })),
  },
  /**
   * With a GroupType filter and several Ids (one Id is a primary-key lookup) the handler takes the type's indexed query,
   * LIMIT and COUNT(*) alike, and applies the Id filter to the page's rows afterwards, in code: the count is every group of
   * the type. The PAGE tests count queries by Ids alone or the user's whole list: only the run-wide oracle compares such a
   * read's count with the Ids it asked.
   */
  typeQueryCountsBeforeIds: {
    breaks: 'PAGE-04',
    description: 'a list by GroupType and several Ids answers TotalCount as the number of all the groups of that type',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        const { groupIds, ...rest } = query.filter;
        if (!groupIds || groupIds.length < 2 || query.filter.groupType === undefined) return result;
        return { ...result, TotalCount: defaultHooks.listGroups(principal, { ...query, filter: rest }, ctx).TotalCount };
      },
    },
  },
  /**
   * A read of the largest page without a page number goes to the export path, which writes the page size of its own cursor
   * (1) in Result.PageSize while it lists every match. The PAGE tests ask pages by their number (or no paging at all): only
   * the run-wide oracle compares such a read's items with the PageSize it states.
   */
  exportPathStatesPageSizeOne: {
    breaks: 'PAGE-01',
    description: "a list asked with the profile's largest PageSize and no PageNumber says Result.PageSize 1, and lists every match",
    hooks: {
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        const { pageNumber, pageSize } = ctx.profile.list;
        const exported = !(query instanceof ApiError) && body[pageNumber.field] === undefined && body[pageSize.field] === pageSize.maximum;
        return exported ? Object.defineProperty({ ...query }, EXPORTED, { value: true }) : query;
      },
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return EXPORTED in query ? { ...result, PageSize: 1 } : result;
      },
    },
  },
});
