import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseYaml } from './yaml';
import { isObject } from './spec';
import { derivedDefsFor } from './profile-defs';

/**
 * The kit's choices where the spec says "not shown" (see spec/profile.yaml for the why).
 * Field names here are wire names; everything else in the kit reads them from here.
 */
/** How the Name filter matches: exactly, as a substring or as a leading part, with or without case. */
export const NAME_MATCHES = ['exact', 'case-insensitive-exact', 'substring', 'case-insensitive-substring', 'prefix', 'case-insensitive-prefix'] as const;
export type NameMatch = (typeof NAME_MATCHES)[number];
/** What a page size above the maximum gets: a 400, or the maximum (said in Result.PageSize). */
export const ABOVE_MAXIMUM = ['refuse', 'clamp'] as const;
/** What a paging value below its minimum or not a whole number gets: a 400, or a valid page the answer states. */
export const INVALID_PAGING = ['refuse', 'adjust'] as const;
/** What a page past the end gets: no items, the last page (with its true PageNumber), or a 400. */
export const PAST_END = ['empty', 'last', 'refuse'] as const;
/** What the Id filter takes: a list of Ids, or one Id as a string (what a framework binding a string field makes of it). */
export const ID_FILTER_TAKES = ['many', 'one'] as const;
/** The unit length bounds count in: Unicode code points, UTF-16 code units, or UTF-8 bytes. */
export const LENGTH_UNITS = ['code-points', 'utf16', 'bytes'] as const;
/** rfc3339-utc: RFC 3339 with Z only; iso8601-utc: any ISO 8601 form that denotes UTC, one format throughout (schemas/timestamp.ts). */
export const TIMESTAMP_FORMATS = ['rfc3339-utc', 'iso8601-utc'] as const;

export interface Profile {
  name: string;
  list: {
    filterField: string;
    filters: { assetSpaceId: string; groupType: string; groupIds: string; name: string };
    /** many: list.filters.groupIds holds a list of Ids; one: a single Id as a string, so the kit reads several groups one request each. */
    idFilterTakes: (typeof ID_FILTER_TAKES)[number];
    nameMatch: NameMatch;
    pageNumber: { field: string; default: number; minimum: number; pastEnd: (typeof PAST_END)[number] };
    pageSize: { field: string; default: number; minimum: number; maximum: number; aboveMaximum: (typeof ABOVE_MAXIMUM)[number] };
    invalidPaging: (typeof INVALID_PAGING)[number];
    /** A fractional PageNumber or PageSize, where it differs from invalidPaging: unset, invalidPaging decides. */
    fractionalPaging?: (typeof INVALID_PAGING)[number];
  };
  create: {
    requiredFields: string[];
    maxLength: Record<string, number>;
    /** Unset: the bounds are tested with ASCII, whose length is the same in every unit. */
    lengthUnit?: (typeof LENGTH_UNITS)[number];
    defaults: Record<string, string>;
    groupTypes: string[];
  };
  error: { codePointer: string; messagePointer: string };
  timestamps: { format: (typeof TIMESTAMP_FORMATS)[number] };
  $defs: Record<string, Record<string, unknown>>;
}

/**
 * The list filters in a body: under list.filterField, or, where that is '' (the empty string), at the
 * top level of the body beside the paging fields ("Names of the filter fields ...: not shown").
 */
export function withFilters(
  list: Pick<Profile['list'], 'filterField'>,
  filter: Record<string, unknown>,
  body: Record<string, unknown> = {},
): Record<string, unknown> {
  if (list.filterField === '') return { ...body, ...filter };
  return Object.keys(filter).length ? { ...body, [list.filterField]: filter } : { ...body };
}

/** The JSON pointer of one filter in a list body (withFilters). */
export function filterPointer(list: Pick<Profile['list'], 'filterField'>, name: string): string {
  return list.filterField === '' ? `/${name}` : `/${list.filterField}/${name}`;
}

/** One filter as the reports name it: Filter.GroupIds, or GroupIds at the top level. */
export function filterLabel(list: Pick<Profile['list'], 'filterField'>, name: string): string {
  return list.filterField === '' ? name : `${list.filterField}.${name}`;
}

export const SPEC_DIR = path.resolve(__dirname, '..', 'spec');
export const REFERENCE_PROFILE_PATH = path.join(SPEC_DIR, 'profile.yaml');

export class ProfileError extends Error {}

const isMapping = isObject;

/**
 * `$defs` names before 0.2, when they equalled names under components.schemas of the contract and
 * made generated clients declare one type twice. Override files written then still work.
 */
const RENAMED_DEFS: Record<string, string> = {
  ListAssetGroupsRequest: 'ProfileListRequest',
  CreateAssetGroupConstraints: 'ProfileCreateConstraints',
  ErrorDetail: 'ProfileErrorDetail',
  Timestamp: 'ProfileTimestamp',
};

