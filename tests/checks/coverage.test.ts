/**
 * The proof that every check has a unit test: each function a family file of suites/checks exports
 * (suites/checks/index.ts, CHECKS_BY_FAMILY), each of preconditions.ts, and each step they export
 * as a value (JSON_ANSWER, ERROR_BODY…), has a row of tests/checks/cases/ that fails and one that
 * passes. kit.ts builds checks and holds none.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CHECKS_BY_FAMILY } from '../../suites/checks';
import { verdictOf, type Case } from './case';
import { CASES as ENV } from './cases/env';
import { CASES as VER } from './cases/ver';
import { CASES as AUTH } from './cases/auth';
import { CASES as ERR } from './cases/err';
import { CASES as CREATE } from './cases/create';
import { CASES as LIST } from './cases/list';
import { CASES as PAGE } from './cases/page';
import { CASES as SCOPE } from './cases/scope';
import { CASES as CHAN } from './cases/chan';
import { CASES as VIS } from './cases/vis';
import { CASES as SCHEMA } from './cases/schema';
import { CASES as INPUT } from './cases/input';
import { CASES as PRE } from './cases/preconditions';

const ROWS: readonly Case[] = [...ENV, ...VER, ...AUTH, ...ERR, ...CREATE, ...LIST, ...PAGE, ...SCOPE, ...CHAN, ...VIS, ...SCHEMA, ...INPUT, ...PRE];

/** A step exported as a value: an Owned check, or a list of steps. */
const isStep = (value: unknown): boolean =>
  (typeof value === 'object' && value !== null && 'owner' in value && 'check' in value) ||
  (Array.isArray(value) && value.every((step) => isStep(step) || typeof step === 'function'));

/**
 * Every module of suites/checks but kit.ts (what checks are built from) and index.ts (which gathers them), read from
 * the folder rather than from index.ts, so that a family file index.ts does not list yet is covered all the same.
 */
const CHECKS_DIR = path.join(__dirname, '..', '..', 'suites', 'checks');
const MODULES: Record<string, Record<string, unknown>> = Object.fromEntries(
  readdirSync(CHECKS_DIR)
    .filter((file) => file.endsWith('.ts') && !['kit.ts', 'index.ts'].includes(file))
    .map((file) => [path.basename(file, '.ts'), require(path.join(CHECKS_DIR, file)) as Record<string, unknown>]),
);
const CHECKS = Object.entries(MODULES).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => typeof value === 'function' || isStep(value))
    .map(([name]) => ({ module, name })),
);

test('every exported check has a unit test row that fails and one that passes', () => {
  // The rows' own verdicts are their test files' to assert; what matters here is which side each row is on.
  const sides = new Map<string, Set<boolean>>();
  for (const row of ROWS) sides.set(row.check, (sides.get(row.check) ?? new Set()).add(row.fails));
  const gaps = CHECKS.filter(({ name }) => !(sides.get(name)?.has(true) && sides.get(name)?.has(false))).map(
    ({ module, name }) => `${module}.${name}: ${sides.has(name) ? `only rows that ${sides.get(name)!.has(true) ? 'fail' : 'pass'}` : 'no row'}`,
  );
  expect(gaps, 'checks without a failing and a passing unit test row').toEqual([]);
  // The folder holds the families index.ts gathers, and preconditions.ts.
  expect(Object.keys(MODULES).sort()).toEqual([...Object.keys(CHECKS_BY_FAMILY).map((family) => family.toLowerCase()), 'preconditions'].sort());
  expect(CHECKS.length).toBeGreaterThan(50);
});

test('every row names an exported check, and is on the side it says', () => {
  const names = new Set(CHECKS.map(({ name }) => name));
  expect(ROWS.map((row) => row.check).filter((name) => !names.has(name))).toEqual([]);
  // A row on the wrong side is its family test's failure too; said here at once so that the guard never counts one.
  expect(ROWS.filter((row) => (verdictOf(row).failure !== undefined) !== row.fails).map((row) => `${row.check}: ${row.title}`)).toEqual([]);
});

test('the recordings hold no token', () => {
  const dir = path.join(__dirname, 'exchanges');
  const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  expect(files.length).toBeGreaterThan(10);
  // record.ts gives each recording tokens of its own, rec-<24 hex digits>, and redacts them; the defaults must not appear either.
  const leaks = files.filter((file) => /rec-[0-9a-f]{24}|ref-(primary|other-user|channel-a|channel-b)-token/.test(readFileSync(path.join(dir, file), 'utf8')));
  expect(leaks).toEqual([]);
});
