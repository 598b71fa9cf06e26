/** agc's help, its exit codes as every command and both tables of the docs give them, and the example workflow's commands. */
import { test, expect } from './helpers/fixtures';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { runAgc, ROOT, type KitRun } from './helpers/harness';
import { EXIT, EXIT_LINES } from '../common/exit-codes.mjs';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'agc-cli-'));

const noStackTrace = (run: KitRun) => expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

// ---------------------------------------------------------------- the CLI and the CI recipe

test('agc --help lists every option of run and merge, and the exit codes', async () => {
  const run = await runAgc(['--help'], {});
  expect(run.status).toBe(0);
  for (const option of [
    '--base-url',
    '--report-dir',
    '--profile',
    '--waivers',
    '--baseline',
    '--visibility-timeout',
    '--request-timeout',
    '--seed',
    '--num-runs',
    '--shard',
    '--blob-dir',
    '--workers',
    '--grep',
    '--strict-waivers',
    '--ca-file',
  ])
    expect(run.stdout).toContain(option);
  for (const [code, meaning] of EXIT_LINES) expect(run.stdout).toContain(`  ${code}  ${meaning}`);
  const source = readFileSync(path.join(ROOT, 'bin', 'options.mjs'), 'utf8');
  const declared = [...source.matchAll(/^ {2}'?([a-z-]+)'?: \{ type:/gm)].map((m) => `--${m[1]}`);
  expect(declared.length).toBeGreaterThan(10);
  for (const option of declared) expect(run.stdout, `${option} is declared but not in --help`).toContain(option);
});

test("agc reference --help shows the reference server's options", async () => {
  const run = await runAgc(['reference', '--help'], {});
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('--lag MS');
});

test('every command exits with the same codes: a usage error is 3 everywhere, and --help prints them', async () => {
  const usage: [string, string[]][] = [
    ['agc with no command', []],
    ['agc with an unknown command', ['bogus']],
    ['agc run', ['run', '--bogus']],
    ['agc merge', ['merge']],
    // Playwright's merge-reports would answer it with a stack trace of its own.
    ['agc merge of a folder without blob reports', ['merge', tmp()]],
    ['agc reference', ['reference', '--bogus']],
    ['agc profile', ['profile', 'bogus']],
    ['agc profile discover', ['profile', 'discover', '--bogus']],
  ];
  const runs = await Promise.all(usage.map(([, args]) => runAgc(args, {}, { timeoutMs: 60_000 })));
  for (const [i, run] of runs.entries()) {
    expect(run.status, `${usage[i][0]}: ${run.stdout}${run.stderr}`).toBe(EXIT.error);
    noStackTrace(run);
  }
  for (const args of [
    ['reference', '--help'],
    ['profile', 'discover', '--help'],
  ]) {
    const help = await runAgc(args, {});
    expect(help.status).toBe(EXIT.ok);
    for (const [code, meaning] of EXIT_LINES) expect(help.stdout, args.join(' ')).toContain(`  ${code}  ${meaning}`);
  }
});

test('the exit-code tables of docs/cli.md and the README are the ones common/exit-codes.mjs defines', () => {
  const cli = readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
  const section = cli.slice(cli.indexOf('## Exit codes'), cli.indexOf('## Workers'));
  expect(section, 'docs/cli.md has its section "Exit codes" before "Workers"').toContain('| exit |');
  const rows = [...section.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
  expect(rows).toEqual(EXIT_LINES.map(([code]) => code));
  expect(rows).toEqual([EXIT.ok, EXIT.nonConformant, EXIT.incomplete, EXIT.error, EXIT.staleWaivers]);
  // The README's short table: the same codes, each with the verdict word EXIT_LINES gives it.
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf('| exit | verdict |');
  const short = readme.slice(from, readme.indexOf('\n\n', from));
  const readmeRows = [...short.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((m) => [Number(m[1]), m[2]] as const);
  expect(readmeRows.map(([code]) => code)).toEqual(EXIT_LINES.map(([code]) => code));
  for (const [i, [, meaning]] of EXIT_LINES.entries()) {
    const word = /^[a-z-]+(?=:)/.exec(meaning)?.[0];
    if (word) expect(readmeRows[i][1], `README exit ${readmeRows[i][0]}`).toContain(`\`${word}\``);
  }
});

test('the example workflow shards in two, merges with agc merge, uploads the reports and fails on the verdict', () => {
  const workflow = YAML.parse(readFileSync(path.join(ROOT, 'examples', 'github-actions-conformance.yml'), 'utf8'));
  expect(workflow.on).toBeTruthy();
  const shard = workflow.jobs.shard;
  const merge = workflow.jobs.merge;
  expect(shard.strategy.matrix.shard).toEqual([1, 2]);
  const shardRun = shard.steps.map((s: { run?: string }) => s.run ?? '').join('\n');
  expect(shardRun).toContain('npx agc run --shard ${{ matrix.shard }}/2 --blob-dir');
  for (const secret of ['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B'])
    expect(shard.env[secret]).toBe(`\${{ secrets.${secret} }}`);
  expect(merge.needs).toBe('shard');
  const mergeRun = merge.steps.map((s: { run?: string }) => s.run ?? '').join('\n');
  expect(mergeRun).toContain('npx agc merge');
  expect(merge.steps.some((s: { uses?: string; if?: string }) => s.uses?.startsWith('actions/upload-artifact') && s.if === 'always()')).toBe(true);
  // The last report of the default branch is the baseline: restored before the merge, used by it, saved after it.
  type Step = { uses?: string; if?: string; run?: string; with?: Record<string, string> };
  const steps = merge.steps as Step[];
  const restore = steps.findIndex((s) => s.uses?.startsWith('actions/cache/restore'));
  const verdict = steps.findIndex((s) => s.run?.includes('npx agc merge'));
  const save = steps.findIndex((s) => s.uses?.startsWith('actions/cache/save'));
  expect(restore).toBeGreaterThanOrEqual(0);
  expect(restore).toBeLessThan(verdict);
  expect(save).toBeGreaterThan(verdict);
  expect(steps[verdict].run).toContain('--baseline baseline/conformance.json');
  expect(steps[restore].with?.['restore-keys']).toBe('conformance-baseline-');
  expect(steps[save].with?.path).toBe(steps[restore].with?.path);
  expect(steps[save].if).toContain('always()');
  expect(steps[save].if).toContain('default_branch');
  expect(steps.some((s) => s.run?.includes('cp conformance-report/conformance.json baseline/conformance.json'))).toBe(true);
});
