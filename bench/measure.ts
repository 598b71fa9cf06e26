/**
 * Timing a child process for the bench (bench/run.ts): its wall time, the CPU of its process tree,
 * of this process (the in-process target) and of the rest of the machine meanwhile.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RequestStats } from '../client/request-stats';
import type { ReferenceOptions } from '../reference/server';
import type { Dataset } from '../suites/dataset';
import type { GroupRecord } from '../reference/store';
import { listWithExtraLag } from '../reference/lag-variants';

/** The kit's root: where every timed child runs. */
export const ROOT = path.resolve(__dirname, '..');

/** Machine-wide CPU counters of Linux's /proc/stat, in ticks of 1/100 s; undefined elsewhere. */
function cpuTicks(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = fields[3] + fields[4];
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/**
 * Waits (at most `maxMs`) until the machine has been nearly idle for a second: on a shared machine
 * this keeps a run from starting in the middle of someone else's burst. Disturbance during the run
 * is still measured and reported (othersS).
 */
async function waitForQuiet(maxMs = 30_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (performance.now() < deadline) {
    const before = cpuTicks();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuTicks();
    if (!before || !after) return;
    if ((after.busy - before.busy) / Math.max(1, after.total - before.total) < 0.15) return;
  }
}

const GNU_TIME = '/usr/bin/time';

export interface Timed {
  code: number | null;
  output: string;
  wallMs: number;
  timedOut: boolean;
  /** CPU seconds (user + sys) of the child's whole process tree (the kit); undefined without GNU time. */
  cpuS?: number;
  /** CPU seconds of this process meanwhile: the in-process reference server, the target. */
  targetCpuS?: number;
  /** CPU seconds the rest of the machine used meanwhile: a measure of how disturbed the figure is. */
  othersS?: number;
}

/**
 * Runs `node args…` at the kit's root in its own process group, with the kit's variables of this
 * shell stripped (as tests/helpers/harness.ts does), bounded by `timeoutMs`: then SIGINT to the whole group
 * (SIGTERM would orphan a webServer), SIGKILL 10 s later. Wall time is the clock
 * around the child; CPU comes from GNU time (children's rusage), when it is installed.
 */
export async function runTimed(args: string[], extraEnv: Record<string, string>, timeoutMs: number): Promise<Timed> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(AG_|PW_|PLAYWRIGHT_|TEST_WORKER_INDEX$|TEST_PARALLEL_INDEX$)/.test(key)) env[key] = value;
  Object.assign(env, extraEnv);
  const timeFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'agc-bench-time-')), 'cpu');
  const withTime = existsSync(GNU_TIME);
  const [command, argv] = withTime ? [GNU_TIME, ['-f', '%U %S', '-o', timeFile, process.execPath, ...args]] : [process.execPath, args];
  await waitForQuiet();
  const ticks = cpuTicks();
  const self = process.cpuUsage();
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // Already gone.
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGINT');
      setTimeout(() => signalGroup('SIGKILL'), 10_000).unref();
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const mine = process.cpuUsage(self);
      const targetCpuS = (mine.user + mine.system) / 1e6;
      let cpuS: number | undefined;
      let othersS: number | undefined;
      try {
        const [user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
        cpuS = user + sys;
        const after = cpuTicks();
        if (ticks && after) othersS = Math.max(0, (after.busy - ticks.busy) / 100 - cpuS - targetCpuS);
      } catch {
        // No GNU time: wall time only.
      }
      rmSync(path.dirname(timeFile), { recursive: true, force: true });
      // GNU time reports a signalled child as exit 128 + n on its own line; the child's code is what matters.
      resolve({ code, output, wallMs, timedOut, cpuS, targetCpuS, othersS });
    });
  });
}

export interface Scenario {
  key: 'plain' | 'latency' | 'lag' | 'lagRefresh' | 'preload' | 'plain6' | 'latency6';
  label: string;
  server: ReferenceOptions;
  /** At most this many times the plain run's median. */
  goal?: number;
  /** At most the plain run's median plus this many ms (the lag scenario: 1.5 × the lag). */
  goalPlusMs?: number;
  /** `--workers`, where not the kit's default (3): what docs/cli.md's advice for far targets costs and saves. */
  workers?: number;
  /** A snapshot refreshed this often, its period set so that each round's first create falls at a spread point of it. */
  refreshPeriodMs?: number;
  /**
   * Each group visible this long after its create (the server's hook), where the server's own lag is 0; under a refreshed
   * snapshot (refreshPeriodMs), the wait of the round's first create. The lag in the run's floor.
   */
  groupLagMs?: number;
  /** Latency added to every answer at the socket, by a proxy in front of the server (latency-proxy.ts), not by its own hook. */
  socketLatencyMs?: number;
}

export interface TestFigures {
  title: string;
  status: string;
  durationMs: number;
  requests: RequestStats | undefined;
}

export interface RunResult {
  wallMs: number;
  cpuS?: number;
  targetCpuS?: number;
  othersS?: number;
  requests: number;
  /** Groups the run created on the target (the server's count of accepted creates): the kit's footprint. */
  groups: number;
  exitCode: number | null;
  verdict: string;
  passed: number;
  failed: number;
  skipped: number;
  tests: TestFigures[];
  setup: Dataset['requests'];
  /** When the phase saw the last of the primary token's groups, from their creates (ms): the lag the run met, with its polls' step. */
  seenAfterMs?: number;
  /** Median duration of every request the kit sent (tests and setup). */
  medianLatencyMs: number;
  /** 1 preflight + the create phase's chain + 1 confirming poll. */
  setupChain: number;
  longestTest: { title: string; chain: number };
  /** The visibility lag in the floor: the server's, a group's own (groupLagMs), or the wait of a refreshed snapshot's first create. */
  lagMs: number;
  floorMs: number;
  /** The longest chain of requests each sent once the one before it was answered, from the proxy's log (critical-path.ts). */
  criticalPath: { depth: number; steps: string[] };
}

export interface SelfTestResult extends Timed {
  summary: string;
}

/**
 * A bench script's options, parsed by `parse`: `--help` prints `usage`, and an option it does not know is said in one line
 * with the usage (exit 2), not a stack trace.
 */
export function optionsOr<T>(usage: string, parse: () => T): T {
  if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h')) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

/**
 * How long each group waits for a snapshot refreshed every `periodMs`, whose period is set by the first group asked about
 * (the run's first create: the snapshot lists groups oldest first): that create comes `phase` (0 to 1) of a period after
 * a refresh. Every group shows at the first refresh at or after its create, as the reference server's own snapshot does.
 */
export function refreshWaits(periodMs: number, phase: number): (group: Pick<GroupRecord, 'createdAt'>) => number {
  let anchor: number | undefined;
  return (group) => {
    anchor ??= group.createdAt - phase * periodMs;
    return anchor + Math.ceil((group.createdAt - anchor) / periodMs) * periodMs - group.createdAt;
  };
}

/**
 * A reference server's list hook for that snapshot. Set by the kit's start, as the reference server's own refresh is, the
 * phase a round met drifted with the kit's 0.5 to 0.8 s of starting up, and eight rounds' median moved by 0.3 s from one
 * set to the next; set by the create, N rounds at (r - 1/2)/N sample the wait evenly.
 */
export const refreshFromFirstCreate = (periodMs: number, phase: number): NonNullable<ReferenceOptions['hooks']> => ({
  listGroups: listWithExtraLag(refreshWaits(periodMs, phase)),
});
