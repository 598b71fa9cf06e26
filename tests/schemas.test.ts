import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import YAML from 'yaml';
import { eachIdAlone, listBody } from '../suites/list-body';
import {
  checkProfileConsistency,
  COMPONENTS,
  compileComponent,
  errorKinds,
  metaSchemaErrors,
  openapi,
  profileAt,
  validate,
  validators,
  type ComponentName,
} from '../schemas/index';
import { loadProfile, profileFromOverride } from '../schemas/profile';
import { parseYamlWith } from '../schemas/yaml';
import { BASIC_UTC_PATTERN, EXTENDED_UTC_PATTERN, readUtcTimestamp } from '../schemas/timestamp';

interface Case {
  validator: ComponentName;
  description: string;
  data: unknown;
  valid: boolean;
  error?: string;
}

const CASES_PATH = path.join(__dirname, '..', 'schemas', 'cases.yaml');
const cases = YAML.parse(readFileSync(CASES_PATH, 'utf8'), { merge: true }) as Case[];
// "(profile)" cases pin reference-profile choices; a target's override may choose otherwise.
const overridden = process.env.AG_PROFILE;

test.describe('schemas/cases.yaml', () => {
  for (const c of cases) {
    test(c.description, () => {
      test.skip(!!overridden && c.description.startsWith('(profile)'), `reference-profile case; AG_PROFILE=${overridden} is active`);
      const result = validate(c.validator, c.data);
      expect(result.valid, `${c.validator}: ${result.errors.join('; ') || 'no errors'}`).toBe(c.valid);
      if (c.error !== undefined) expect(result.errors.join('\n')).toContain(c.error);
    });
  }
});

test('cases.yaml is well formed and covers every validator with valid and invalid cases', () => {
  const descriptions = cases.map((c) => c.description);
  expect(
    descriptions.filter((d, i) => descriptions.indexOf(d) !== i),
    'duplicate descriptions',
  ).toEqual([]);
  for (const c of cases) {
    expect(COMPONENTS, `${c.description}: unknown validator`).toContain(c.validator);
    expect(typeof c.valid, `${c.description}: valid must be true or false`).toBe('boolean');
    // A literal `<<` key means the file was read without merge keys and the data is not what it says.
    expect(JSON.stringify(c.data) ?? '', `${c.description}: unmerged YAML merge key`).not.toContain('"<<"');
    if (!c.valid) expect(c.error, `${c.description}: an invalid case names its error`).toBeTruthy();
  }
  for (const name of COMPONENTS) {
    expect(cases.filter((c) => c.validator === name && c.valid).length, `${name} valid cases`).toBeGreaterThanOrEqual(2);
    expect(cases.filter((c) => c.validator === name && !c.valid).length, `${name} invalid cases`).toBeGreaterThanOrEqual(3);
  }
});

test('every schema under components/schemas compiles in strict mode', () => {
  const names = Object.keys(openapi.components?.schemas ?? {});
  // ProfileTimestamp is the profile's own (profile.yaml $defs), compiled beside the contract's components.
  expect(names).toEqual(expect.arrayContaining(COMPONENTS.filter((name) => name !== 'ProfileTimestamp')));
  for (const name of names) expect(() => compileComponent(name), name).not.toThrow();
  for (const name of COMPONENTS) expect(typeof validators[name], name).toBe('function');
});

test("every schema under components/schemas and the reference profile's $defs are valid JSON Schema 2020-12", () => {
  // The validators skip this check when they register a schema (schemas/compile.ts): it is made here, once.
  for (const [name, schema] of Object.entries(openapi.components?.schemas ?? {})) expect(metaSchemaErrors(schema), name).toBeUndefined();
  expect(metaSchemaErrors({ $defs: loadProfile(undefined).$defs }), 'profile.yaml $defs').toBeUndefined();
  // And the check can fail: a bound of the wrong type.
  expect(metaSchemaErrors({ $defs: { Name: { type: 'string', maxLength: 'long' } } })).toMatch(/maxLength/);
});

