/**
 * The spec's "ISO 8601 UTC timestamp", read as ISO 8601:2004 writes a complete date and time of day
 * (§4.3.2): wholly in the extended format (2026-11-23T16:50:46Z) or wholly in the basic format
 * (20261123T165046Z). One format throughout (§4.3.3 d): an extended date-time with a basic offset,
 * PHP's DATE_ISO8601 (2026-11-23T16:50:46+0000, which PHP's manual says "is not compatible with
 * ISO-8601") and Jackson's StdDateFormat before 2.11, is neither.
 *
 * UTC is `Z` or a zero offset, in the representation's own format: `+00:00` or `+00` extended, `+0000`
 * or `+00` basic (§4.2.5.2 gives `±hh` in both). A zero offset carries the plus sign (§3.4.2: `+` for
 * zero or ahead of UTC): `-00:00` is RFC 3339's (§4.3), there meaning "UTC known, the local offset
 * unknown", and no ISO 8601 form. The extended form also takes RFC 3339's lower-case `z` (§5.6).
 *
 * spec/openapi.yaml's Timestamp carries these two patterns (tests/schemas.test.ts holds them equal);
 * the extended branch adds `format: date-time` for the ranges of its fields, which the basic pattern
 * spells out.
 */

/** The extended format: 2026-11-23T16:50:46.315Z, …+00:00, …+00. */
export const EXTENDED_UTC_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|z|\\+00(:00)?)$';
/** The basic format: 20261123T165046.315Z, …+0000, …+00; its fields' ranges in the pattern (no `format` checks them). */
export const BASIC_UTC_PATTERN = '^\\d{4}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3])[0-5]\\d([0-5]\\d|60)(\\.\\d+)?(Z|\\+00(00)?)$';

const EXTENDED = new RegExp(EXTENDED_UTC_PATTERN);
const BASIC = new RegExp(BASIC_UTC_PATTERN);

/** A UTC timestamp taken apart: its whole seconds as YYYYMMDDhhmmss, its fraction's digits as written, and its instant (ms, fraction truncated). */
export interface UtcTimestamp {
  wholeSeconds: string;
  fraction: string;
  ms: number;
}

/** A timestamp in one of the two UTC forms, with a real date and time; undefined for anything else (a local offset, a mixed form, 30 February). */
export function readUtcTimestamp(value: unknown): UtcTimestamp | undefined {
  if (typeof value !== 'string' || !(EXTENDED.test(value) || BASIC.test(value))) return undefined;
  const [dateTime, fraction = ''] = value.replace(/(Z|z|\+00(:?00)?)$/, '').split('.');
  const wholeSeconds = dateTime.replace(/[-:T]/g, '');
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(wholeSeconds.slice(at, at + (i === 0 ? 4 : 2))));
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  // A leap second (…:60) is read as the instant after …:59.999, as Date reads it.
  date.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  return { wholeSeconds, fraction, ms: date.getTime() };
}

/**
 * Two UTC timestamps ordered at the coarser of their precisions (-1, 0, 1): the finer one truncated
 * to the coarser's fraction digits. A CreateTime 12:00:00.500Z (milliseconds) and an UpdateTime
 * 12:00:00Z (whole seconds) are the same second: neither says which came first.
 */
export function compareAtCoarserPrecision(a: UtcTimestamp, b: UtcTimestamp): -1 | 0 | 1 {
  const digits = Math.min(a.fraction.length, b.fraction.length);
  const [x, y] = [a, b].map((t) => `${t.wholeSeconds}${t.fraction.slice(0, digits)}`);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How long one unit of a timestamp's last digit is, in ms (1 s for whole seconds, at least 1 ms): the instant lies within that much after it. */
export function grainMs(t: UtcTimestamp): number {
  return Math.max(1, 1000 / 10 ** t.fraction.length);
}
