/** What the package says and ships: its metadata, a publish dry run, and the files npm pack puts in it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './helpers/fixtures';
import { exec, readJson, ROOT } from './helpers/harness';
import { kitEnv, output, TEST_ONLY } from './helpers/package-helpers';

test.describe.configure({ mode: 'parallel' });

/**
 * npm's warnings that are about the machine, not the package: its own configuration (an npmrc
 * setting this npm no longer knows or has deprecated) and the registry login a dry run does not need.
 */
const ENVIRONMENT_WARNING = [/^npm warn Unknown (user|env|project|global|builtin|cli) config /i, /^npm warn config /i, /requires you to be logged in/i];

test('package.json says what a published package must: Apache-2.0, not private, Node 20, the agc bin', () => {
  const pkg = readJson<Record<string, any>>(path.join(ROOT, 'package.json'));
  expect(pkg.name).toBe('asset-group-conformance-kit');
  expect(pkg.private).toBeUndefined();
  expect(pkg.license).toBe('Apache-2.0');
  // 20.19: https-proxy-agent and http-proxy-agent are ES modules, which the kit's CommonJS loads through require(esm).
  expect(pkg.engines).toEqual({ node: '>=20.19' });
  expect(pkg.bin).toEqual({ agc: 'bin/agc.mjs' });
  expect(readFileSync(path.join(ROOT, 'bin', 'agc.mjs'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  expect(typeof pkg.description).toBe('string');
  expect(pkg.keywords.length).toBeGreaterThan(0);
  // The licence text itself, as the Apache Software Foundation publishes it.
  const licence = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  expect(licence).toContain('Apache License\n                           Version 2.0, January 2004');
  expect(licence).toContain('END OF TERMS AND CONDITIONS');
});

test('npm publish --dry-run exits 0 with no warning about the package', async () => {
  // --dry-run publishes nothing; it does ask the registry whether the version already exists. Its own log level: what it says
  // is read below, and `npm run -s` (the bench runs npm test so) would otherwise pass on npm_config_loglevel=silent.
  const done = await exec('npm', ['publish', '--dry-run', '--ignore-scripts', '--loglevel=notice'], { cwd: ROOT, env: kitEnv(), timeoutMs: 120_000 });
  expect(done.status, output(done)).toBe(0);
  const all = `${done.stdout}\n${done.stderr}`;
  expect(all, output(done)).toMatch(/\(dry-run\)/);
  expect(all, output(done)).toMatch(/^\+ asset-group-conformance-kit@\d+\.\d+\.\d+/m);
  expect(all, output(done)).toMatch(/^npm notice .*\bLICENSE$/m);
  const lines = all.split('\n').map((line) => line.trim());
  expect(lines.filter((line) => /^npm (err|error)\b/i.test(line))).toEqual([]);
  // Anything npm auto-corrects or questions in package.json ("npm pkg fix", a cleaned bin, a
  // normalised repository, a missing field) is a warning of its own: none may be left.
  const warnings = lines.filter((line) => /^npm warn\b/i.test(line));
  expect(warnings.filter((line) => !ENVIRONMENT_WARNING.some((allowed) => allowed.test(line)))).toEqual([]);
});

test('npm pack ships what running needs, and no tests, bench or examples', async () => {
  const done = await exec('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, env: kitEnv(), timeoutMs: 60_000 });
  expect(done.status, output(done)).toBe(0);
  const [{ files, size }] = JSON.parse(done.stdout) as { files: { path: string }[]; size: number }[];
  const paths = files.map((f) => f.path);
  for (const needed of [
    'package.json',
    'README.md',
    'LICENSE',
    '.env.example',
    'bin/agc.mjs',
    'common/exit-codes.mjs',
    'discover/main.ts',
    'discover/discovery.ts',
    'compare/main.ts',
    'playwright.config.ts',
    'suites/global-setup.ts',
    'config/index.ts',
    'reporters/verdict.ts',
    'schemas/index.ts',
    'schemas/conformance-report.schema.json',
    'reference/main.ts',
    'reference/server.ts',
    // `agc reference --mutant/--variant` and their --list-* read these.
    'reference/mutants.ts',
    'reference/mutants/auth.ts',
    'reference/variants.ts',
    'reference/stack-variants.ts',
    'reference/profile-variants.ts',
    'spec/openapi.yaml',
    'spec/openapi.single-path.yaml',
    'spec/profile.yaml',
    'spec/requirements.yaml',
    // The README's pages and its picture of the report, so that its links hold in an installed kit.
    'docs/README.md',
    'docs/reports.md',
    'docs/images/report-failing.png',
  ]) {
    expect(paths, needed).toContain(needed);
  }
  expect(
    paths.some((p) => p.startsWith('suites/') && p.endsWith('.spec.ts')),
    'the suites',
  ).toBe(true);
  expect(paths.filter((p) => TEST_ONLY.test(p))).toEqual([]);
  // Loose: a stray folder (node_modules, a report, a bench dataset) would be megabytes.
  expect(size, 'packed size in bytes').toBeLessThan(1024 * 1024);
});