test('validation errors read as instance path and message', () => {
  const result = validate('ListAssetGroupsResponse', {
    ResponseMetadata: { RequestId: 'r', Action: 'ListAssetGroups', Version: '2024-01-01', Service: 's', Region: 'r' },
    Result: { Items: [{ CreateTime: '2024-01-01T08:00:00' }], TotalCount: 1, PageNumber: 1, PageSize: 10 },
  });
  expect(result.valid).toBe(false);
  expect(result.errors).toContain('/Result/Items/0/CreateTime must match format "date-time"');
  expect(result.errors).toContain("/Result/Items/0 must have required property 'Id'");
});

test("the contract's Timestamp carries schemas/timestamp.ts's two forms, and readUtcTimestamp reads every Timestamp case it accepts", () => {
  const timestamp = openapi.components?.schemas?.Timestamp as { anyOf: { pattern: string }[] };
  expect(timestamp.anyOf.map((form) => form.pattern)).toEqual([EXTENDED_UTC_PATTERN, BASIC_UTC_PATTERN]);
  for (const c of cases.filter((c) => c.validator === 'Timestamp')) expect(readUtcTimestamp(c.data) !== undefined, c.description).toBe(c.valid);
  // One instant in either format, its fraction as written.
  expect(readUtcTimestamp('20261123T165046.5+0000')).toEqual({ ...readUtcTimestamp('2026-11-23T16:50:46.500+00:00'), fraction: '5' });
  expect(readUtcTimestamp('2026-02-30T12:00:00Z')).toBeUndefined();
});

test('validate refuses a component it has no validator for', () => {
  expect(() => validate('AssetGroupp', {})).toThrow(/no validator AssetGroupp/);
});

test('errorKinds gives the spec Errors table for CreateAssetGroup', () => {
  expect(errorKinds('CreateAssetGroup')).toEqual({
    400: 'AssetError',
    401: 'TokenAuthError',
    403: 'AssetError',
    429: 'UpstreamRateLimit',
    500: 'AssetError',
    503: 'AssetError',
  });
});

test('errorKinds gives the spec Errors table for ListAssetGroups', () => {
  expect(errorKinds('ListAssetGroups')).toEqual({
    400: 'AssetBadRequest',
    401: 'TokenAuthError',
    403: 'AssetError',
    500: 'AssetError',
  });
});

test('errorKinds refuses an operation the document does not have', () => {
  expect(() => errorKinds('DeleteAssetGroup')).toThrow(/no operation DeleteAssetGroup/);
});

test('checkProfileConsistency finds no problem in the reference profile', () => {
  expect(checkProfileConsistency(loadProfile())).toEqual([]);
});

test('checkProfileConsistency reports settings that the profile schemas contradict', () => {
  const inconsistent = loadProfile();
  // Settings changed, $defs left as they are: exactly the mistake an override can make.
  inconsistent.list.filterField = 'Filters';
  inconsistent.list.pageSize.maximum = 200;
  inconsistent.create.requiredFields = ['Name', 'Title'];
  inconsistent.create.maxLength = { ...inconsistent.create.maxLength, Name: 80 };
  inconsistent.error.codePointer = '/Error/Code';
  const problems = checkProfileConsistency(inconsistent);
  for (const setting of ['list.filterField', 'list.pageSize.maximum', 'create.requiredFields', 'create.maxLength.Name', 'error.codePointer']) {
    expect(
      problems.some((p) => p.startsWith(`${setting}:`)),
      `a problem for ${setting} in:\n${problems.join('\n')}`,
    ).toBe(true);
  }
});

test('checkProfileConsistency reports an Id filter of one Id whose schema still takes a list', () => {
  const oneId = loadProfile();
  oneId.list.idFilterTakes = 'one';
  expect(checkProfileConsistency(oneId).join('\n')).toMatch(/^list\.idFilterTakes: .*"GroupIds":\["group-1"\].* should be an invalid/m);
});

