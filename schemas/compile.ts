/**
 * The one strict Ajv instance, made on first use: the contract (spec/openapi.yaml) registered with
 * a profile's $defs beside it, and its components compiled from there. What the kit validates
 * against, the active profile or a target's, is schemas/index.ts's.
 */
import type { default as Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ProfileError, type Profile } from './profile';
import { openapiDocument } from './spec';

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
export function ajv(): Ajv2020 {
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

// The document has no $id of its own (OpenAPI does not allow one), so it is added under this URI,
// and its `./profile.yaml` refs resolve to the profile registered beside it.
const BASE = 'https://conformance-kit.invalid';
let registered = 0;

/**
 * Registers the document with one profile's $defs beside it and returns the document's URI.
 * Each profile gets its own base and its own copy of the document: Ajv caches compiled schemas
 * by object identity, so a shared document object would keep resolving to the first profile.
 */
export function register(p: Profile): string {
  const dir = registered++ === 0 ? `${BASE}/spec` : `${BASE}/profile-${registered}/spec`;
  ajv().addSchema({ $id: `${dir}/profile.yaml`, $defs: p.$defs });
  ajv().addSchema(structuredClone(openapi) as object, `${dir}/openapi.yaml`);
  return `${dir}/openapi.yaml`;
}

export function componentOf(docUri: string, name: string): ValidateFunction {
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

export function compileAll(p: Profile, docUri: string): Validators {
  const out = {} as Record<ComponentName, ValidateFunction>;
  for (const name of COMPONENTS) out[name] = compileOne(p, docUri, name);
  return Object.freeze(out);
}

/**
 * Each compiled on first use. Playwright's runner loads every test file to list the tests, and so
 * this module, but validates nothing: compiling all at load cost it 0.15 s of CPU per run. A user's
 * profile is compiled whole before any worker starts (checkProfileConsistency, playwright.config.ts).
 */
export function compiledOnUse(p: Profile, docUri: () => string): Validators {
  const out = {} as Record<ComponentName, ValidateFunction>;
  for (const name of COMPONENTS) {
    let compiled: ValidateFunction | undefined;
    Object.defineProperty(out, name, { enumerable: true, get: () => (compiled ??= compileOne(p, docUri(), name)) });
  }
  return Object.freeze(out);
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  if (error.keyword === 'false schema') return `${where} is not allowed here`;
  if (error.keyword === 'enum') {
    return `${where} ${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where} ${error.message}`;
}

/** One validation; each error said once, in words. */
export function run(validator: ValidateFunction, data: unknown): { valid: boolean; errors: string[] } {
  const valid = validator(data) as boolean;
  return { valid, errors: valid ? [] : [...new Set((validator.errors ?? []).map(describe))] };
}

/** Whether a schema is valid JSON Schema (2020-12, the meta-schema), with Ajv's errors when it is not. */
export function metaSchemaErrors(schema: object): string | undefined {
  return ajv().validateSchema(schema) ? undefined : ajv().errorsText(ajv().errors);
}