function currentDefNames(defs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(defs).map(([name, schema]) => [RENAMED_DEFS[name] ?? name, schema]));
}

/** Mappings merge key by key; lists and scalars replace. `$defs` entries replace whole. */
function mergeOver(base: Record<string, unknown>, over: Record<string, unknown>, atDefs = false): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    // null removes the reference's setting: `Description: null` under create.maxLength states no bound.
    if (value === null && !atDefs) {
      delete out[key];
      continue;
    }
    if (key === '$defs' && isMapping(value) && isMapping(base[key])) {
      out[key] = { ...base[key], ...currentDefNames(value) };
    } else if (!atDefs && isMapping(value) && isMapping(base[key])) {
      out[key] = mergeOver(base[key] as Record<string, unknown>, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function readYaml(file: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProfileError(`${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed = parsedYaml.get(text);
  try {
    if (parsed === undefined) parsedYaml.set(text, (parsed = parseYaml(text)));
  } catch (error) {
    throw new ProfileError(`${what}: ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isMapping(parsed)) throw new ProfileError(`${what}: ${file} must hold a YAML mapping`);
  // A copy: merging writes into it.
  return structuredClone(parsed);
}

/** The runner reads the profile twice (its check, then the validators): one parse per text. */
const parsedYaml = new Map<string, unknown>();

/** Structural sanity of a merged profile; the schemas module checks settings against `$defs`. */
function assertShape(p: Record<string, unknown>, origin: string): asserts p is Record<string, unknown> & Profile {
  const problems: string[] = [];
  const need = (pointer: string, type: 'string' | 'number' | 'object' | 'array') => {
    let node: unknown = p;
    for (const part of pointer.split('.')) node = isMapping(node) ? node[part] : undefined;
    const ok = type === 'array' ? Array.isArray(node) : type === 'object' ? isMapping(node) : typeof node === type;
    if (!ok) problems.push(`${pointer} must be ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}`);
  };
  need('name', 'string');
  need('list.filterField', 'string');
  for (const f of ['assetSpaceId', 'groupType', 'groupIds', 'name']) need(`list.filters.${f}`, 'string');
  need('list.nameMatch', 'string');
  need('list.pageNumber.field', 'string');
  need('list.pageNumber.default', 'number');
  need('list.pageNumber.minimum', 'number');
  need('list.pageSize.field', 'string');
  need('list.pageSize.default', 'number');
  need('list.pageSize.minimum', 'number');
  need('list.pageSize.maximum', 'number');
  need('create.requiredFields', 'array');
  need('create.maxLength', 'object');
  need('create.defaults', 'object');
  need('create.groupTypes', 'array');
  need('error.codePointer', 'string');
  need('error.messagePointer', 'string');
  need('$defs', 'object');
  const oneOf = (pointer: string, values: readonly string[], optional = false) => {
    let node: unknown = p;
    for (const part of pointer.split('.')) node = isMapping(node) ? node[part] : undefined;
    if (node === undefined && optional) return;
    if (typeof node !== 'string' || !values.includes(node))
      problems.push(`${pointer} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(node)}`);
  };
  oneOf('list.nameMatch', NAME_MATCHES);
  oneOf('list.idFilterTakes', ID_FILTER_TAKES);
  oneOf('list.pageSize.aboveMaximum', ABOVE_MAXIMUM);
  oneOf('list.invalidPaging', INVALID_PAGING);
  oneOf('list.fractionalPaging', INVALID_PAGING, true);
  oneOf('list.pageNumber.pastEnd', PAST_END);
  oneOf('create.lengthUnit', LENGTH_UNITS, true);
  oneOf('timestamps.format', TIMESTAMP_FORMATS);
  for (const key of ['codePointer', 'messagePointer']) {
    const pointer = (p.error as Record<string, unknown> | undefined)?.[key];
    if (typeof pointer === 'string' && !pointer.startsWith('/')) problems.push(`error.${key} must be a JSON pointer starting with "/"`);
  }
  if (problems.length) throw new ProfileError(`profile ${origin} is not usable:\n  - ${problems.join('\n  - ')}`);
}

/**
 * The reference profile, or the reference profile with a target's profile file merged over it.
 * Throws ProfileError with a message naming the file and the problem.
 */
export function loadProfile(overridePath?: string): Profile {
  const base = readYaml(REFERENCE_PROFILE_PATH, 'reference profile');
  assertShape(base, REFERENCE_PROFILE_PATH);
  return overridePath ? overridden(base, readYaml(overridePath, 'AG_PROFILE'), overridePath) : base;
}

/**
 * An override merged over the reference profile, shape-checked, with the `$defs` its settings call for: a setting
 * is enough on its own (`timestamps: { format: iso8601-utc }`), and the schema it decides is written from it
 * (schemas/profile-defs.ts) unless the override gives that schema too.
 */
function overridden(base: Profile, override: Record<string, unknown>, origin: string): Profile {
  const merged = mergeOver(base as unknown as Record<string, unknown>, override);
  assertShape(merged, origin);
  const given = new Set(isMapping(override.$defs) ? Object.keys(currentDefNames(override.$defs)) : []);
  const derived = derivedDefsFor(
    merged,
    base,
    given,
    `Written by the kit from the settings of ${path.basename(origin)}, which gives no schema of its own here.`,
  );
  merged.$defs = { ...merged.$defs, ...derived };
  return merged;
}

/**
 * The reference profile with an override given as data (a profile variant, a drafted profile)
 * merged over it, by the same rules and shape checks as an AG_PROFILE file. `origin` names the
 * override in error messages. The override is copied, never aliased by the result.
 */
export function profileFromOverride(override: Record<string, unknown>, origin: string): Profile {
  if (!isMapping(override)) throw new ProfileError(`profile ${origin}: an override must be a mapping`);
  const base = readYaml(REFERENCE_PROFILE_PATH, 'reference profile');
  assertShape(base, REFERENCE_PROFILE_PATH);
  return overridden(base, structuredClone(override), origin);
}

/** What a paging value gets under a profile: a fraction follows list.fractionalPaging where that is set, anything else list.invalidPaging. */
export function invalidPagingFor(list: Pick<Profile['list'], 'invalidPaging' | 'fractionalPaging'>, value: unknown): (typeof INVALID_PAGING)[number] {
  return typeof value === 'number' && !Number.isInteger(value) ? (list.fractionalPaging ?? list.invalidPaging) : list.invalidPaging;
}

/** The length of a string in a profile's unit (code points when none is stated). */
export function lengthIn(value: string, unit: Profile['create']['lengthUnit']): number {
  if (unit === 'utf16') return value.length;
  if (unit === 'bytes') return Buffer.byteLength(value, 'utf8');
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** What a nameMatch setting means, taken apart. */
export function nameMatchParts(match: NameMatch): { mode: 'exact' | 'substring' | 'prefix'; caseInsensitive: boolean } {
  return { mode: match.replace('case-insensitive-', '') as 'exact' | 'substring' | 'prefix', caseInsensitive: match.startsWith('case-insensitive-') };
}

/** Whether a Name matches a name filter under a nameMatch setting. */
export function nameMatches(name: string, query: string, match: NameMatch): boolean {
  const { mode, caseInsensitive } = nameMatchParts(match);
  const [n, q] = caseInsensitive ? [name.toLowerCase(), query.toLowerCase()] : [name, query];
  return mode === 'exact' ? n === q : mode === 'prefix' ? n.startsWith(q) : n.includes(q);
}

/** Reads a JSON pointer (RFC 6901) out of a parsed body; undefined when any step is missing. */
export function readPointer(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw;
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Field names APIs of this family use where the spec says "not shown", most common first, the
 * reference profile's own first of each: what `agc profile discover` tries, and what the suites
 * try before calling an ignored field a failure rather than a profile mismatch.
 */
export const FIELD_NAME_CANDIDATES = {
  // '' is the top level of the body (withFilters).
  filterField: ['Filter', 'Filters', ''],
  groupIds: ['GroupIds', 'Ids', 'GroupIdList', 'IdList', 'AssetGroupIds', 'GroupIDs', 'Id', 'GroupId'],
  // An Id filter that takes one Id as a string, not a list (list.idFilterTakes: one): found and named, by the run and by discover.
  oneId: ['Id', 'GroupId', 'AssetGroupId'],
  pageSize: ['PageSize', 'Size', 'Limit', 'PerPage', 'PageLimit', 'MaxResults'],
  pageNumber: ['PageNumber', 'PageNo', 'Page', 'PageNum', 'PageIndex', 'CurrentPage'],
  name: ['Name', 'GroupName', 'Keyword', 'NameKeyword'],
  groupType: ['GroupType', 'Type'],
  assetSpaceId: ['AssetSpaceId', 'SpaceId'],
} as const;

/**
 * Where APIs of this family keep a filter, in the order the kit asks: the profile's wrapper first, then each other one
 * (the top level of the body among them); under each, the filter's candidate names, leaving out the names the profile
 * gives its other filters. The one search both the run's phase (suites/detect.ts) and `agc profile discover`
 * (discover/list.ts) go through.
 */
export function filterPlaces(
  list: Pick<Profile['list'], 'filterField' | 'filters'>,
  key: keyof Profile['list']['filters'],
): { wrapper: string; names: string[] }[] {
  const { filterField, filters } = list;
  const names = FIELD_NAME_CANDIDATES[key].filter((name) => name === filters[key] || !Object.values(filters).includes(name));
  const wrappers = [filterField, ...FIELD_NAME_CANDIDATES.filterField.filter((wrapper) => wrapper !== filterField)];
  return wrappers.map((wrapper) => ({ wrapper, names }));
}
