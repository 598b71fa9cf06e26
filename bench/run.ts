/**
 * `npm run bench [-- options]`: what a conformance run costs, measured against the reference server.
 *
 * For each scenario (plain; 200 ms added to every response; a 3 s visibility lag; 20,000 groups already on the target)
 * it starts the reference server in this process, runs the whole conformance kit against it in a
 * child process (as `npx playwright test` with the kit's reporters, plus Playwright's JSON reporter
 * to read per-test figures), and records the run's wall time, the HTTP requests the server counted,
 * the run's floor, and the CPU of the kit, of the target and of the rest of the machine. Scenarios
 * are interleaved round by round; a run that other processes disturbed is run again (at most
 * twice). Then it times the kit's own tests once, as CI runs them (`npm test` with CI=1; it takes
 * minutes; --self-test-runs for more). It prints a table and writes it, with a description of the machine and the details, to
 * bench/results.md (or --out). Medians are of --runs runs.
 *
 * Options: --runs N (default 3), --seeds N (plain and 3 s lag runs with seeds 1 to N, default 8), --no-self-test, --self-test-runs N (default 1), --out FILE,
 * --only plain,latency,lag,lagRefresh,preload,latency6,plain6.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer, type ReferenceOptions } from '../reference/server';
import { listWithExtraLag } from '../reference/lag-variants';
import { referenceUsers } from '../reference/config';
import { attachmentsOf, testsOfReport, type JsonReport } from '../facts/json-report';
import { referenceTokenEnv } from '../reference/config';
import { datasetFile, type Dataset } from '../suites/dataset';
import type { RequestStats } from '../client/request-stats';
import { startLatencyProxy } from './latency-proxy';
import { criticalPath, stepLabel } from './critical-path';
import { optionsOr, refreshFromFirstCreate, ROOT, runTimed, type RunResult, type Scenario, type SelfTestResult, type TestFigures } from './measure';

const USAGE = `Usage: npm run bench -- [options]

  --runs N            rounds of every scenario (default 3; medians are of these)
  --seeds N           plain and 3 s lag runs with seeds 1 to N (default 8)
  --only KEYS         scenarios, comma-separated: plain,latency,lag,lagRefresh,preload,latency6,plain6
  --no-self-test      do not time npm test
  --self-test-runs N  times npm test is timed (default 1)
  --out FILE          where the results go (default bench/results.md)`;

export type { RunResult, Scenario, SelfTestResult };
import { cpu, disturbed, median, resultsMarkdown, s, type BenchResults } from './report';
import { summaryTable } from './summary-table';

// ---------------------------------------------------------------- settings

const CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** As the embedded server of playwright.config.ts: default lag, `--create-rate 5` (burst 2 × 5). */
const SERVER: ReferenceOptions = { lagMs: 300, createRate: { perSecond: 5, burst: 10 } };
/**
 * As an embedded run, with a fixed seed so every run sends the same property cases. Seed 1: its
 * model-based PAGE-05 test draws 22 commands (some seeds draw none, which would flatter the run).
 */
const KIT_ENV = { AG_VISIBILITY_TIMEOUT_MS: '10000', AG_SEED: '1' };
const RUN_TIMEOUT_MS = 240_000;
/** Keeps the whole bench bounded; a self-test stopped here is reported as such, never as a figure. */
const SELF_TEST_TIMEOUT_MS = 15 * 60_000;
/** The kit's reporters (playwright.config.ts), plus Playwright's JSON report for per-test figures. */
const REPORTERS = ['./suites/selection.ts', './reporters/console.ts', 'json', './reporters/conformance.ts'];

/** Real staging answers 100-300 ms away and its snapshot lags by seconds: the two must not multiply. */
const LAG_MS = 3000;

/**
 * Goals in seconds and round trips, not ratios (issue 51): a faster plain run makes the same added seconds a larger ratio.
 * The latency is added at the socket, by a proxy in front of the server, as a far target has it.
 */
