/** SCHEMA's checks, judged on recorded exchanges (cases of tests/checks/schema.test.ts). */
import * as SCHEMA from '../../../suites/checks/schema';
import type { Case } from '../case';
import { clockOf, createdId, recorded, ref, withJson } from '../exchanges';

const CREATES = ['create', 'create2', 'create3'];
/** When the kit's clock saw each of a session's three creates, by the created group's Id, and when it read the list. */
const windowsOf = (session: string) => new Map(CREATES.map((key) => [createdId(recorded(session, key)), clockOf(session, key)]));
const nearClock = (session: string) => SCHEMA.timestampsNearClock(windowsOf(session), 2_000, clockOf(session, 'byIds').answeredAt);

type Item = { CreateTime: string; UpdateTime: string };
/** The reference's list with each item's timestamps rewritten from the recorded ones. */
const timestamps = (edit: (item: Item) => void) => withJson(ref('byIds'), (json) => (json.Result.Items as Item[]).forEach(edit));
/** 2026-11-23T16:50:46.315Z written in the basic format, 20261123T165046.315Z. */
const basic = (iso: string) => iso.replace(/[-:]/g, '');
/** A recorded time in whole seconds (a DATETIME column), and one `ms` later than it, in milliseconds. */
const wholeSecond = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');
const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

