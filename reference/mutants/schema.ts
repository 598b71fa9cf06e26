/** SCHEMA: the shapes of Result, list items and timestamps. */
import { defaultHooks, type ListItem, type ListResult } from '../behaviour';
import { family, isObject, nameSearchResult, perServer } from './helpers';

const idSequence = perServer(() => ({ next: 100_001 }));

/** A UTC time written in +01:00, as a server in Paris in winter writes it. */
const inParis = (utc: string): string => new Date(Date.parse(utc) + 3_600_000).toISOString().replace('Z', '+01:00');

export const SCHEMA = family({
  /** Groups created through an unbound token have no asset space: AssetSpaceId null in list items. */
  nullAssetSpace: {
    breaks: 'SCHEMA-02',
    description: 'groups created through an unbound token list AssetSpaceId null',
    hooks: {
      toListItem: (group) => {
        const item = defaultHooks.toListItem(group);
        return group.channel === null ? { ...item, AssetSpaceId: null as unknown as string } : item;
      },
    },
  },
  /**
   * Jackson's default (SerializationFeature.WRITE_DATES_AS_TIMESTAMPS): a java.util.Date is written as epoch
   * milliseconds, a JSON number. An Express server built blind from the spec, changed to do this, failed SCHEMA-03 beside
   * SCHEMA-02: a timestamp that is no string is the contract's type, SCHEMA-02's alone.
   */
  epochMillisTimestamps: {
    breaks: 'SCHEMA-02',
    description: 'CreateTime and UpdateTime are written as epoch milliseconds (JSON numbers)',
    hooks: {
      toListItem: (group) => {
        const item = defaultHooks.toListItem(group);
        return { ...item, CreateTime: Date.parse(item.CreateTime) as unknown as string, UpdateTime: Date.parse(item.UpdateTime) as unknown as string };
      },
    },
  },
  /** Timestamps in the server's local zone, UTC+08:00. */
  localTimeTimestamps: {
    breaks: 'SCHEMA-03',
    description: 'timestamps are written in local time, +08:00',
    hooks: { timestamp: () => new Date(Date.now() + 8 * 3600_000).toISOString().replace('Z', '+08:00') },
  },
  /** UpdateTime is written from a clock one second behind the one CreateTime comes from. */
  updateBeforeCreate: {
    breaks: 'SCHEMA-04',
    description: 'UpdateTime is one second before CreateTime',
    hooks: {
      createGroup: (principal, input, ctx) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        group.UpdateTime = new Date(Date.parse(group.CreateTime) - 1000).toISOString();
        return group;
      },
    },
  },
  /** A page of one item carries the item itself as Items, not an array of one (a serializer that unwraps singletons). */
  singleItemNotInArray: {
    breaks: 'SCHEMA-02',
    description: 'a page of one item carries that item as Items instead of an array of one',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return result.Items.length === 1 ? { ...result, Items: result.Items[0] as unknown as ListResult['Items'] } : result;
      },
    },
  },
  /** The create answers the whole new group as its Result, not the Id alone. */
  createReturnsWholeGroup: {
    breaks: 'SCHEMA-01',
    description: 'a create answers the whole new group as its Result, not the Id alone',
    hooks: {
      successBody: (meta, result, ctx) => {
        const id = isObject(result) && Object.keys(result).length === 1 ? result.Id : undefined;
        const group = typeof id === 'string' ? ctx.store.all().find((g) => g.Id === id) : undefined;
        return defaultHooks.successBody(meta, group ? ctx.hooks.toListItem(group) : result, ctx);
      },
    },
  },
  /** Go's encoding/json writes a nil slice as null; the page's slice is only allocated when a row is appended. */
  goNilItems: {
    breaks: 'SCHEMA-02',
    description: 'an empty page carries Items null instead of []',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return result.Items.length === 0 ? { ...result, Items: null as unknown as ListResult['Items'] } : result;
      },
    },
  },
  /** A COUNT(*) read as a string (a bigint through a driver that returns strings, e.g. node-postgres) and passed on. */
  totalCountAsString: {
    breaks: 'SCHEMA-02',
    description: 'TotalCount is a JSON string ("12") instead of an integer',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const result = defaultHooks.listGroups(principal, query, ctx);
        return { ...result, TotalCount: String(result.TotalCount) as unknown as number };
      },
    },
  },
  /**
   * Ids from a BIGINT sequence: the create handler formats the Id as a string, the list view
   * serialises the column as it is, a JSON number.
   */
  idsAsIntegersInList: {
    breaks: 'SCHEMA-02',
    description: 'Ids are numeric; create answers them as strings, list items carry them as JSON numbers',
    hooks: {
      createGroup: (principal, input, ctx) => {
        const sequence = idSequence(ctx);
        return defaultHooks.createGroup(principal, input, { ...ctx, hooks: { ...ctx.hooks, newGroupId: () => String(sequence.next++) } });
      },
      toListItem: (group) => {
        const item = defaultHooks.toListItem(group);
        return /^\d+$/.test(item.Id) ? { ...item, Id: Number(item.Id) as unknown as string } : item;
      },
    },
  },
  /** A naive datetime.now() on a server set to UTC+8, with 'Z' appended: the label says UTC, the clock does not. */
  localTimeLabelledZ: {
    breaks: 'SCHEMA-03',
    description: 'timestamps are the local time of UTC+8 labelled Z (8 hours in the future)',
    hooks: { timestamp: () => new Date(Date.now() + 8 * 3600_000).toISOString() },
  },
  /** Go's `json:",omitempty"` on every string field: an empty Title or Description is left out of the list item. */
  emptyStringsOmitted: {
    breaks: 'SCHEMA-02',
    description: 'list items leave out string fields that are empty (Title "", Description "") instead of carrying ""',
    hooks: {
      toListItem: (group) => Object.fromEntries(Object.entries(defaultHooks.toListItem(group)).filter(([, value]) => value !== '')) as unknown as ListItem,
    },
  },
  /**
   * Go's `json:",omitempty"` on the Result's counters too: a list with no match leaves TotalCount out. Only empty lists
   * show it: a filter that matches nothing, another user's reads, a page past the end.
   */
  zeroTotalCountOmitted: {
    breaks: 'SCHEMA-02',
    description: 'a list result whose TotalCount is 0 leaves TotalCount out',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const { TotalCount, ...rest } = defaultHooks.listGroups(principal, query, ctx);
        return (TotalCount === 0 ? rest : { ...rest, TotalCount }) as ListResult;
      },
    },
  },
  /** A UTC time written with a zero offset instead of Z (Python's isoformat()), under a profile that says Z. */
  zeroOffsetNotZ: {
    breaks: 'SCHEMA-05',
    description: 'timestamps end in +00:00 where the profile (rfc3339-utc) says Z',
    hooks: { timestamp: () => new Date().toISOString().replace('Z', '+00:00') },
  },
  /**
   * PHP's DATE_ISO8601, date('Y-m-d\TH:i:sO') in UTC: an extended date-time with a basic-format offset,
   * 2026-11-23T16:50:46+0000, which PHP's manual says "is not compatible with ISO-8601" (ISO 8601:2004 §4.3.3 d: one
   * format throughout). Jackson's StdDateFormat wrote the same offset before 2.11.
   */
  phpIso8601Offset: {
    breaks: 'SCHEMA-03',
    description: "timestamps are PHP's DATE_ISO8601: an extended date-time with a basic +0000 offset (2026-11-23T16:50:46+0000)",
    hooks: { timestamp: () => `${new Date().toISOString().slice(0, 19)}+0000` },
  },
  /**
   * The search by name reads a search index that stores times in the server's zone (+01:00): its items are not in UTC.
   * The SCHEMA tests read the run's groups by their Ids: only the run-wide oracle reads a name search's timestamps.
   */
  nameSearchLocalTimes: {
    breaks: 'SCHEMA-03',
    description: 'items of a list filtered by name carry CreateTime and UpdateTime in local time (+01:00)',
    hooks: nameSearchResult((result) => ({
      ...result,
      Items: result.Items.map((item) => ({ ...item, CreateTime: inParis(item.CreateTime), UpdateTime: inParis(item.UpdateTime) })),
    })),
  },
});