const SCENARIOS: Scenario[] = [
  { key: 'plain', label: 'plain', server: {} },
  { key: 'latency', label: '+200 ms per response', server: {}, socketLatencyMs: 200, goalPlusMs: 1200 },
  // Each group visible exactly LAG_MS after its create, as a target whose snapshot lags per group. A snapshot refreshed
  // every LAG_MS from the server's start (the reference server's own lag) showed the groups sooner than that: the server
  // starts before the kit does, and the creates came about 0.7 s into its period.
  {
    key: 'lag',
    label: `${LAG_MS / 1000} s visibility lag`,
    server: { lagMs: 0, hooks: { listGroups: listWithExtraLag(() => LAG_MS) } },
    groupLagMs: LAG_MS,
    goalPlusMs: 1000,
  },
  // A target whose snapshot is refreshed every LAG_MS meets the run at any point of its period: a group waits 0 to LAG_MS.
  // Round r of N puts the run's first create (r - 1/2)/N of a period after a refresh (refreshFromFirstCreate).
  {
    key: 'lagRefresh',
    label: `${LAG_MS / 1000} s snapshot refresh, at a spread phase`,
    server: { lagMs: 0 },
    refreshPeriodMs: LAG_MS,
    goalPlusMs: 1000,
  },
  { key: 'preload', label: '20,000 groups on the target (10,000 primary)', server: { preload: { groups: 20_000, primaryShare: 0.5 } }, goal: 1.1 },
  // docs/cli.md's advice for a far target (agc run --workers 6), and what the same costs against a near one; the goals are the default's.
  { key: 'latency6', label: '+200 ms per response, --workers 6', server: {}, socketLatencyMs: 200, goalPlusMs: 1200, workers: 6 },
  { key: 'plain6', label: 'plain, --workers 6', server: {}, workers: 6 },
];

// ---------------------------------------------------------------- one conformance run

function testsOf(report: JsonReport): TestFigures[] {
  return testsOfReport(report).map((t) => ({
    title: t.title,
    status: t.result?.status ?? 'unknown',
    durationMs: t.result?.duration ?? 0,
    requests: attachmentsOf<RequestStats>(t, 'requests')[0],
  }));
}

/** The scenario as round r of N runs it: a refreshed snapshot at that round's phase; any other as it is. */
const atPhase = (scenario: Scenario, phase: number): Scenario =>
  scenario.refreshPeriodMs
    ? {
        ...scenario,
        // The wait of the run's first create: the lag in the run's floor.
        groupLagMs: Math.round((1 - phase) * scenario.refreshPeriodMs),
        server: { ...scenario.server, hooks: refreshFromFirstCreate(scenario.refreshPeriodMs, phase) },
      }
    : scenario;

