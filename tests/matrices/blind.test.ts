/**
 * A server no one who wrote the kit wrote: tests/matrices/blind/python-stdlib-server.py was built from the
 * spec alone, by an engineer who never read the kit (Python's standard library and sqlite3; its
 * choices on the points the spec leaves open in python-stdlib-CHOICES.md; only the line that prints
 * its port was changed here, so that it can listen on port 0). Its Id filter is `Filter.Id`, its
 * lengths are bounded at 1,024 and 10,000, its Name filter is a case-sensitive substring, and it has
 * one real bug: a lone surrogate in a create field (valid JSON) reaches sqlite3, which cannot encode
 * it, and the server answers 500.
 *
 * The kit must find that bug and nothing else: without a profile (the other choices named as
 * mismatches, never failed) and with the profile `agc profile discover` drafts for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readJson, runAgc } from '../helpers/harness';

test.describe.configure({ mode: 'default' });

const SERVER = path.join(__dirname, 'blind', 'python-stdlib-server.py');
const TOKENS = { TOKEN: '', TOKEN_OTHER_USER: '', TOKEN_CHANNEL_A: '', TOKEN_CHANNEL_B: '' };
for (const key of Object.keys(TOKENS) as (keyof typeof TOKENS)[]) TOKENS[key] = `blind-${randomBytes(12).toString('hex')}`;
const KIT_ENV = {
  AG_TOKEN: TOKENS.TOKEN,
  AG_TOKEN_OTHER_USER: TOKENS.TOKEN_OTHER_USER,
  AG_TOKEN_CHANNEL_A: TOKENS.TOKEN_CHANNEL_A,
  AG_TOKEN_CHANNEL_B: TOKENS.TOKEN_CHANNEL_B,
  // Its list lags 1 s; the seed and runs as the other self-tests use.
  AG_VISIBILITY_TIMEOUT_MS: '10000',
  AG_NUM_RUNS: '10',
  AG_SEED: '7',
};

interface Requirement {
  id: string;
  level: string;
  status: string;
  profileMismatch?: string;
}

let server: ChildProcess | undefined;
let baseUrl = '';

test.beforeAll(async () => {
  const child = spawn('python3', [SERVER], { env: { PATH: process.env.PATH, PORT: '0', ...TOKENS }, stdio: ['ignore', 'ignore', 'pipe'] });
  server = child;
  baseUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the blind server did not start: ${seen}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const port = /on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.on('exit', (code) => reject(new Error(`the blind server exited (${code}): ${seen}`)));
  });
});

test.afterAll(() => {
  // SIGINT: the server's KeyboardInterrupt handler closes its socket.
  server?.kill('SIGINT');
});

async function run(args: string[]): Promise<{ verdict: string; requirements: Requirement[]; stdout: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-blind-'));
  const reportDir = path.join(dir, 'report');
  const done = await runAgc(['run', ...args, '--report-dir', reportDir], { ...KIT_ENV, AG_BASE_URL: baseUrl }, { timeoutMs: 200_000, dir });
  const report = readJson<{ verdict: string; requirements: Requirement[] }>(path.join(reportDir, 'conformance.json'));
  return { ...report, stdout: done.stdout };
}

const failedMusts = (requirements: Requirement[]) => requirements.filter((r) => r.status === 'failed' && r.level === 'MUST').map((r) => r.id);

test('without a profile, the blind server fails INPUT-07 (its 500 on a lone surrogate) and nothing else; its Id filter is named, not failed', async () => {
  test.setTimeout(240_000);
  const report = await run([]);
  expect(failedMusts(report.requirements), report.stdout.slice(-3000)).toEqual(['INPUT-07']);
  expect(report.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual(['INPUT-07']);
  expect(report.verdict).toBe('non-conformant');
  const mismatches = report.requirements.map((r) => r.profileMismatch ?? '');
  expect(mismatches.some((m) => m.includes('set list.filters.groupIds: Id'))).toBe(true);
});

test('with the profile discover drafts for it, the blind server fails INPUT-07 and nothing else, and everything else is assessed', async () => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-blind-discover-'));
  const out = path.join(dir, 'profile.yaml');
  const discovered = await runAgc(['profile', 'discover', '--out', out], { ...KIT_ENV, AG_BASE_URL: baseUrl }, { timeoutMs: 200_000, dir });
  expect(discovered.status, `${discovered.stdout}\n${discovered.stderr}`).toBe(0);
  const report = await run(['--profile', out]);
  expect(
    report.requirements.filter((r) => r.status === 'failed').map((r) => r.id),
    report.stdout.slice(-3000),
  ).toEqual(['INPUT-07']);
  expect(report.requirements.filter((r) => r.profileMismatch).map((r) => `${r.id}: ${r.profileMismatch}`)).toEqual([]);
  // What a run cannot assess on any target that never rate-limits: INPUT-08 (a 429's Retry-After).
  expect(report.requirements.filter((r) => r.status === 'skipped' || r.status === 'blocked').map((r) => r.id)).toEqual(['INPUT-08']);
  expect(report.verdict).toBe('non-conformant');
});
