import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

// The linter must never phone home; set before the package is first loaded (below, on demand).
process.env.REDOCLY_TELEMETRY = 'off';

const ROOT = path.resolve(__dirname, '..');
const OPENAPI = path.join(ROOT, 'spec', 'openapi.yaml');
const CONFIG = path.join(ROOT, 'redocly.yaml');

type Redocly = typeof import('@redocly/openapi-core');
type Problem = Awaited<ReturnType<Redocly['lint']>>[number];

async function redocly(): Promise<{ core: Redocly; config: Awaited<ReturnType<Redocly['loadConfig']>> }> {
  const core = await import('@redocly/openapi-core');
  return { core, config: await core.loadConfig({ configPath: CONFIG }) };
}

function describe(problems: Problem[]): string {
  return problems
    .map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => `${l.source.absoluteRef}${l.pointer ?? ''}`).join(', ')}`)
    .join('\n');
}

/** Lints the document with one small change, kept in memory beside the real file so ./profile.yaml resolves. */
async function lintPlanted(from: string, to: string): Promise<Problem[]> {
  const { core, config } = await redocly();
  const source = readFileSync(OPENAPI, 'utf8');
  // A plant that does not apply would make the proof vacuous.
  expect(source, `the text to plant over: ${from}`).toContain(from);
  return core.lintFromString({ source: source.replace(from, to), absoluteRef: path.join(ROOT, 'spec', 'planted.yaml'), config });
}

test('redocly.yaml is a valid Redocly configuration', async () => {
  const { core, config } = await redocly();
  const problems = await core.lintConfig({ config });
  expect(problems, describe(problems)).toEqual([]);
});

test('spec/openapi.yaml lints clean under the recommended ruleset: no errors, no warnings', async () => {
  const { core, config } = await redocly();
  const problems = await core.lint({ ref: OPENAPI, config });
  expect(problems, describe(problems)).toEqual([]);
});

test('the lint catches a planted unresolvable $ref', async () => {
  const problems = await lintPlanted("$ref: '#/components/schemas/AssetGroup'", "$ref: '#/components/schemas/AssetGroupp'");
  expect(
    problems.map((p) => p.ruleId),
    describe(problems),
  ).toContain('no-unresolved-refs');
});

test('the lint catches a planted unresolvable reference-profile $ref', async () => {
  const problems = await lintPlanted("$ref: './profile.yaml#/$defs/ProfileErrorDetail'", "$ref: './profile.yaml#/$defs/ProfileErrorDetial'");
  expect(
    problems.map((p) => p.ruleId),
    describe(problems),
  ).toContain('no-unresolved-refs');
});

test('the lint catches a planted invalid type value', async () => {
  const problems = await lintPlanted('        RequestId:\n          type: string', '        RequestId:\n          type: text');
  expect(
    problems.filter((p) => p.severity === 'error').map((p) => p.ruleId),
    describe(problems),
  ).toContain('struct');
});

test('the lint catches a planted example that contradicts its schema', async () => {
  const problems = await lintPlanted("CreateTime: '2024-01-01T00:00:00Z'", "CreateTime: '2024-01-01 00:00'");
  expect(
    problems.map((p) => p.ruleId),
    describe(problems),
  ).toContain('no-invalid-media-type-examples');
});