async function conformanceRun(scenario: Scenario, round: number, seed = KIT_ENV.AG_SEED): Promise<RunResult> {
  const server = await startReferenceServer({ ...SERVER, ...scenario.server, users: referenceUsers({}) });
  // Every run through the proxy, with no latency where the scenario adds none: its log gives each run's critical path.
  const proxy = await startLatencyProxy(server.url, scenario.socketLatencyMs ?? 0);
  const work = mkdtempSync(path.join(os.tmpdir(), `agc-bench-${scenario.key}-`));
  // Short, as the kit requires (AG_RUN_ID is part of every Name it creates).
  const runId = `b${Date.now().toString(36)}-${scenario.key.slice(0, 3)}${round}`;
  const jsonFile = path.join(work, 'report.json');
  try {
    const before = server.stats().requests;
    const createsBefore = server.stats().creates;
    const run = await runTimed(
      [
        CLI,
        'test',
        ...(scenario.workers ? [`--workers=${scenario.workers}`] : []),
        `--reporter=${REPORTERS.join(',')}`,
        `--output=${path.join(work, 'output')}`,
      ],
      {
        ...referenceTokenEnv(),
        ...KIT_ENV,
        AG_SEED: seed,
        AG_BASE_URL: proxy.url,
        AG_RUN_ID: runId,
        // The run's dataset is read back below for the setup's figures; the bench removes it itself.
        AG_KEEP_TEMP: '1',
        AG_REPORT_DIR: path.join(work, 'report'),
        PLAYWRIGHT_JSON_OUTPUT_FILE: jsonFile,
      },
      RUN_TIMEOUT_MS,
    );
    const wallMs = run.wallMs;
    const requests = server.stats().requests - before;
    const groups = server.stats().creates - createsBefore;
    if (!existsSync(jsonFile))
      throw new Error(
        `${scenario.key} run ${round}: no JSON report (exit ${run.code}${run.timedOut ? ', stopped at the time limit' : ''})\n${run.output.slice(-2000)}`,
      );
    const tests = testsOf(JSON.parse(readFileSync(jsonFile, 'utf8')));
    const summaryFile = path.join(work, 'report', 'conformance.json');
    const verdict = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as { verdict: string }).verdict : 'no report';
    const dataset = existsSync(datasetFile(runId)) ? (JSON.parse(readFileSync(datasetFile(runId), 'utf8')) as Dataset) : undefined;
    const setup = dataset?.requests;
    const durations = [...tests.flatMap((t) => t.requests?.durationsMs ?? []), ...(setup?.all.durationsMs ?? [])];
    const medianLatencyMs = median(durations);
    const longest = tests.reduce((best, t) => ((t.requests?.chain ?? 0) > best.chain ? { title: t.title, chain: t.requests!.chain } : best), {
      title: '(none)',
      chain: 0,
    });
    const setupChain = 1 + (setup?.creates.chain ?? 0) + 1;
    const seen = dataset?.groups.filter((g) => g.via === 'primary' && g.visibleAfterMs !== null).map((g) => g.visibleAfterMs!) ?? [];
    const lagMs = scenario.groupLagMs ?? scenario.server.lagMs ?? SERVER.lagMs ?? 0;
    const chain = criticalPath(proxy.log);
    return {
      criticalPath: { depth: chain.depth, steps: chain.steps.map((step) => stepLabel(step, `agc-${runId}-`)) },
      wallMs,
      requests,
      groups,
      exitCode: run.code,
      cpuS: run.cpuS,
      targetCpuS: run.targetCpuS,
      othersS: run.othersS,
      verdict,
      passed: tests.filter((t) => t.status === 'passed').length,
      failed: tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped').length,
      skipped: tests.filter((t) => t.status === 'skipped').length,
      tests,
      setup,
      seenAfterMs: seen.length ? Math.max(...seen) : undefined,
      medianLatencyMs,
      setupChain,
      longestTest: longest,
      lagMs,
      floorMs: lagMs + (setupChain + longest.chain) * medianLatencyMs,
    };
  } finally {
    await proxy.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
    rmSync(path.dirname(datasetFile(runId)), { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the kit's own tests

/** npm's own CLI, as `npm run bench` started it (npm sets npm_execpath), or the one beside node. */
const NPM_CLI =
  process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)
    ? process.env.npm_execpath
    : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

/** `npm test` as CI runs it (CI=1: two workers): typecheck, format check and every self-test. */
async function selfTest(): Promise<SelfTestResult> {
  const run = await runTimed([NPM_CLI, 'test'], { CI: '1' }, SELF_TEST_TIMEOUT_MS);
  const plain = run.output.replace(/\u001b\[[0-9;]*m/g, '');
  const counts = ['passed', 'failed', 'flaky', 'skipped', 'did not run']
    .map((word) => plain.match(new RegExp(`^\\s+(\\d+) ${word}`, 'm')))
    .filter(Boolean)
    .map((m) => m![0].trim());
  return { ...run, summary: counts.join(', ') || plain.trim().split('\n').slice(-3).join(' / ') };
}

async function main(): Promise<void> {
  const { values } = optionsOr(USAGE, () =>
    parseArgs({
      options: {
        runs: { type: 'string', default: '3' },
        'no-self-test': { type: 'boolean', default: false },
        'self-test-runs': { type: 'string', default: '1' },
        out: { type: 'string', default: path.join(ROOT, 'bench', 'results.md') },
        only: { type: 'string' },
        seeds: { type: 'string', default: '8' },
      },
    }),
  );
  const runs = Number(values.runs);
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const scenarios = SCENARIOS.filter((sc) => !only || only.has(sc.key));
  const results = new Map<Scenario['key'], RunResult[]>(scenarios.map((sc) => [sc.key, []]));
  const benchStarted = performance.now();
  const rerun = new Map<Scenario['key'], number>();

  for (let round = 1; round <= runs; round++) {
    for (const scenario of scenarios) {
      // A run that other processes disturbed (see disturbed()) is run again, at most twice: the
      // medians should describe the kit, not the neighbours. Re-runs are counted in the details.
      for (let attempt = 0; ; attempt++) {
        process.stdout.write(`round ${round}/${runs}: ${scenario.label} … `);
        const result = await conformanceRun(atPhase(scenario, (round - 0.5) / runs), round);
        process.stdout.write(
          `${s(result.wallMs)} s, ${result.requests} requests, groups seen after ${result.seenAfterMs === undefined ? '?' : s(result.seenAfterMs)} s, ${result.verdict} (exit ${result.exitCode}), floor ${s(result.floorMs)} s, ${cpu(result)}${disturbed(result) && attempt < 2 ? ', disturbed: again' : ''}\n`,
        );
        if (!disturbed(result) || attempt >= 2) {
          results.get(scenario.key)!.push(result);
          break;
        }
        rerun.set(scenario.key, (rerun.get(scenario.key) ?? 0) + 1);
      }
    }
  }

  // The runs above all draw seed 1's property cases. A run with the kit's default seed draws others: how many requests
  // and groups those cost is the goal's real test ("every run"), so runs with seeds 1 to N are counted too: plain, and
  // with the visibility lag, whose polls add to every seed's requests (seed 1's lag runs alone hid that).
  const seedRuns: BenchResults['seedRuns'] = [];
  const seeded = SCENARIOS.filter((sc) => sc.key === 'plain' || (sc.key === 'lag' && (!only || only.has('lag'))));
  for (const scenario of seeded) {
    for (let seed = 1; seed <= Number(values.seeds); seed++) {
      process.stdout.write(`${scenario.label}, seed ${seed} … `);
      const result = await conformanceRun(scenario, 100 + seed, String(seed));
      process.stdout.write(`${result.requests} requests, ${result.groups} groups, ${result.verdict} (exit ${result.exitCode})\n`);
      seedRuns.push({ scenario, seed, result });
    }
  }

  const selfTests: SelfTestResult[] = [];
  const selfTestNote = values['no-self-test'] ? 'not measured (--no-self-test)' : '';
  if (!values['no-self-test']) {
    for (let i = 1; i <= Number(values['self-test-runs']); i++) {
      process.stdout.write(`npm test ${i}/${values['self-test-runs']} … `);
      const result = await selfTest();
      selfTests.push(result);
      process.stdout.write(
        `${s(result.wallMs)} s${result.timedOut ? ', stopped at the time limit' : ''} (exit ${result.code}: ${result.summary}), ${cpu(result)}\n`,
      );
    }
  }

  const report: BenchResults = { scenarios, results, rerun, seedRuns, selfTests, selfTestNote, runs, server: SERVER, kitEnv: KIT_ENV };
  const rendered = summaryTable(report);
  console.log(`\n${rendered}\n`);
  writeFileSync(values.out!, `${resultsMarkdown(report, rendered, performance.now() - benchStarted)}\n`);
  console.log(`written to ${path.relative(process.cwd(), values.out!)}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
