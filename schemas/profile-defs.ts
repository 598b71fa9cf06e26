/**
 * The `$defs` a profile's settings decide, written from them: what a profile file that changes a
 * setting gets when it leaves the matching schema out (schemas/profile.ts), and what `agc profile
 * discover` writes into its draft (discover/draft.ts). One derivation, so that a setting alone is
 * enough and the two cannot differ. checkProfileConsistency (schemas/index.ts) probes each schema
 * against its settings, so a schema a file gives that contradicts them is still refused.
 */
import { errorKindNames, openapiDocument, pointerParts, isObject } from './spec';

/** The settings a derived schema reads (the profile's, by wire name). */
export interface DerivingSettings {
  list: {
    filterField: string;
    filters: { assetSpaceId: string; groupType: string; groupIds: string; name: string };
    idFilterTakes: string;
    pageNumber: { field: string; default: number; minimum: number };
    pageSize: { field: string; default: number; minimum: number; maximum: number };
  };
  create: { requiredFields: string[]; maxLength: Record<string, number>; defaults: Record<string, string>; groupTypes: string[] };
  error: { codePointer: string; messagePointer: string };
  timestamps: { format: string };
}

type Schema = Record<string, unknown>;

const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'];

/** RFC 3339 in UTC with Z, any fraction: the reference profile's ProfileTimestamp. */
const RFC3339_Z_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$';

/**
 * Each derived `$defs` entry: the part of the settings it is written from (a change there, and the
 * entry is derived again unless the file gives it), and how it is written. `note` opens its description.
 */
export const DERIVED_DEFS: Record<string, { from: (s: DerivingSettings) => unknown; write: (s: DerivingSettings, note: string) => Schema }> = {
  ProfileListRequest: {
    from: ({ list: { filterField, filters, idFilterTakes, pageNumber: n, pageSize: z } }) => [
      filterField,
      [filters.assetSpaceId, filters.groupType, filters.groupIds, filters.name],
      idFilterTakes,
      [n.field, n.default, n.minimum],
      [z.field, z.default, z.minimum, z.maximum],
    ],
    write: ({ list }, note) => {
      const filterProperties = {
        [list.filters.assetSpaceId]: { type: 'string' },
        [list.filters.groupType]: { type: 'string' },
        [list.filters.groupIds]: list.idFilterTakes === 'one' ? { type: 'string' } : { type: 'array', items: { type: 'string' } },
        [list.filters.name]: { type: 'string' },
      };
      return {
        description: `${note} Filter and paging field names and paging bounds.`,
        type: 'object',
        properties: {
          // Filters at the top level ('') sit beside the paging fields.
          ...(list.filterField === '' ? filterProperties : { [list.filterField]: { type: 'object', properties: filterProperties } }),
          [list.pageNumber.field]: { type: 'integer', minimum: list.pageNumber.minimum, default: list.pageNumber.default },
          [list.pageSize.field]: { type: 'integer', minimum: list.pageSize.minimum, maximum: list.pageSize.maximum, default: list.pageSize.default },
        },
      };
    },
  },
  ProfileCreateConstraints: {
    from: ({ create }) => [create.requiredFields, create.maxLength, create.defaults, create.groupTypes],
    write: ({ create }, note) => ({
      description: `${note} Required create fields and their length bounds.`,
      type: 'object',
      required: create.requiredFields,
      properties: Object.fromEntries(
        CREATE_FIELDS.map((field) => {
          const schema: Schema = { type: 'string' };
          if (create.requiredFields.includes(field)) schema.minLength = 1;
          // null: no bound (profile.ts mergeOver removes it).
          if (typeof create.maxLength[field] === 'number') schema.maxLength = create.maxLength[field];
          if (field === 'GroupType') schema.enum = create.groupTypes;
          if (create.defaults[field] !== undefined) schema.default = create.defaults[field];
          return [field, schema];
        }),
      ),
    }),
  },
  ProfileErrorDetail: {
    from: ({ error }) => [error.codePointer, error.messagePointer],
    // The reference profile's error body has no Result; `agc profile discover` writes one where the target sends it.
    write: ({ error }, note) => errorDetail(error, note, false),
  },
  ProfileTimestamp: {
    from: ({ timestamps }) => timestamps.format,
    write: ({ timestamps }, note) =>
      timestamps.format === 'iso8601-utc'
        ? // Any UTC form the spec's "ISO 8601 UTC timestamp" takes: the contract's own Timestamp, its forms included.
          {
            ...contractTimestamp(),
            description: `${note} ISO 8601 in UTC, in one format throughout: extended with Z, +00:00 or +00, or basic with Z, +0000 or +00; any fraction.`,
          }
        : { description: `${note} RFC 3339 in UTC, with or without fractional seconds.`, type: 'string', pattern: RFC3339_Z_PATTERN },
  },
};

/** The contract's Timestamp (spec/openapi.yaml), copied: its description aside. */
function contractTimestamp(): Schema {
  const components = openapiDocument().components;
  const schemas = isObject(components) ? components.schemas : undefined;
  const timestamp = isObject(schemas) ? schemas.Timestamp : undefined;
  if (!isObject(timestamp)) throw new Error('spec/openapi.yaml has no components/schemas/Timestamp');
  const { description: _description, ...schema } = structuredClone(timestamp);
  return schema;
}

/** The error part: one object per step of the two pointers, Code and Message as the leaves; `Result: false` unless the target sends one. */
export function errorDetail(error: DerivingSettings['error'], note: string, hasResult: boolean): Schema {
  const root: Schema = { description: `${note} Where an error body carries its kind and message.`, type: 'object' };
  const place = (pointer: string, leaf: Schema) => {
    const parts = pointerParts(pointer);
    let node = root;
    for (const [i, part] of parts.entries()) {
      node.required = [...new Set([...((node.required as string[] | undefined) ?? []), part])];
      const properties = ((node.properties as Record<string, Schema> | undefined) ??= {});
      node.properties = properties;
      if (i === parts.length - 1) properties[part] = leaf;
      else node = properties[part] ??= { type: 'object' };
    }
  };
  place(error.codePointer, { type: 'string', enum: errorKindNames() });
  place(error.messagePointer, { type: 'string' });
  if (!hasResult) (root.properties as Record<string, unknown>).Result = false;
  return root;
}

/** Every derived `$defs` entry, written from the settings. */
export function defsFromSettings(s: DerivingSettings, note: string): Record<string, Schema> {
  return Object.fromEntries(Object.entries(DERIVED_DEFS).map(([name, def]) => [name, def.write(s, note)]));
}

/**
 * The `$defs` entries a profile file's settings call for and its own `$defs` leave out: each entry whose settings
 * differ from the base profile's, written from the merged settings. An entry the file gives is the file's (and
 * checkProfileConsistency says if it contradicts them).
 */
export function derivedDefsFor(merged: DerivingSettings, base: DerivingSettings, given: ReadonlySet<string>, note: string): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(DERIVED_DEFS)) {
    if (given.has(name) || JSON.stringify(def.from(merged)) === JSON.stringify(def.from(base))) continue;
    out[name] = def.write(merged, note);
  }
  return out;
}
