/**
 * The table the bench prints and bench/results.md shows: each scenario's figures run by run, their
 * median, and the goals they are held to. Displays the figures; measures nothing.
 */
import type { RunResult, SelfTestResult } from './measure';
import { bySeededScenario, mark, median, s, type BenchResults } from './report';
import { KIT_WORKERS } from '../config';

/** The issues' goals: the kit's own tests within 4 minutes on 2 cores (#48); a run's cost to a conforming target (#21, #51). */
const SELF_TEST_GOAL_S = 240;
const REQUESTS_GOAL = 250;
const GROUPS_GOAL = 15;

const x = (ratio: number) => `${ratio.toFixed(2)}×`;

interface Row {
  measure: string;
  values: string[];
  median: string;
  goal: string;
  met: string;
}

function table(rows: Row[], runs: number): string {
  const header = ['measure', ...Array.from({ length: runs }, (_, i) => `run ${i + 1}`), `median of ${runs}`, 'goal', 'met'];
  const lines = [header, header.map(() => '---'), ...rows.map((r) => [r.measure, ...r.values, r.median, r.goal, r.met])];
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The table the bench prints, with its footnote; results.md shows it too. */
export function summaryTable({ scenarios, results, seedRuns, selfTests, selfTestNote, runs }: BenchResults): string {
  const rows: Row[] = [];
  const plain = results.get('plain');
  const plainMedian = plain ? median(plain.map((r) => r.wallMs)) : NaN;
  for (const scenario of scenarios) {
    const rs = results.get(scenario.key)!;
    const wall = median(rs.map((r) => r.wallMs));
    rows.push({ measure: `${scenario.label}: wall time (s)`, values: rs.map((r) => `${s(r.wallMs)}${mark(r)}`), median: s(wall), goal: '', met: '' });
    rows.push({
      measure: `${scenario.label}: HTTP requests (server count)`,
      values: rs.map((r) => String(r.requests)),
      median: String(median(rs.map((r) => r.requests))),
      goal: `every run ≤ ${REQUESTS_GOAL}`,
      met: rs.every((r) => r.requests <= REQUESTS_GOAL) ? 'yes' : '**no**',
    });
    rows.push({
      measure: `${scenario.label}: groups created (server count)`,
      values: rs.map((r) => String(r.groups)),
      median: String(median(rs.map((r) => r.groups))),
      goal: `every run ≤ ${GROUPS_GOAL}`,
      met: rs.every((r) => r.groups <= GROUPS_GOAL) ? 'yes' : '**no**',
    });
    rows.push({
      measure: `${scenario.label}: the phase saw its groups after (s)`,
      values: rs.map((r) => (r.seenAfterMs === undefined ? '?' : s(r.seenAfterMs))),
      median: rs.every((r) => r.seenAfterMs !== undefined) ? s(median(rs.map((r) => r.seenAfterMs!))) : '?',
      goal: '',
      met: '',
    });
    rows.push({
      measure: `${scenario.label}: critical path (round trips one after another)`,
      values: rs.map((r) => String(r.criticalPath.depth)),
      median: String(median(rs.map((r) => r.criticalPath.depth))),
      goal: '',
      met: '',
    });
    if (scenario.goal && plain) {
      const ratio = wall / plainMedian;
      rows.push({
        measure: `${scenario.label}: ÷ plain run`,
        values: rs.map((r, i) => (plain[i] ? x(r.wallMs / plain[i].wallMs) : '')),
        median: x(ratio),
        goal: `≤ ${scenario.goal.toFixed(2)}×`,
        met: ratio <= scenario.goal ? 'yes' : '**no**',
      });
    }
    // Only where latency was added: the chain's requests each cost the added latency, and nothing else of the plain run can hide them.
    if (scenario.socketLatencyMs !== undefined && plain) {
      const plainLatency = median(plain.map((r) => r.medianLatencyMs));
      const bound = (r: RunResult) => (plainMedian + r.longestTest.chain * Math.max(0, r.medianLatencyMs - plainLatency)) / plainMedian;
      rows.push({
        measure: `${scenario.label}: lowest ÷ plain its longest test chain allows`,
        values: rs.map((r) => `${x(bound(r))} (chain ${r.longestTest.chain})`),
        median: x(median(rs.map(bound))),
        goal: '',
        met: '',
      });
      // A worker runs one test at a time: however the tests are spread, each worker waits out, on average, its share of
      // every test's chain. What that adds to the plain run where none of it overlaps the kit's own work, as a ratio.
      const workers = scenario.workers ?? KIT_WORKERS;
      const chains = (r: RunResult) => r.tests.reduce((sum, t) => sum + (t.requests?.chain ?? 0), 0);
      const spread = (r: RunResult) => (chains(r) / workers) * Math.max(0, r.medianLatencyMs - plainLatency);
      rows.push({
        measure: `${scenario.label}: the tests' chains, spread over ${workers} workers (s)`,
        values: rs.map((r) => `${s(spread(r))} (${chains(r)} ÷ ${workers})`),
        median: s(median(rs.map(spread))),
        goal: '',
        met: '',
      });
    }
    if (scenario.goalPlusMs !== undefined && plain) {
      const extra = wall - plainMedian;
      rows.push({
        measure: `${scenario.label}: − plain run (s)`,
        values: rs.map((r, i) => (plain[i] ? s(r.wallMs - plain[i].wallMs) : '')),
        median: s(extra),
        goal: `≤ +${s(scenario.goalPlusMs)}`,
        met: extra <= scenario.goalPlusMs ? 'yes' : '**no**',
      });
    }
    rows.push({ measure: `${scenario.label}: floor (s)`, values: rs.map((r) => s(r.floorMs)), median: s(median(rs.map((r) => r.floorMs))), goal: '', met: '' });
    rows.push({
      measure: `${scenario.label}: run ÷ floor`,
      values: rs.map((r) => x(r.wallMs / r.floorMs)),
      median: x(median(rs.map((r) => r.wallMs / r.floorMs))),
      goal: '',
      met: '',
    });
  }
  for (const [scenario, runsOfSeeds] of bySeededScenario(seedRuns)) {
    const label = `${scenario.label}, seeds 1–${runsOfSeeds.length} (one run each)`;
    const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;
    const requests = runsOfSeeds.map((r) => r.result.requests);
    const groups = runsOfSeeds.map((r) => r.result.groups);
    rows.push({
      measure: `${label}: HTTP requests, lowest–highest`,
      values: Array.from({ length: runs }, () => ''),
      median: `${range(requests)} (median ${median(requests)})`,
      goal: `every run ≤ ${REQUESTS_GOAL}`,
      met: requests.every((n) => n <= REQUESTS_GOAL) ? 'yes' : `**no** (${requests.filter((n) => n > REQUESTS_GOAL).length} of ${requests.length})`,
    });
    rows.push({
      measure: `${label}: groups created, lowest–highest`,
      values: Array.from({ length: runs }, () => ''),
      median: range(groups),
      goal: `every run ≤ ${GROUPS_GOAL}`,
      met: groups.every((n) => n <= GROUPS_GOAL) ? 'yes' : `**no** (${groups.filter((n) => n > GROUPS_GOAL).length} of ${groups.length})`,
    });
  }
  if (selfTests.length) {
    const wall = median(selfTests.map((m) => m.wallMs));
    const shown = (m: SelfTestResult) => `${m.timedOut ? `> ${s(m.wallMs)} (stopped)` : s(m.wallMs)}${mark(m)}`;
    const mid = [...selfTests].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(selfTests.length / 2)];
    rows.push({
      measure: '`npm test` (CI=1, 3 workers, tests/playwright.config.ts): wall time (s)',
      values: Array.from({ length: runs }, (_, i) => (selfTests[i] ? shown(selfTests[i]) : '')),
      median: `${shown(mid)}${selfTests.length < runs ? ` (${selfTests.length} run${selfTests.length > 1 ? 's' : ''})` : ''}`,
      goal: `≤ ${SELF_TEST_GOAL_S} s`,
      met: !mid.timedOut && mid.code === 0 && wall / 1000 <= SELF_TEST_GOAL_S ? 'yes' : '**no**',
    });
  } else {
    rows.push({
      measure: '`npm test` (CI=1, 3 workers, tests/playwright.config.ts): wall time (s)',
      values: Array.from({ length: runs }, () => ''),
      median: selfTestNote,
      goal: `≤ ${SELF_TEST_GOAL_S} s`,
      met: 'n/a',
    });
  }
  const footnote =
    '† other processes on the machine used more than half a core on average during that run (see Details): the figure is slower than the kit alone.';
  return `${table(rows, runs)}\n\n${footnote}`;
}
