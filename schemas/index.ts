import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { default as Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadProfile, ProfileError, withFilters, type Profile } from './profile';
import { errorKinds, openapiDocument, pointerParts, SPEC_VERSION } from './spec';

export { OPENAPI_PATH } from './spec';

/** The components the kit validates exchanges with. */
export const COMPONENTS = [
  'CreateAssetGroupResponse',
  'ListAssetGroupsResponse',
  'ErrorResponse',
  'AssetGroup',
  'ListAssetGroupsResult',
  'CreateAssetGroupResult',
  'ResponseMetadata',
  'CreateAssetGroupRequest',
  'ListAssetGroupsRequest',
  'Timestamp',
  'ProfileTimestamp',
] as const;
export type ComponentName = (typeof COMPONENTS)[number];
export type Validators = Readonly<Record<ComponentName, ValidateFunction>>;

/**
 * The one Ajv instance, made on first use. Playwright's runner loads this module with every test
 * file, to list the tests, and validates nothing: loading Ajv and registering the document there
 * cost it about 0.08 s of CPU per run. The workers, which validate, make it with their first check.
 */
let instance: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (instance) return instance;
  const { default: Ajv } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
  // No meta-schema check on every schema added: compiling the meta-schema cost every worker about 0.1 s of CPU, and the
  // schemas are checked where they come from: the contract's components and the reference profile by the kit's own
  // tests (tests/schemas.test.ts), a user's profile by checkProfileConsistency, once, in the runner.
  instance = new Ajv({ strict: true, allErrors: true, validateSchema: false });
  addFormats(instance);
  // The document is registered whole so its internal and ./profile.yaml refs resolve; strict mode
  // must be told that the OpenAPI root keywords and our extensions are not typos.
  instance.addVocabulary([
    'openapi',
    'info',
    'jsonSchemaDialect',
    'servers',
    'paths',
    'webhooks',
    'components',
    'security',
    'tags',
    'discriminator',
    'xml',
    'externalDocs',
    'example',
    'x-reference-profile',
  ]);
  return instance;
}

export const openapi = openapiDocument() as unknown as OpenAPIV3_1.Document;
export const profile: Profile = loadProfile(process.env.AG_PROFILE);

// The document has no $id of its own (OpenAPI does not allow one), so it is added under this URI,
// and its `./profile.yaml` refs resolve to the profile registered beside it.
const BASE = 'https://conformance-kit.invalid';
let registered = 0;

/**
 * Registers the document with one profile's $defs beside it and returns the document's URI.
 * Each profile gets its own base and its own copy of the document: Ajv caches compiled schemas
 * by object identity, so a shared document object would keep resolving to the first profile.
 */
function register(p: Profile): string {
  const dir = registered++ === 0 ? `${BASE}/spec` : `${BASE}/profile-${registered}/spec`;
  ajv().addSchema({ $id: `${dir}/profile.yaml`, $defs: p.$defs });
  ajv().addSchema(structuredClone(openapi) as object, `${dir}/openapi.yaml`);
  return `${dir}/openapi.yaml`;
}

function componentOf(docUri: string, name: string): ValidateFunction {
  // The profile's own timestamp form is no component of the contract (the spec does not narrow it): it is read from the profile.
  const pointer =
    name === 'ProfileTimestamp' ? `${docUri.replace(/openapi\.yaml$/, 'profile.yaml')}#/$defs/ProfileTimestamp` : `${docUri}#/components/schemas/${name}`;
  const validator = ajv().getSchema(pointer);
  if (!validator) throw new Error(`spec/openapi.yaml has no components/schemas/${name}`);
  return validator;
}

function compileOne(p: Profile, docUri: string, name: ComponentName): ValidateFunction {
  try {
    return componentOf(docUri, name);
  } catch (error) {
    throw new ProfileError(`profile ${p.name}: ${name} does not compile with its $defs: ${(error as Error).message}`);
  }
}

function compileAll(p: Profile, docUri: string): Validators {
  const out = {} as Record<ComponentName, ValidateFunction>;
  for (const name of COMPONENTS) out[name] = compileOne(p, docUri, name);
  return Object.freeze(out);
}

/**
 * Each compiled on first use. Playwright's runner loads every test file to list the tests, and so
 * this module, but validates nothing: compiling all at load cost it 0.15 s of CPU per run. A user's
 * profile is compiled whole before any worker starts (checkProfileConsistency, playwright.config.ts).
 */
function compiledOnUse(p: Profile, docUri: () => string): Validators {
  const out = {} as Record<ComponentName, ValidateFunction>;
  for (const name of COMPONENTS) {
    let compiled: ValidateFunction | undefined;
    Object.defineProperty(out, name, { enumerable: true, get: () => (compiled ??= compileOne(p, docUri(), name)) });
  }
  return Object.freeze(out);
}

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

function describe(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  if (error.keyword === 'false schema') return `${where} is not allowed here`;
  if (error.keyword === 'enum') {
    return `${where} ${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where} ${error.message}`;
}

function run(validator: ValidateFunction, data: unknown): { valid: boolean; errors: string[] } {
  const valid = validator(data) as boolean;
  return { valid, errors: valid ? [] : [...new Set((validator.errors ?? []).map(describe))] };
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

/** Whether a schema is valid JSON Schema (2020-12, the meta-schema), with Ajv's errors when it is not. */
export function metaSchemaErrors(schema: object): string | undefined {
  return ajv().validateSchema(schema) ? undefined : ajv().errorsText(ajv().errors);
}

/** The shape of conformance.json, compiled on the same strict instance; used by the kit's tests. */
export const REPORT_SCHEMA_PATH = path.join(__dirname, 'conformance-report.schema.json');
let reportValidator: ValidateFunction | undefined;
export function validateReport(data: unknown): { valid: boolean; errors: string[] } {
  reportValidator ??= ajv().compile(JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8')));
  const valid = reportValidator(data) as boolean;
  return { valid, errors: (reportValidator.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`) };
}
