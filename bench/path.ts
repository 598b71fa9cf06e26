/**
 * `npx tsx bench/path.ts [--latency MS] [--lag MS] [--seed N]`: one `agc run` against the reference server behind a
 * proxy that adds the latency to every answer at the socket (latency-proxy.ts), and once with none; for each, the wall
 * time, the requests, and the critical path (critical-path.ts): how many round trips the run waited out one after
 * another, and which. What a far target costs is about that many latencies: the chain to shorten.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startReferenceServer } from '../reference/server';
import { referenceTokenEnv, referenceUsers } from '../reference/config';
import { startLatencyProxy } from './latency-proxy';
import { criticalPath, stepLabel } from './critical-path';
import { optionsOr, ROOT } from './measure';

const USAGE = 'Usage: npx tsx bench/path.ts [--latency MS (default 200)] [--lag MS (default 400)] [--seed N (default 1)]';

interface PathRun {
  latencyMs: number;
  wallMs: number;
  exitCode: number | null;
  requests: number;
  depth: number;
  steps: string[];
}

async function pathRun(latencyMs: number, lagMs: number, seed: string): Promise<PathRun> {
  const server = await startReferenceServer({ lagMs, users: referenceUsers({}), port: 0 });
  const proxy = await startLatencyProxy(server.url, latencyMs);
  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-path-'));
  const runId = `p${Date.now().toString(36)}`;
  try {
    const started = performance.now();
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'agc.mjs'), 'run', '--report-dir', path.join(work, 'report')], {
        cwd: ROOT,
        env: { ...process.env, ...referenceTokenEnv(), AG_BASE_URL: proxy.url, AG_RUN_ID: runId, AG_SEED: seed, AG_VISIBILITY_TIMEOUT_MS: '10000' },
        stdio: 'ignore',
      });
      child.on('exit', (code) => resolve(code));
    });
    const wallMs = performance.now() - started;
    const { depth, steps } = criticalPath(proxy.log);
    return { latencyMs, wallMs, exitCode, requests: proxy.log.length, depth, steps: steps.map((step) => stepLabel(step, `agc-${runId}-`)) };
  } finally {
    await proxy.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = optionsOr(USAGE, () =>
    parseArgs({ options: { latency: { type: 'string', default: '200' }, lag: { type: 'string', default: '400' }, seed: { type: 'string', default: '1' } } }),
  );
  const latency = Number(values.latency);
  const lag = Number(values.lag);
  const runs = [await pathRun(0, lag, values.seed), await pathRun(latency, lag, values.seed)];
  for (const run of runs)
    console.log(
      `+${run.latencyMs} ms per answer, ${lag} ms lag, seed ${values.seed}: ${(run.wallMs / 1000).toFixed(2)} s, exit ${run.exitCode}, ${run.requests} requests, critical path ${run.depth} round trips`,
    );
  const [plain, far] = runs;
  console.log(
    `added by ${latency} ms per answer: ${((far.wallMs - plain.wallMs) / 1000).toFixed(2)} s, about ${((far.wallMs - plain.wallMs) / latency).toFixed(1)} latencies; the critical path under it:`,
  );
  far.steps.forEach((step, i) => console.log(`  ${String(i + 1).padStart(2)}. ${step}`));
}

void main();
