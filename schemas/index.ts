/**
 * What the kit validates against: the active profile's validators (AG_PROFILE), a target's own
 * (profileAt), a profile's settings checked against its $defs (checkProfileConsistency), and the
 * report's schema. The Ajv instance and the compiling are schemas/compile.ts's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import { loadProfile, withFilters, type Profile } from './profile';
import { errorKinds, pointerParts, SPEC_VERSION } from './spec';
import { ajv, COMPONENTS, compileAll, compiledOnUse, componentOf, metaSchemaErrors, register, run, type ComponentName, type Validators } from './compile';

export { OPENAPI_PATH } from './spec';
export { COMPONENTS, metaSchemaErrors, openapi, type ComponentName, type Validators } from './compile';

export const profile: Profile = loadProfile(process.env.AG_PROFILE);

/** The active profile's document, registered with the first validator compiled. */
let activeDoc: string | undefined;
const activeUri = () => (activeDoc ??= register(profile));
/** One compiled validator per component, for the active profile; each compiled once, when first used. */
export const validators: Validators = compiledOnUse(profile, activeUri);

/**
 * Compiles any component under components/schemas of the active document (Ajv memoises it).
 * Bad keywords only surface at this point, which is why the kit's tests compile every one.
 */
export function compileComponent(name: string): ValidateFunction {
  return componentOf(activeUri(), name);
}

/**
 * Validates against one component; errors read like `/Result/Items/0/CreateTime must match format "date-time"`.
 * Takes any string so callers can pass names read from config; an unknown name throws.
 */
export function validate(name: ComponentName | (string & {}), data: unknown): { valid: boolean; errors: string[] } {
  return validateWith(validators, name, data);
}

function validateWith(v: Validators, name: string, data: unknown): { valid: boolean; errors: string[] } {
  if (!(COMPONENTS as readonly string[]).includes(name)) throw new Error(`no validator ${name}; known: ${COMPONENTS.join(', ')}`);
  return run(v[name as ComponentName], data);
}

export { errorKinds } from './spec';

/** The validators of each profile other than the active one: compiled on use (profileAt) or whole (checkProfileConsistency). */
const checked = new WeakMap<Profile, Validators>();
/** Profiles loaded by path for profileAt, each once. */
const byPath = new Map<string | undefined, Profile>();

/**
 * The profile at a path and validation against it. The active one (AG_PROFILE's) for a run of the kit; where one worker
 * judges several targets, each with a profile of its own (the kit's own matrices), each target's, compiled on first use.
 */
export function profileAt(profilePath: string | undefined): { profile: Profile; validate: typeof validate } {
  const active = process.env.AG_PROFILE ? path.resolve(process.env.AG_PROFILE) : undefined;
  if (profilePath === active) return { profile, validate };
  const p = byPath.get(profilePath) ?? byPath.set(profilePath, loadProfile(profilePath)).get(profilePath)!;
  let v = checked.get(p);
  if (!v) {
    let uri: string | undefined;
    v = compiledOnUse(p, () => (uri ??= register(p)));
    checked.set(p, v);
  }
  const compiled = v;
  return { profile: p, validate: (name, data) => validateWith(compiled, name, data) };
}

function withPointer(data: Record<string, unknown>, pointer: string, value: unknown): Record<string, unknown> {
  const parts = pointerParts(pointer);
  let node = data;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
  return data;
}

/**
 * Problems where a profile's settings and its `$defs` disagree, e.g. a renamed list field whose
 * schema was not overridden. Each probe sends the settings' names and bounds through the composed
 * components, so a schema that does not know a name lets a wrong value through and is reported.
 */
