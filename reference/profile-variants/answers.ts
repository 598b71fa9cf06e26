/** Profile variants of the answers: the error part's shape (error.*) and the timestamps' form (timestamps.*). */
import { ApiError, defaultHooks, OPERATIONS, type Operation } from '../behaviour';
import { errorKindNames } from '../../schemas/spec';
import { ERROR_SHAPE_NOT_SHOWN, TIMESTAMP_FIELD, type ProfileVariant } from './helpers';

const ERROR_KINDS = errorKindNames();

/**
 * What Python's `datetime.now(timezone.utc).isoformat()` writes: microseconds (none when they are
 * zero) and `+00:00` rather than `Z`. Milliseconds padded: the reference clock has no finer grain.
 */
function pythonIsoformat(): string {
  const now = new Date();
  const iso = now.toISOString();
  return now.getUTCMilliseconds() === 0 ? `${iso.slice(0, 19)}+00:00` : `${iso.slice(0, 23)}000+00:00`;
}

/** The error part at the top level of the body. */
export const TOP_LEVEL_ERROR: ProfileVariant = {
  name: 'topLevelError',
  description:
    'The error part at the top level of the body, Error = { Code, Message }, beside ResponseMetadata; an unknown Action (no row of the error table) answered 400 with a kind of its own, InvalidAction.',
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
  hooks: {
    selectOperation: (action, version) =>
      OPERATIONS.includes(action as Operation)
        ? defaultHooks.selectOperation(action, version)
        : new ApiError(400, 'InvalidAction', `unsupported Action ${JSON.stringify(action)}`),
  },
};

/** Timestamps as Python writes them. */
export const PYTHON_TIMESTAMPS: ProfileVariant = {
  name: 'pythonTimestamps',
  description:
    "Timestamps as Python's datetime.isoformat() writes an aware UTC datetime (pydantic v1's JSON encoder too): microseconds and +00:00 instead of Z, e.g. 2024-01-01T08:00:00.123000+00:00.",
  allows: TIMESTAMP_FIELD,
  profile: {
    name: 'pythonTimestamps',
    timestamps: { format: 'iso8601-utc' },
    $defs: {
      ProfileTimestamp: {
        description:
          'Variant pythonTimestamps: ISO 8601 in UTC, in one format throughout (extended with Z, +00:00 or +00; basic with Z, +0000 or +00), with or without fractional seconds.',
        type: 'string',
        pattern: '^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+00(:00)?)|\\d{8}T\\d{6}(\\.\\d+)?(Z|\\+00(00)?))$',
      },
    },
  },
  hooks: { timestamp: pythonIsoformat },
  admittedWithoutProfile:
    "a zero offset is UTC: the spec level (SCHEMA-03) passes; the reference profile's Z is a SHOULD (SCHEMA-05), a warning, never a failed MUST",
};
