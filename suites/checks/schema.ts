/** SCHEMA: field types and formats of create results and list answers. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { compareAtCoarserPrecision, grainMs, readUtcTimestamp } from '../../schemas/timestamp';
import { fail, items, named, owned, show, type Check, type CheckContext, type Failure, type Step } from './kit';

/** SCHEMA-01: the create's Result carries the Id alone ("It is the only field returned by create."). */
export function resultOnlyId(ex: Exchange): Failure | undefined {
  const result = readPointer(ex.response?.json, '/Result');
  const extra = typeof result === 'object' && result !== null ? Object.keys(result).filter((key) => key !== 'Id') : [];
  if (extra.length)
    return fail(
      resultOnlyId,
      `Result carries ${show(extra)} beside Id`,
      'Assigned by the service. It is the only field returned by create.',
      "return only the new group's Id from CreateAssetGroup",
    );
  return undefined;
}

/**
 * SCHEMA-02's precondition on every list answer the kit reads: a 200 whose Items is not an array, or
 * whose TotalCount, PageNumber or PageSize is not an integer, cannot be judged by any other check.
 * Other statuses are not this check's business.
 */
export function listShape(ex: Exchange): Failure | undefined {
  if (ex.response?.status !== 200 || readPointer(ex.response.json, '/Result') === undefined) return undefined;
  if (!items(ex))
    return fail(
      listShape,
      `Result.Items ${show(readPointer(ex.response.json, '/Result/Items'))}`,
      'Items | array of asset group (an empty page is [])',
      'answer Result.Items as an array, [] when nothing matches (not null)',
    );
  const bad = ['TotalCount', 'PageNumber', 'PageSize'].filter((field) => !Number.isInteger(readPointer(ex.response!.json, `/Result/${field}`)));
  if (bad.length)
    return fail(
      listShape,
      bad.map((field) => `Result.${field} ${show(readPointer(ex.response!.json, `/Result/${field}`))}`).join(', '),
      'TotalCount, PageNumber, PageSize | integer',
      'write the paging fields as JSON integers',
    );
  // Every item carries the asset-group table's nine fields as strings: an omitted empty one (Go's omitempty) or an Id
  // of another JSON type is found here once, not as a changed value by every requirement that reads the item.
  for (const item of items(ex)!) {
    const wrong = typeof item === 'object' && item !== null ? ITEM_FIELDS.filter((field) => typeof item[field] !== 'string') : ['the item itself'];
    if (wrong.length)
      return fail(
        listShape,
        `item ${show(item)}: ${wrong.join(', ')} ${wrong.length > 1 ? 'are' : 'is'} not ${wrong.length > 1 ? 'strings' : 'a string'}`,
        'Items | array of asset group | Fields as in the asset-group table (Id, AssetSpaceId, Name, GroupType, ProjectName, CreateTime, UpdateTime, Title, Description).',
        'write every field of a list item, as a string, empty ones included',
      );
  }
  return undefined;
}

/** The asset-group table's fields; "All fields are strings unless noted." */
const ITEM_FIELDS = ['Id', 'AssetSpaceId', 'Name', 'Title', 'Description', 'GroupType', 'ProjectName', 'CreateTime', 'UpdateTime'];

export const SHAPED: Step = owned('SCHEMA-02', listShape);

/**
 * SCHEMA-03: the spec's own words, "ISO 8601 UTC timestamp": any complete ISO 8601 date-time that denotes UTC, in one
 * format throughout (extended with Z, +00:00 or +00; basic with Z, +0000 or +00; any fraction). The contract's
 * Timestamp (schemas/timestamp.ts says why an extended date-time with +0000, and -00:00, are not).
 */
export function timestampsUtc(ex: Exchange, ctx: CheckContext): Failure | undefined {
  for (const item of items(ex) ?? []) {
    for (const field of ['CreateTime', 'UpdateTime']) {
      // A timestamp that is no string at all (epoch milliseconds) is SCHEMA-02's: the contract types it as a string.
      if (typeof item?.[field] !== 'string') continue;
      const result = ctx.validate('Timestamp', item?.[field]);
      if (!result.valid)
        return fail(
          timestampsUtc,
          `${field} ${show(item?.[field])} of ${show(item?.Id)}: not an ISO 8601 timestamp in UTC`,
          'CreateTime | string, ISO 8601 UTC timestamp <timestamp>',
          'write timestamps in UTC in one ISO 8601 format: 2024-01-01T12:00:00Z or +00:00 (extended), 20240101T120000Z or +0000 (basic)',
        );
    }
  }
  return undefined;
}