export function checkProfileConsistency(p: Profile): string[] {
  const invalid = metaSchemaErrors({ $defs: p.$defs });
  if (invalid) return [`profile ${p.name}: its $defs are not valid JSON Schema: ${invalid}`];
  let v: Validators;
  try {
    v = p === profile ? validators : (checked.get(p) ?? compileAll(p, register(p)));
    checked.set(p, v);
    // Every component compiles, or the problem is this profile's, said now rather than by the first test that validates.
    for (const name of COMPONENTS) void v[name];
  } catch (error) {
    return [(error as Error).message];
  }
  const problems: string[] = [];
  const expect = (name: ComponentName, data: unknown, valid: boolean, setting: string) => {
    // One problem per setting is enough to fix it; later probes of the same setting only repeat it.
    if (problems.some((problem) => problem.startsWith(`${setting}:`))) return;
    const result = run(v[name], data);
    if (result.valid === valid) return;
    problems.push(
      valid
        ? `${setting}: ${JSON.stringify(data)} should be a valid ${name}, but the profile's $defs reject it: ${result.errors.join('; ')}`
        : `${setting}: ${JSON.stringify(data)} should be an invalid ${name}, but the profile's $defs accept it (does the schema know this name or bound?)`,
    );
  };

  const { filterField, filters, pageNumber, pageSize, idFilterTakes } = p.list;
  const [idsValue, idsWrong] = idFilterTakes === 'one' ? ['group-1', ['group-1']] : [['group-1'], 'group-1'];
  expect(
    'ListAssetGroupsRequest',
    withFilters(
      p.list,
      {
        [filters.assetSpaceId]: 'space-1',
        [filters.groupType]: p.create.groupTypes[0] ?? 'AIGC',
        [filters.groupIds]: idsValue,
        [filters.name]: 'name',
      },
      { [pageNumber.field]: pageNumber.default, [pageSize.field]: pageSize.default },
    ),
    true,
    'list',
  );
  // Filters at the top level ('') have no filter object to be of the wrong type.
  if (filterField !== '') expect('ListAssetGroupsRequest', { [filterField]: 'not-an-object' }, false, 'list.filterField');
  for (const key of ['assetSpaceId', 'groupType', 'name'] as const) {
    expect('ListAssetGroupsRequest', withFilters(p.list, { [filters[key]]: 1 }), false, `list.filters.${key}`);
  }
  expect(
    'ListAssetGroupsRequest',
    withFilters(p.list, { [filters.groupIds]: idsWrong }),
    false,
    idFilterTakes === 'one' ? 'list.idFilterTakes' : 'list.filters.groupIds',
  );
  for (const [setting, paging] of [
    ['list.pageNumber', pageNumber],
    ['list.pageSize', pageSize],
  ] as const) {
    expect('ListAssetGroupsRequest', { [paging.field]: paging.minimum }, true, `${setting}.minimum`);
    expect('ListAssetGroupsRequest', { [paging.field]: paging.minimum - 1 }, false, `${setting}.minimum`);
  }
  expect('ListAssetGroupsRequest', { [pageSize.field]: pageSize.maximum }, true, 'list.pageSize.maximum');
  expect('ListAssetGroupsRequest', { [pageSize.field]: pageSize.maximum + 1 }, false, 'list.pageSize.maximum');

  const create: Record<string, string> = {
    Name: 'name',
    Title: 'title',
    Description: 'description',
    GroupType: p.create.groupTypes[0] ?? 'AIGC',
    ProjectName: p.create.defaults.ProjectName ?? 'default',
  };
  for (const groupType of p.create.groupTypes) expect('CreateAssetGroupRequest', { ...create, GroupType: groupType }, true, 'create.groupTypes');
  for (const field of Object.keys(create)) {
    const { [field]: _omitted, ...without } = create;
    expect('CreateAssetGroupRequest', without, !p.create.requiredFields.includes(field), 'create.requiredFields');
  }
  for (const [field, max] of Object.entries(p.create.maxLength)) {
    expect('CreateAssetGroupRequest', { ...create, [field]: 'x'.repeat(max) }, true, `create.maxLength.${field}`);
    expect('CreateAssetGroupRequest', { ...create, [field]: 'x'.repeat(max + 1) }, false, `create.maxLength.${field}`);
  }

  const utcOffset = '2024-01-01T12:00:00.5+00:00';
  expect('ProfileTimestamp', utcOffset, p.timestamps.format === 'iso8601-utc', 'timestamps.format');
  expect('ProfileTimestamp', '2024-01-01T12:00:00Z', true, 'timestamps.format');

  const metadata = { RequestId: 'request-1', Action: 'CreateAssetGroup', Version: SPEC_VERSION, Service: 'service', Region: 'region' };
  const kinds = new Set([...Object.values(errorKinds('CreateAssetGroup')), ...Object.values(errorKinds('ListAssetGroups'))]);
  for (const kind of kinds) {
    const body = withPointer(withPointer({ ResponseMetadata: { ...metadata } }, p.error.codePointer, kind), p.error.messagePointer, 'message');
    expect('ErrorResponse', body, true, 'error.codePointer');
  }
  const withoutCode = withPointer({ ResponseMetadata: { ...metadata } }, p.error.messagePointer, 'message');
  expect('ErrorResponse', withoutCode, false, 'error.codePointer');
  return problems;
}

/** The shape of conformance.json, compiled on the same strict instance; used by the kit's tests. */
export const REPORT_SCHEMA_PATH = path.join(__dirname, 'conformance-report.schema.json');
let reportValidator: ValidateFunction | undefined;
export function validateReport(data: unknown): { valid: boolean; errors: string[] } {
  reportValidator ??= ajv().compile(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')));
  const valid = reportValidator(data) as boolean;
  return { valid, errors: (reportValidator.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`) };
}
