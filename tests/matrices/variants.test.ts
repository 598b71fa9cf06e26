/**
 * Proof that no check over-reaches: the conformance suites run against every variant of
 * reference/variants.ts, each the reference server plus one choice the spec leaves open, and each
 * run must fail nothing and leave no MUST unjudged. A failure here is an assumption of the kit that
 * the spec does not make.
 */
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { VARIANTS } from '../../reference/variants';
import { VARIANTS_TABLE_PATH, renderVariantsTable } from '../../reference/variants-table';
import { MUTANTS } from '../../reference/mutants';
import { PROFILE_VARIANTS } from '../../reference/profile-variants';
import { inBatches } from '../helpers/suite-run';
import { expectLegitimate } from '../helpers/suite-run-expect';
import { ROOT } from '../helpers/harness';
import { expectUniqueCamelCase } from '../helpers/name-guards';

const SPEC = readFileSync(path.join(ROOT, 'spec', 'asset-group-interface.md'), 'utf8');

test.describe('variants', () => {
  test.setTimeout(180_000);
  // Several servers per Playwright run (inBatches), each still its own server, run id, workers and conformance.json.
  inBatches(
    VARIANTS,
    (v) => ({ label: `v-${v.name}`, hooks: v.hooks }),
    (variant, runOf) =>
      test(`variant ${variant.name} (${variant.description}) is rated conformant`, async () => {
        const run = await runOf();
        // A failed SHOULD is a warning and leaves the verdict conformant (lenientVersion, lenientAuthHeader warn).
        expectLegitimate(run, `variant ${variant.name} is a legitimate server; the kit must not fail it`);
        // The SHOULDs whose check its choice could mislead: passed, not merely a warning.
        for (const id of variant.passes ?? [])
          expect(
            run.tests.filter((t) => t.requirement === id).map((t) => `${t.status}${t.error ? `: ${t.error}` : ''}`),
            `variant ${variant.name} passes ${id}`,
          ).toEqual(['passed']);
      }),
  );
});

test.describe('variant guards', () => {
  test("variant names are unique camelCase, apart from the mutants', and each quotes the spec verbatim", () => {
    const names = VARIANTS.map((v) => v.name);
    expectUniqueCamelCase(names, 'variant');
    expect(
      names.filter((n) => MUTANTS.some((m) => m.name === n)),
      'names shared with a mutant',
    ).toEqual([]);
    expect(
      VARIANTS.filter((v) => !SPEC.includes(v.allows)).map((v) => v.name),
      'variants whose `allows` is not a sentence of the spec',
    ).toEqual([]);
    expect(VARIANTS.length).toBeGreaterThanOrEqual(15);
  });

  test('reference/variants.md is up to date', () => {
    const current = existsSync(VARIANTS_TABLE_PATH) ? readFileSync(VARIANTS_TABLE_PATH, 'utf8') : '';
    expect(current === renderVariantsTable(), 'reference/variants.md differs from reference/variants.ts: run npm run variants-table').toBe(true);
  });

  test('npm run reference -- --list-variants lists every variant; --variant with an unknown name is a usage error', () => {
    const reference = (args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'reference/main.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
    const listed = reference(['--list-variants']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual([...VARIANTS, ...PROFILE_VARIANTS].map((v) => v.name));
    const unknown = reference(['--variant', 'noSuchVariant', '--port', '0']);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toContain('noSuchVariant');
  });
});