/** SCHEMA-05: the profile's narrower timestamp form (reference: RFC 3339 with Z). A warning: the spec allows any UTC form. */
export function timestampsInProfileFormat(ex: Exchange, ctx: CheckContext): Failure | undefined {
  for (const item of items(ex) ?? []) {
    for (const field of ['CreateTime', 'UpdateTime']) {
      if (!ctx.validate('Timestamp', item?.[field]).valid) continue; // not UTC at all: SCHEMA-03's
      if (!ctx.validate('ProfileTimestamp', item?.[field]).valid) {
        return fail(
          timestampsInProfileFormat,
          `${field} ${show(item?.[field])} of ${show(item?.Id)}`,
          `profile "${ctx.profile.name}": timestamps.format ${ctx.profile.timestamps.format}`,
          'write RFC 3339 with Z (2024-01-01T12:00:00Z), or state your format in your profile (timestamps.format: iso8601-utc)',
        );
      }
    }
  }
  return undefined;
}

/** When the kit sent each of its creates and when the answer came, by the kit's clock (epoch ms). */
export interface CreateWindow {
  sentAt: number;
  answeredAt: number;
}

/**
 * SCHEMA-03: a timestamp labelled UTC is UTC. A CreateTime hours away from when the kit's own clock
 * saw the create is local time under a UTC label (a host in UTC+8 writing `Z`); the skew allowed for
 * two clocks is AG_CLOCK_SKEW_MS.
 */
export function timestampsNearClock(windows: Map<string, CreateWindow>, skewMs: number, now: number): Check {
  return named('timestampsNearClock', (ex) => {
    for (const item of items(ex) ?? []) {
      const window = windows.get(item?.Id as string);
      if (!window) continue;
      for (const [field, latest] of [
        ['CreateTime', window.answeredAt],
        ['UpdateTime', now],
      ] as const) {
        // A UTC form at its own precision: 12:00:00Z stands for any instant of that second. Another form Date reads
        // (a local offset) is judged by its instant all the same; what neither reads is timestampsUtc's.
        const utc = readUtcTimestamp(item?.[field]);
        const at = utc?.ms ?? Date.parse(String(item?.[field]));
        if (Number.isNaN(at)) continue;
        const last = at + (utc ? grainMs(utc) : 1) - 1;
        const off = last < window.sentAt - skewMs ? last - window.sentAt : at > latest + skewMs ? at - latest : 0;
        if (off === 0) continue;
        const hours = off / 3_600_000;
        const whole =
          Math.abs(hours - Math.round(hours * 4) / 4) < 0.05 && Math.abs(hours) >= 0.25
            ? ` (${Math.round(hours * 4) / 4} h: local time of UTC${hours > 0 ? '+' : '-'}${Math.abs(Math.round(hours * 4) / 4)} labelled as UTC?)`
            : '';
        return fail(
          'timestampsNearClock',
          `${field} ${show(item?.[field])} of ${show(item?.Id)} is ${Math.round(Math.abs(off) / 1000)} s ${off > 0 ? 'ahead of' : 'behind'} the kit's clock at the create${whole}`,
          'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.',
          `write the time in UTC; the kit allows ${Math.round(skewMs / 1000)} s of clock skew (AG_CLOCK_SKEW_MS)`,
        );
      }
    }
    return undefined;
  });
}

/**
 * SCHEMA-04: UpdateTime not before CreateTime, compared at the precision given: where one has fewer fraction digits,
 * the other is truncated to them (a DATETIME(3) CreateTime 12:00:00.500Z and a DATETIME UpdateTime 12:00:00Z are
 * the same second, not an UpdateTime half a second early).
 */
export function updateNotBeforeCreate(ex: Exchange): Failure | undefined {
  for (const item of items(ex) ?? []) {
    // Timestamps that are no strings are SCHEMA-02's, and what cannot be read as a time SCHEMA-03's.
    if (typeof item?.CreateTime !== 'string' || typeof item?.UpdateTime !== 'string') continue;
    const [created, updated] = [readUtcTimestamp(item.CreateTime), readUtcTimestamp(item.UpdateTime)];
    // Both UTC: compared at the coarser precision. Otherwise (a local offset, SCHEMA-03's failure) by the instants Date reads.
    const before = created && updated ? compareAtCoarserPrecision(updated, created) < 0 : Date.parse(item.UpdateTime) < Date.parse(item.CreateTime);
    if (before)
      return fail(
        updateNotBeforeCreate,
        `CreateTime ${show(item?.CreateTime)}, UpdateTime ${show(item?.UpdateTime)} for ${show(item?.Id)}`,
        'UpdateTime is set by the service at or after CreateTime',
        'set UpdateTime to the creation time on create',
      );
  }
  return undefined;
}

export function validates(component: string): Check {
  return named(`validates(${component})`, (ex, ctx) => {
    const result = ctx.validate(component, ex.response?.json);
    if (!result.valid)
      return fail(
        `validates(${component})`,
        result.errors.slice(0, 10).join('; '),
        `${component} in spec/openapi.yaml`,
        'make the response match the contract',
      );
    return undefined;
  });
}