export const CASES: Case[] = [
  { check: 'resultOnlyId', title: 'the Id alone', judge: SCHEMA.resultOnlyId, exchange: ref('create'), fails: false },
  {
    check: 'resultOnlyId',
    title: 'the whole group',
    judge: SCHEMA.resultOnlyId,
    exchange: recorded('createReturnsWholeGroup', 'create'),
    fails: true,
    expect: 'Result carries ["AssetSpaceId"',
  },

  { check: 'listShape', title: 'a list page', judge: SCHEMA.listShape, exchange: ref('byIds'), fails: false },
  { check: 'listShape', title: 'an error is not a list', judge: SCHEMA.listShape, exchange: ref('pageSize0'), fails: false },
  {
    check: 'listShape',
    title: 'Items null',
    judge: SCHEMA.listShape,
    exchange: recorded('goNilItems', 'noSuchSpace'),
    fails: true,
    expect: 'Result.Items null',
  },
  {
    check: 'listShape',
    title: 'TotalCount a string',
    judge: SCHEMA.listShape,
    exchange: recorded('totalCountAsString', 'byIds'),
    fails: true,
    expect: 'Result.TotalCount "3"',
  },
  {
    check: 'listShape',
    title: 'empty strings omitted',
    judge: SCHEMA.listShape,
    exchange: recorded('emptyStringsOmitted', 'byIds'),
    fails: true,
    expect: 'Title, Description are not strings',
  },
  { check: 'SHAPED', title: 'a list page', judge: SCHEMA.SHAPED, exchange: ref('byIds'), fails: false },
  {
    check: 'SHAPED',
    title: "Items null is SCHEMA-02's",
    judge: SCHEMA.SHAPED,
    exchange: recorded('goNilItems', 'noSuchSpace'),
    fails: true,
    owner: 'SCHEMA-02',
  },

  { check: 'timestampsUtc', title: 'RFC 3339 with Z', judge: SCHEMA.timestampsUtc, exchange: ref('byIds'), fails: false },
  { check: 'timestampsUtc', title: 'a zero offset is UTC too', judge: SCHEMA.timestampsUtc, exchange: recorded('zeroOffsetNotZ', 'byIds'), fails: false },
  {
    check: 'timestampsUtc',
    title: 'local time, +08:00',
    judge: SCHEMA.timestampsUtc,
    exchange: recorded('localTimeTimestamps', 'byIds'),
    fails: true,
    expect: 'not an ISO 8601 timestamp in UTC',
  },
  {
    check: 'timestampsUtc',
    title: "PHP's DATE_ISO8601: an extended date-time with a basic +0000 offset",
    judge: SCHEMA.timestampsUtc,
    exchange: recorded('phpIso8601Offset', 'byIds'),
    fails: true,
    expect: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000.*not an ISO 8601 timestamp in UTC/,
  },
  {
    check: 'timestampsUtc',
    title: 'the basic format, with Z and with +0000',
    judge: SCHEMA.timestampsUtc,
    exchange: timestamps((item) => {
      item.CreateTime = basic(item.CreateTime);
      item.UpdateTime = basic(item.UpdateTime).replace(/Z$/, '+0000');
    }),
    fails: false,
  },
  {
    check: 'timestampsUtc',
    title: "-00:00, RFC 3339's unknown offset, is no ISO 8601 form",
    judge: SCHEMA.timestampsUtc,
    exchange: timestamps((item) => (item.UpdateTime = item.UpdateTime.replace(/Z$/, '-00:00'))),
    fails: true,
    expect: '-00:00',
  },

  { check: 'timestampsInProfileFormat', title: 'Z, as profiled', judge: SCHEMA.timestampsInProfileFormat, exchange: ref('byIds'), fails: false },
  {
    check: 'timestampsInProfileFormat',
    title: "not UTC at all is SCHEMA-03's",
    judge: SCHEMA.timestampsInProfileFormat,
    exchange: recorded('localTimeTimestamps', 'byIds'),
    fails: false,
  },
  {
    check: 'timestampsInProfileFormat',
    title: '+00:00 where the profile says Z',
    judge: SCHEMA.timestampsInProfileFormat,
    exchange: recorded('zeroOffsetNotZ', 'byIds'),
    fails: true,
    expect: 'timestamps.format rfc3339-utc',
  },

  { check: 'timestampsNearClock', title: 'the times the kit saw', judge: nearClock('reference'), exchange: ref('byIds'), fails: false },
  {
    check: 'timestampsNearClock',
    title: 'the times the kit saw in whole seconds, the basic format too, read at their precision with no skew allowed',
    judge: SCHEMA.timestampsNearClock(windowsOf('reference'), 0, clockOf('reference', 'byIds').answeredAt),
    exchange: timestamps((item) => {
      // 12:00:00Z is any instant of that second: the create the kit sent at 12:00:00.400 is within it.
      item.CreateTime = wholeSecond(item.CreateTime);
      item.UpdateTime = basic(wholeSecond(item.UpdateTime));
    }),
    fails: false,
  },
  {
    check: 'timestampsNearClock',
    title: 'local time of UTC+8 labelled Z',
    judge: nearClock('localTimeLabelledZ'),
    exchange: recorded('localTimeLabelledZ', 'byIds'),
    fails: true,
    expect: '(8 h: local time of UTC+8 labelled as UTC?)',
  },

  { check: 'updateNotBeforeCreate', title: 'UpdateTime at CreateTime', judge: SCHEMA.updateNotBeforeCreate, exchange: ref('byIds'), fails: false },
  {
    check: 'updateNotBeforeCreate',
    title: 'UpdateTime a second before',
    judge: SCHEMA.updateNotBeforeCreate,
    exchange: recorded('updateBeforeCreate', 'byIds'),
    fails: true,
    expect: 'CreateTime',
  },
  {
    check: 'updateNotBeforeCreate',
    title: 'CreateTime in milliseconds, UpdateTime the same second in whole seconds',
    judge: SCHEMA.updateNotBeforeCreate,
    exchange: timestamps((item) => {
      item.CreateTime = later(wholeSecond(item.CreateTime), 500);
      item.UpdateTime = wholeSecond(item.CreateTime);
    }),
    fails: false,
  },
  {
    check: 'updateNotBeforeCreate',
    title: 'mixed precision, basic and extended: the same second',
    judge: SCHEMA.updateNotBeforeCreate,
    exchange: timestamps((item) => {
      item.CreateTime = later(wholeSecond(item.CreateTime), 999);
      item.UpdateTime = basic(wholeSecond(item.CreateTime)).replace(/Z$/, '+0000');
    }),
    fails: false,
  },
  {
    check: 'updateNotBeforeCreate',
    title: 'CreateTime in milliseconds, UpdateTime a whole second before it',
    judge: SCHEMA.updateNotBeforeCreate,
    exchange: timestamps((item) => {
      item.UpdateTime = wholeSecond(item.CreateTime);
      item.CreateTime = later(item.UpdateTime, 1_200);
    }),
    fails: true,
    expect: 'UpdateTime',
  },

  { check: 'validates', title: 'a list answer', judge: SCHEMA.validates('ListAssetGroupsResponse'), exchange: ref('byIds'), fails: false },
  {
    check: 'validates',
    title: 'TotalCount a string',
    judge: SCHEMA.validates('ListAssetGroupsResponse'),
    exchange: recorded('totalCountAsString', 'byIds'),
    fails: true,
    expect: 'TotalCount',
  },
];
