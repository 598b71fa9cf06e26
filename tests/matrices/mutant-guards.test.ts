/**
 * Guards over the mutant matrix's data (reference/mutants.ts, reference/mutants.expected.yaml, the checks of suites/checks,
 * reference/kill-matrix.md), and over how the matrix counts: a failed test that keeps its worker still counts as failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { FAILURES_KEEP_WORKER } from '../../config';
import { DURABILITY_MUTANTS, MUTANTS } from '../../reference/mutants';
import { defaultHooks } from '../../reference/server';
import { loadProfile } from '../../schemas/profile';
import { GroupStore, type GroupRecord } from '../../reference/store';
import type { HookContext } from '../../reference/behaviour';
import { KILL_MATRIX_PATH, renderKillMatrix } from '../../reference/kill-matrix';
import { loadCatalogue, familyOf } from '../../schemas/requirements';
import { runSuites, runSuitesBatch } from '../helpers/suite-run';
import { sorted } from '../helpers/suite-run-read';
import { expected, exportedChecks, exportOf, killedChecks } from './mutant-tests';
import { expectUniqueCamelCase } from '../helpers/name-guards';

const ROOT = path.resolve(__dirname, '..', '..');
const catalogue = loadCatalogue();

test.describe('mutant guards', () => {
  const names = MUTANTS.map((m) => m.name);
  const byId = new Map(catalogue.requirements.map((r) => [r.id, r]));

  test('mutant names are unique camelCase and every mutant has an expected entry and every entry a mutant', () => {
    expectUniqueCamelCase(names, 'mutant');
    expect(
      names.filter((n) => !(n in expected.mutants)),
      'mutants without an entry in reference/mutants.expected.yaml',
    ).toEqual([]);
    expect(
      Object.keys(expected.mutants).filter((n) => !names.includes(n)),
      'entries of reference/mutants.expected.yaml without a mutant',
    ).toEqual([]);
    expect(MUTANTS.length).toBeGreaterThanOrEqual(30);
  });

  test('durability mutants (judged by agc certify --span, never by the kill matrix) are named apart, target an assessed requirement and are described', () => {
    const durable = DURABILITY_MUTANTS.map((m) => m.name);
    expectUniqueCamelCase([...names, ...durable], 'mutant');
    expect(
      durable.filter((n) => n in expected.mutants),
      'durability mutants in reference/mutants.expected.yaml, which the kill matrix reads',
    ).toEqual([]);
    for (const m of DURABILITY_MUTANTS) {
      expect(byId.get(m.breaks)?.level, m.name).toBe('MUST');
      expect(m.description, m.name).toContain('agc certify --span');
      expect(Object.keys(m.hooks), m.name).toHaveLength(1);
    }
  });

  test('each mutant targets an assessed requirement, names it among its expected failures, and is described', () => {
    const problems: string[] = [];
    for (const m of MUTANTS) {
      const target = byId.get(m.breaks);
      if (!target || target.level === 'NOT-ASSESSED') problems.push(`${m.name}: breaks ${m.breaks}, not an assessed requirement`);
      if (!expected.mutants[m.name]?.fails.includes(m.breaks)) problems.push(`${m.name}: its target ${m.breaks} is not in its expected failures`);
      if (!m.description.trim()) problems.push(`${m.name}: no description`);
      // One deviation, in one step, or two where it takes a step that decides and one that answers (a stack's own
      // page rendered on the wire; Ids assigned as numbers and listed as JSON numbers).
      const steps = Object.keys(m.hooks).length;
      if (steps < 1 || steps > 2) problems.push(`${m.name}: modifies ${steps} steps; a mutant modifies one, or two that make one deviation`);
    }
    expect(problems).toEqual([]);
  });

  test('expected failures name only assessed requirements, and every mutant is killed by at least one', () => {
    const problems: string[] = [];
    for (const [name, entry] of Object.entries(expected.mutants)) {
      if (entry.fails.length === 0) problems.push(`${name}: survives (no requirement fails)`);
      for (const id of entry.fails) if (!byId.has(id) || byId.get(id)!.level === 'NOT-ASSESSED') problems.push(`${name}: ${id} is not an assessed requirement`);
    }
    expect(problems).toEqual([]);
  });

  test('one deviation, few findings: no mutant fails more than three requirements', () => {
    const wide = Object.entries(expected.mutants)
      .filter(([, e]) => e.fails.length > 3)
      .map(([name, e]) => `${name}: ${e.fails.join(', ')}`);
    expect(wide, 'mutants whose single deviation fails more than three requirements').toEqual([]);
  });

  test('every MUST and SHOULD is killed by at least one mutant, and every family is targeted', () => {
    const killed = new Set(Object.values(expected.mutants).flatMap((e) => e.fails));
    const unkilled = catalogue.requirements.filter((r) => (r.level === 'MUST' || r.level === 'SHOULD') && !killed.has(r.id)).map((r) => r.id);
    expect(unkilled, 'MUST and SHOULD requirements no mutant kills').toEqual([]);
    const targeted = new Set(MUTANTS.map((m) => familyOf(m.breaks)));
    expect(
      Object.keys(catalogue.families).filter((f) => !targeted.has(f)),
      'families no mutant targets',
    ).toEqual([]);
  });

  test('every check of suites/checks is the failing check of at least one mutant', () => {
    const unreachable = Object.entries(expected.unreachableChecks);
    expect(unreachable.length, 'unreachable checks must stay a short, explicit list').toBeLessThanOrEqual(3);
    for (const [name, reason] of unreachable) expect(reason?.trim(), `unreachable check ${name} needs a reason`).toBeTruthy();
    const covered = (name: string) => name in expected.unreachableChecks || [...killedChecks].some((c) => exportOf(c) === name);
    expect(
      exportedChecks.filter((name) => !covered(name)),
      'checks exported by suites/checks that no mutant makes fail',
    ).toEqual([]);
    expect(
      [...killedChecks].filter((c) => exportOf(c) === undefined),
      'failing checks that no family file of suites/checks exports',
    ).toEqual([]);
  });

  test('npm run reference -- --list-mutants lists every mutant; --mutant with an unknown name is a usage error', () => {
    const reference = (args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'reference/main.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
    const listed = reference(['--list-mutants']);
    expect(listed.status, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([...names, ...DURABILITY_MUTANTS.map((m) => m.name)]);
    for (const m of [...MUTANTS, ...DURABILITY_MUTANTS]) expect(listed.stdout).toContain(`${m.name}  (${m.breaks})  ${m.description}`);
    const unknown = reference(['--mutant', 'noSuchMutant', '--port', '0']);
    expect(unknown.status).toBe(3);
    expect(unknown.stderr).toContain('noSuchMutant');
  });

  test('a mutant that counts beyond the scope reads its page and its count from one snapshot, even across a refresh', () => {
    // Two reads of the snapshot within one list can straddle a refresh: the count then held a group the page did not,
    // a deviation of another kind than the mutant's (PAGE-05 failed now and then in the matrix). The clock below puts
    // the refresh that shows the group between the first read and any later one.
    let reads = -1;
    const store = new GroupStore(100, () => (reads < 0 ? 0 : reads++ === 0 ? 190 : 210));
    const principal = { userId: 'u1', channel: null, token: 't' };
    const group = (id: string, createdAt: number): GroupRecord => ({
      Id: id,
      AssetSpaceId: 'space-u1',
      Name: `n-${id}`,
      Title: '',
      Description: '',
      GroupType: 'AIGC',
      ProjectName: 'default',
      CreateTime: '2026-01-01T00:00:00Z',
      UpdateTime: '2026-01-01T00:00:00Z',
      ownerUserId: 'u1',
      channel: null,
      createdAt,
    });
    store.add(group('old', 50));
    store.add(group('new', 150));
    reads = 0;
    const ctx: HookContext = { profile: loadProfile(), store, rate: null, tokens: new Map(), hooks: { ...defaultHooks } };
    const mutant = MUTANTS.find((m) => m.name === 'totalCountUnscoped')!;
    const listed = mutant.hooks.listGroups!(principal, { filter: {}, pageNumber: 1, pageSize: 10 }, ctx);
    expect({ items: listed.Items.map((item) => item.Id), total: listed.TotalCount }).toEqual({ items: ['old'], total: 1 });
  });

  test('a failed test counts as a failure in the matrix though it keeps its worker, and a passing test as none', async () => {
    test.setTimeout(60_000);
    // In the matrix a failed test is marked as failing by expectation (suites/fixtures.ts, keepWorker), to spare
    // a worker restart: that must never hide the failure, nor touch the tests that pass, in this run or the next.
    // Two ways a test fails: its own check (createdWith201), and a finding of the create-and-wait phase that its
    // owner's test fails with (offsetTimesPageSize: PAGE-05 by blockByCause, suites/dataset.ts).
    const created = MUTANTS.find((m) => m.name === 'createdWith201')!;
    const offset = MUTANTS.find((m) => m.name === 'offsetTimesPageSize')!;
    const runs = await runSuitesBatch([
      { label: 'first', hooks: created.hooks },
      { label: 'second', hooks: created.hooks },
      { label: 'third', hooks: offset.hooks },
    ]);
    for (const label of ['first', 'second']) {
      const run = runs.get(label)!;
      expect(run.fails, label).toEqual(['CREATE-01']);
      expect(run.tests.find((t) => t.requirement === 'CREATE-01')?.status, label).toBe('failed');
      expect(run.tests.find((t) => t.requirement === 'AUTH-04')?.status, label).toBe('passed');
      expect(run.verdict, label).toBe('non-conformant');
    }
    const third = runs.get('third')!;
    expect(third.fails).toEqual(expected.mutants.offsetTimesPageSize.fails);
    expect(third.tests.filter((t) => t.requirement === 'PAGE-05').map((t) => t.status)).toContain('failed');
    expect(third.verdict).toBe('non-conformant');
    // One worker judged all three servers: no failure above cost a restart.
    expect(sorted(['first', 'second', 'third'].flatMap((label) => runs.get(label)!.workerIndexes.map(String)))).toEqual(['0']);
  });

  test("a run of the kit leaves Playwright's outcomes true: each failed test is unexpected, under the kit's console and under Playwright's list", async () => {
    test.setTimeout(60_000);
    // channelIgnored fails two requirements, in tests of their own. One worker (RUN.workers) judges the run either way.
    const mutant = MUTANTS.find((m) => m.name === 'channelIgnored')!;
    const kit = await runSuites('kit-console', mutant.hooks);
    // Even with the matrices' variable set by hand: a run of the kit removes it (playwright.config.ts).
    const list = await runSuites('list-console', mutant.hooks, {}, { console: 'list', env: { [FAILURES_KEEP_WORKER]: '1' } });
    for (const run of [kit, list]) {
      expect(run.fails).toEqual(expected.mutants.channelIgnored.fails);
      expect(run.verdict).toBe('non-conformant');
      const failed = run.tests.filter((t) => t.status === 'failed');
      expect(failed.length).toBeGreaterThanOrEqual(2);
      expect(failed.map((t) => t.outcome)).toEqual(failed.map(() => 'unexpected'));
      // Playwright's own behaviour: a new worker after each failed test.
      expect(run.workerIndexes.length).toBeGreaterThanOrEqual(3);
    }
    // The kit's console: each failure is a ✘ line and counted.
    const failedLines = kit.stdout.split('\n').filter((line) => line.startsWith('  ✘  '));
    expect(failedLines.length).toBe(kit.tests.filter((t) => t.status === 'failed').length);
    expect(kit.stdout).toMatch(new RegExp(`\\n  ${failedLines.length} failed\\n`));
    expect(kit.stdout).toContain('\n  1) ');
  });

  test('reference/kill-matrix.md is up to date', () => {
    const current = existsSync(KILL_MATRIX_PATH) ? readFileSync(KILL_MATRIX_PATH, 'utf8') : '';
    expect(
      current === renderKillMatrix(expected),
      'reference/kill-matrix.md differs from what reference/mutants.expected.yaml gives: run npm run kill-matrix',
    ).toBe(true);
  });
});
