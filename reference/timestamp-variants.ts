/**
 * Variants of the timestamps' form: every form of ISO 8601 that denotes UTC is one the spec allows (SCHEMA-03), and two
 * timestamps are compared at the precision they give (SCHEMA-04). Listed in VARIANTS (reference/variants.ts) under "formats".
 */
import { defaultHooks, type CreateInput, type HookContext, type Principal } from './behaviour';
import type { Variant } from './behaviour-types';

export const TIMESTAMP_VARIANTS: readonly Variant[] = [
  {
    name: 'wholeSecondTimestamps',
    description: 'writes timestamps without fractional seconds (2024-01-01T12:00:00Z)',
    allows: 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.',
    hooks: { timestamp: () => new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
  },
  {
    name: 'microsecondTimestamps',
    description: 'writes timestamps with six fractional digits',
    allows: 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.',
    hooks: { timestamp: () => new Date().toISOString().replace(/Z$/, '417Z') },
  },
  {
    name: 'basicFormatTimestamps',
    // ISO 8601's basic format, no separators: what AWS Signature V4's X-Amz-Date and iCalendar's DATE-TIME (RFC 5545
    // §3.3.5) write. A UTC form of ISO 8601 like any other (SCHEMA-03); not the reference profile's RFC 3339, a SHOULD
    // (SCHEMA-05) that warns, as it does for the +00:00 of pythonIsoformatTimestamps.
    description: 'writes timestamps in the ISO 8601 basic format, whole seconds (20261123T165046Z)',
    allows: 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.',
    hooks: { timestamp: () => new Date().toISOString().replace(/[-:]|\.\d+/g, '') },
  },
  {
    name: 'mixedPrecisionTimestamps',
    // MySQL: CreateTime DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), UpdateTime DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE
    // CURRENT_TIMESTAMP. One statement's time, in milliseconds and in whole seconds: at the precision both give, the same.
    description: 'CreateTime in milliseconds, UpdateTime the same instant in whole seconds (a DATETIME(3) and a DATETIME column)',
    allows: 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.',
    passes: ['SCHEMA-04'],
    hooks: {
      createGroup: (principal: Principal, input: CreateInput, ctx: HookContext) => {
        const group = defaultHooks.createGroup(principal, input, ctx);
        group.UpdateTime = group.CreateTime.replace(/\.\d+Z$/, 'Z');
        return group;
      },
    },
  },
];
