/**
 * The bench's output (bench/run.ts): bench/results.md, with the machine it ran on, the table it
 * prints (bench/summary-table.ts) and the details of each scenario, and the figures' formats both
 * use. Displays the figures; measures nothing.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { ReferenceOptions } from '../reference/server';
import type { RunResult, Scenario, SelfTestResult } from './measure';

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const s = (ms: number) => (ms / 1000).toFixed(2);
/** Other processes used more than half a core on average during the run: its figure is inflated. */
export const disturbed = (r: { wallMs: number; othersS?: number }) => (r.othersS ?? 0) > 0.5 * (r.wallMs / 1000);
/** The dagger after a disturbed run's figure. */
export const mark = (r: { wallMs: number; othersS?: number }) => (disturbed(r) ? ' †' : '');
/** CPU of the run and of everything else on the machine meanwhile, when measurable. */
export const cpu = (r: { cpuS?: number; targetCpuS?: number; othersS?: number }) =>
  r.cpuS === undefined
    ? 'CPU not measured'
    : `CPU: kit ${r.cpuS.toFixed(1)} s, target ${r.targetCpuS?.toFixed(1) ?? '?'} s, other processes ${r.othersS?.toFixed(1) ?? '?'} s`;
function machine(): string[] {
  let osName = `${os.type()} ${os.release()}`;
  try {
    const pretty = readFileSync('/etc/os-release', 'utf8').match(/^PRETTY_NAME="?([^"\n]+)"?/m);
    if (pretty) osName = `${pretty[1]} (${os.type()} ${os.release()})`;
  } catch {
    // Not Linux: os.type() and the release say enough.
  }
  const cpus = os.cpus();
  return [
    `- CPU: ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} logical CPUs (os.availableParallelism() = ${os.availableParallelism()})`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${osName}, ${os.arch()}`,
    `- Node: ${process.version}`,
    `- Date: ${new Date().toISOString()}`,
  ];
}

/** What the bench measured, and the settings results.md describes. */
export interface BenchResults {
  scenarios: Scenario[];
  results: Map<Scenario['key'], RunResult[]>;
  /** Runs run again because other processes disturbed them, by scenario. */
  rerun: Map<Scenario['key'], number>;
  /** Plain runs, and runs with the visibility lag, with seeds 1 to N (--seeds): the requests and groups of other property cases. */
  seedRuns: { scenario: Scenario; seed: number; result: RunResult }[];
  selfTests: SelfTestResult[];
  /** Why `npm test` has no figure, when it has none. */
  selfTestNote: string;
  runs: number;
  /** The reference server's settings common to every scenario. */
  server: ReferenceOptions;
  /** The kit's variables of every conformance run. */
  kitEnv: { AG_VISIBILITY_TIMEOUT_MS: string; AG_SEED: string };
}

/** The seeds' runs by scenario, in the order they ran. */
export function bySeededScenario(seedRuns: BenchResults['seedRuns']): Map<Scenario, BenchResults['seedRuns']> {
  const by = new Map<Scenario, BenchResults['seedRuns']>();
  for (const run of seedRuns) {
    const runs = by.get(run.scenario);
    if (runs) runs.push(run);
    else by.set(run.scenario, [run]);
  }
  return by;
}

/** bench/results.md: the machine, the table, how the floor is computed, and each scenario's details. */
export function resultsMarkdown(
  { scenarios, results, rerun, seedRuns, selfTests, runs, server, kitEnv }: BenchResults,
  rendered: string,
  benchWallMs: number,
): string {
  const details: string[] = [];
  for (const scenario of scenarios) {
    const rs = results.get(scenario.key)!;
    const mid = [...rs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(rs.length / 2)];
    const top = [...mid.tests]
      .filter((t) => t.requests)
      .sort((a, b) => b.requests!.chain - a.requests!.chain || b.durationMs - a.durationMs)
      .slice(0, 5);
    details.push(
      `### ${scenario.label}`,
      '',
      `Runs of this scenario that other processes disturbed and that were therefore run again: ${rerun.get(scenario.key) ?? 0}.`,
      `Median run: ${s(mid.wallMs)} s, ${mid.requests} requests, ${mid.groups} groups created, verdict \`${mid.verdict}\` (exit ${mid.exitCode}), ${mid.passed} passed, ${mid.failed} failed, ${mid.skipped} skipped; ${cpu(mid)}.`,
      `Setup: ${mid.setup?.all.count ?? '?'} requests (${mid.setup?.creates.count ?? '?'} creates in a chain of ${mid.setup?.creates.chain ?? '?'}, the rest visibility polls; whole chain ${mid.setup?.all.chain ?? '?'}).`,
      `Median request latency ${mid.medianLatencyMs} ms; floor = ${mid.lagMs} ms + (${mid.setupChain} + ${mid.longestTest.chain}) × ${mid.medianLatencyMs} ms = ${s(mid.floorMs)} s.`,
      `Critical path of the median run (bench/critical-path.ts, from the proxy's log): ${mid.criticalPath.depth} requests, each sent once the one before it was answered${scenario.socketLatencyMs ? ':' : '.'}`,
      ...(scenario.socketLatencyMs ? ['', ...mid.criticalPath.steps.map((step, i) => `${i + 1}. ${step.replace(/\|/g, '\\|')}`)] : []),
      '',
      '| run | wall (s) | requests | verdict | CPU of the kit (s) | CPU of the target (s) | CPU of other processes (s) |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rs.map(
        (r, i) =>
          `| ${i + 1} | ${s(r.wallMs)} | ${r.requests} | ${r.verdict} (exit ${r.exitCode}) | ${r.cpuS?.toFixed(1) ?? '?'} | ${r.targetCpuS?.toFixed(1) ?? '?'} | ${r.othersS?.toFixed(1) ?? '?'} |`,
      ),
      '',
      '| longest chains (median run) | requests | chain | test duration (s) |',
      '| --- | --- | --- | --- |',
      ...top.map((t) => `| ${t.title.replace(/\|/g, '\\|')} | ${t.requests!.count} | ${t.requests!.chain} | ${s(t.durationMs)} |`),
      '',
    );
  }
  for (const [scenario, runsOfSeeds] of bySeededScenario(seedRuns))
    details.push(
      `### ${scenario.label}, seeds 1–${runsOfSeeds.length}`,
      '',
      "The same run with other seeds, one run each: other property cases, as a run with the kit's default (random) seed draws. A property case drawn twice is sent once, and the model-based PAGE-05 tests draw their own commands, so the requests differ from seed to seed.",
      '',
      '| seed | wall (s) | requests | groups | verdict |',
      '| --- | --- | --- | --- | --- |',
      ...runsOfSeeds.map(({ seed, result: r }) => `| ${seed} | ${s(r.wallMs)}${mark(r)} | ${r.requests} | ${r.groups} | ${r.verdict} (exit ${r.exitCode}) |`),
      '',
    );
  if (selfTests.length)
    details.push(
      '### npm test',
      '',
      ...selfTests.map(
        (m, i) => `Run ${i + 1}: ${s(m.wallMs)} s${m.timedOut ? ' (stopped at the time limit)' : ''}, exit ${m.code} (${m.summary}); ${cpu(m)}.`,
      ),
      '',
    );

  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts). Re-run it to refresh this file.',
    '',
    '## Machine',
    '',
    ...machine(),
    "- The machine may be shared: each run below gives the CPU seconds of the kit (its process tree, by GNU time), of the target (the reference server, in the bench's own process) and of the rest of the machine meanwhile (/proc/stat). A run during which other processes used more than half a core is run again (at most twice) and marked † if it stays disturbed.",
    '',
    '## Results',
    '',
    `Each conformance run: the reference server in the bench's process on 127.0.0.1 (lag ${server.lagMs} ms, create rate 5/s with burst 10, as the embedded server), the whole kit in a child process (\`playwright test\` with the kit's reporters, 3 workers unless the scenario names \`--workers\`, seed ${kitEnv.AG_SEED}, ${kitEnv.AG_VISIBILITY_TIMEOUT_MS} ms visibility timeout, 25 runs per property). Wall time is the clock around the child process; requests are the server's own count. Rounds interleave the scenarios; medians are of ${runs} runs.`,
    '',
    rendered,
    '',
    `Bench wall time: ${s(benchWallMs)} s.`,
    '',
    '## How the floor is computed',
    '',
    'The floor is what a run could not go below even if the kit itself cost nothing (no process start, no CPU): the visibility lag the create phase must wait out, plus the longest chain of requests that follow one another, each taking the median request latency:',
    '',
    '    floor = lag + (setup chain + longest test chain) × median request latency',
    '',
    "- *setup chain* = 1 (the preflight) + the create phase's chain (rounds of at most 3 concurrent creates, retries included) + 1 (the visibility poll that first sees every group after the lag; the other polls overlap the lag);",
    "- *longest test chain*: each test that sent requests attaches `requests` (suites/fixtures.ts) with their number and its *chain*: the longest run of its requests in which each was sent after the previous one answered (requests under way at the same time count once). Tests run side by side on three workers, so the run's chain is at least the setup's plus the longest test's;",
    '- *median request latency*: the median duration of every request the kit sent in that run, as the kit measured it.',
    '',
    "The floor leaves out the process start of Playwright and its workers, and that tests share three workers (no test waits for visibility: the model-based PAGE-05 tests model it); the ratio run ÷ floor is how much of the run is the kit's own cost rather than the target's.",
    '',
    "*The tests' chains, spread over the workers* (where latency is added): Playwright runs one test at a time on each worker, so the sum of every test's chain, divided by the workers, is how many round trips each worker waits out one after another, on average, however the tests are spread; times the latency added to each request, it is what the tests' waiting adds to the plain run. *Plain run + the tests' chains, ÷ plain run* is that as a ratio. It is an estimate, not a bound: a run can come out a little below it where the kit's own CPU work, which the plain run waits for, overlaps the waits. Where it is near the measured ratio, the added time is the tests' round trips, and a ratio goal below it needs tests that wait on fewer round trips (their requests sent before they run) or more workers, which cost CPU to start (the `--workers 6` scenarios).",
    '',
    "*Lowest ÷ plain its longest test chain allows* (where latency is added): a test starts only after the create-and-wait phase has ended and the workers have started, so the added latency on each request of the longest test chain comes on top of everything else the plain run does, however the rest were arranged: at best the run takes the plain run's time plus that chain × (its median request latency − the plain run's). A ratio goal below this figure cannot be met by sending the same requests differently; only a shorter chain (fewer sequential steps in the test that has it) would allow it.",
    '',
    '## Details',
    '',
    ...details,
  ].join('\n');
}