test('a one-Id profile sends each Id alone: listBody refuses several, eachIdAlone splits them', () => {
  const oneId = loadProfile();
  oneId.list.idFilterTakes = 'one';
  expect(listBody(oneId, { groupIds: ['g1'] })).toEqual({ Filter: { GroupIds: 'g1' } });
  expect(() => listBody(oneId, { groupIds: ['g1', 'g2'] })).toThrow(/takes one Id/);
  expect(eachIdAlone(oneId, { groupIds: ['g1', 'g2'], groupType: 'AIGC' })).toEqual([
    { groupIds: ['g1'], groupType: 'AIGC' },
    { groupIds: ['g2'], groupType: 'AIGC' },
  ]);
  // The reference profile sends them together, as one list.
  expect(eachIdAlone(loadProfile(), { groupIds: ['g1', 'g2'] })).toEqual([{ groupIds: ['g1', 'g2'] }]);
  expect(listBody(loadProfile(), { groupIds: ['g1', 'g2'] })).toEqual({ Filter: { GroupIds: ['g1', 'g2'] } });
});

test('checkProfileConsistency reports $defs that do not compile', () => {
  const broken = loadProfile();
  broken.$defs = { ...broken.$defs, ProfileTimestamp: { type: 'string', patern: '^x$' } };
  const problems = checkProfileConsistency(broken);
  expect(problems.join('\n')).toMatch(/does not compile.*patern/);
});

test('checkProfileConsistency reports $defs that are not valid JSON Schema, before any worker compiles them', () => {
  const broken = loadProfile();
  broken.$defs = { ...broken.$defs, ProfileTimestamp: { type: 'string', maxLength: 'long' } };
  expect(checkProfileConsistency(broken).join('\n')).toMatch(/not valid JSON Schema.*maxLength/);
});

test('checkProfileConsistency accepts an override whose settings and $defs agree', () => {
  const renamed = loadProfile();
  const reference = renamed.$defs.ProfileListRequest as { properties: Record<string, unknown> };
  renamed.list.filterField = 'Filters';
  renamed.$defs = {
    ...renamed.$defs,
    ProfileListRequest: { ...reference, properties: { ...reference.properties, Filters: reference.properties.Filter } },
  };
  // Passing here means the override's own $defs were compiled: the reference ones lack `Filters`.
  expect(checkProfileConsistency(renamed)).toEqual([]);
});

test.describe('a profile setting is enough on its own: the $defs it decides are written from it', () => {
  const profileFile = (profile: Record<string, unknown>) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'agc-profile-')), 'profile.yaml');
    writeFileSync(file, YAML.stringify(profile));
    return file;
  };

  test("a file of timestamps: { format: iso8601-utc } alone loads, agrees with its $defs, and judges +00:00 the profile's format", () => {
    const file = profileFile({ timestamps: { format: 'iso8601-utc' } });
    const target = profileAt(file);
    expect(target.profile.timestamps.format).toBe('iso8601-utc');
    expect(checkProfileConsistency(target.profile)).toEqual([]);
    expect(target.validate('ProfileTimestamp', '2024-01-01T12:00:00+00:00')).toEqual({ valid: true, errors: [] });
    expect(target.validate('ProfileTimestamp', '20240101T120000Z').valid).toBe(true);
    // Any UTC form is the contract's Timestamp, no more: the extended date-time with a basic offset is none.
    expect(target.validate('ProfileTimestamp', '2024-01-01T12:00:00+0000').valid).toBe(false);
    // The reference profile, the same schemas' other owner, keeps its Z.
    expect(profileAt(undefined).validate('ProfileTimestamp', '2024-01-01T12:00:00+00:00').valid).toBe(false);
  });

  test('every setting with a derived schema is enough alone: list, create and error settings changed in a file without $defs agree', () => {
    const p = loadProfile(
      profileFile({
        list: { filterField: 'Filters', filters: { groupIds: 'Ids' }, idFilterTakes: 'one', pageSize: { field: 'Size', maximum: 200 } },
        create: { requiredFields: ['Name', 'Title'], maxLength: { Name: 80, Description: null }, groupTypes: ['AIGC', 'MANUAL'] },
        error: { codePointer: '/Error/Code', messagePointer: '/Error/Message' },
      }),
    );
    expect(checkProfileConsistency(p)).toEqual([]);
    expect(Object.keys((p.$defs.ProfileListRequest as { properties: object }).properties)).toEqual(['Filters', 'PageNumber', 'Size']);
  });

  test("settings the reference's own keep the reference's $defs; a $defs entry the file gives is the file's", () => {
    const reference = loadProfile();
    expect(loadProfile(profileFile({ name: 'same', timestamps: { format: 'rfc3339-utc' } })).$defs).toEqual(reference.$defs);
    const ownSchema = { description: 'mine', type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+00:00)$' };
    const own = loadProfile(profileFile({ timestamps: { format: 'iso8601-utc' }, $defs: { ProfileTimestamp: ownSchema } }));
    expect(own.$defs.ProfileTimestamp).toEqual(ownSchema);
    expect(checkProfileConsistency(own)).toEqual([]);
  });

  test('a file that gives a setting and a schema that contradicts it is refused, naming the setting', () => {
    const zOnly = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' };
    // Under its name before 0.2 (Timestamp) as well: the file gave it.
    for (const defs of [{ ProfileTimestamp: zOnly }, { Timestamp: zOnly }]) {
      const p = loadProfile(profileFile({ timestamps: { format: 'iso8601-utc' }, $defs: defs }));
      expect(checkProfileConsistency(p).join('\n'), Object.keys(defs)[0]).toMatch(
        /^timestamps\.format: "2024-01-01T12:00:00\.5\+00:00" should be a valid ProfileTimestamp/,
      );
    }
  });
});

