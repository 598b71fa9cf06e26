/** SCHEMA: the shapes of Result, list items and timestamps. */
import { defaultHooks, type ListResult } from '../behaviour';
import { family, isObject } from './helpers';

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
});