test('a null in a profile override removes the reference setting; a required one removed is a shape error', () => {
  const unbounded = profileFromOverride({ name: 'unbounded', create: { maxLength: { Description: null } } }, 'unbounded');
  expect(unbounded.create.maxLength).toEqual({ Name: 64 });
  expect(() => profileFromOverride({ name: 'broken', list: { filterField: null } }, 'broken')).toThrow(/list\.filterField must be a string/);
});

test.describe('schemas/yaml.ts keeps each parse as JSON, for the next process', () => {
  const KIT_FILES = ['spec/requirements.yaml', 'spec/openapi.yaml', 'spec/profile.yaml', 'schemas/cases.yaml'].map((f) => path.join(__dirname, '..', f));
  const freshDir = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'agc-yaml-')), 'cache');

  test('every YAML file of the kit parses as the yaml package parses it, from the text and from the kept entry, which only its user can read', () => {
    const dir = freshDir();
    for (const file of KIT_FILES) {
      const text = readFileSync(file, 'utf8');
      expect(parseYamlWith(text, dir), file).toEqual(YAML.parse(text));
    }
    const entries = readdirSync(dir);
    expect(entries).toHaveLength(KIT_FILES.length);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const entry of entries) expect(statSync(path.join(dir, entry)).mode & 0o777, entry).toBe(0o600);
    // The second read comes from the entry: an entry changed on disk is what comes back (nothing else reads the entries).
    const text = readFileSync(KIT_FILES[2], 'utf8');
    const [entry] = readdirSync(dir).filter(
      (name) => JSON.stringify(JSON.parse(readFileSync(path.join(dir, name), 'utf8'))) === JSON.stringify(YAML.parse(text)),
    );
    writeFileSync(path.join(dir, entry), '{"kept": true}');
    expect(parseYamlWith(text, dir)).toEqual({ kept: true });
    // Another text is another entry.
    expect(parseYamlWith(`${text}\n# changed\n`, dir)).toEqual(YAML.parse(text));
  });

  test('a value JSON cannot hold is parsed every time and never kept; a YAML error is thrown as the parser throws it', () => {
    const dir = freshDir();
    expect(parseYamlWith('limit: .inf\n', dir)).toEqual({ limit: Infinity });
    expect(readdirSync(dir)).toEqual([]);
    expect(() => parseYamlWith('a: [1,\n', dir)).toThrow(/Flow sequence|Missing|Unexpected/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a cache folder others may write to is not used: the text is parsed and nothing is kept or read there', () => {
    const dir = freshDir();
    const text = 'a: 1\n';
    parseYamlWith(text, dir);
    const [entry] = readdirSync(dir);
    writeFileSync(path.join(dir, entry), '{"a": "planted"}');
    chmodSync(dir, 0o777);
    expect(parseYamlWith(text, dir)).toEqual({ a: 1 });
    expect(parseYamlWith('b: 2\n', dir)).toEqual({ b: 2 });
    expect(readdirSync(dir)).toEqual([entry]);
  });
});
