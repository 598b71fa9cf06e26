/**
 * The kit under attack (issue 19): the target is untrusted input. Each test runs the kit, as a user
 * would (`agc run`), against a hostile target (tests/helpers/hostile-target.ts) and checks what the kit
 * wrote and printed; each check is first shown able to fail (a planted token is found, the target's
 * text did reach the output it was neutralised in, the attack did fail the requirement it breaks).
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, filesBelow, ROOT } from './helpers/harness';
import { DEEP_LEVELS, HUGE_BYTES } from './helpers/hostile-target';
import ConformanceOutputs from '../reporters/conformance';
import { send } from '../client/exchange';
import { noteAnswer, sendWhileAlive } from '../client/liveness';
import { ensureRunDir, removeRunDir, runDirOf } from '../client/run-dir';
import {
  workDirs,
  KIT_VERSION,
  MiB,
  runKit,
  findSecrets,
  filesOf,
  expectSearchFinds,
  summaryOf,
  statusOf,
  expectWholeAndBounded,
  expectInertConsole,
  expectValidJunit,
  expectWellFormedXml,
  fetchesOf,
  figures,
  withTarget,
} from './helpers/hostile-run';

test.setTimeout(300_000);

test.afterEach(({}, testInfo) => {
  for (const dir of workDirs.splice(0)) if (testInfo.status === testInfo.expectedStatus) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- the attacks

test('a target echoing the tokens in every encoding, in bodies, header names and values, gets no token into any file, the temp folder or the console', async () => {
  await withTarget('echo', async (target) => {
    const secrets = Object.values(target.tokenEnv);
    for (const secret of secrets) expectSearchFinds(secret);
    const run = await runKit(target, 'echo', { env: { AG_KEEP_TEMP: '1' } });
    const runDir = runDirOf(run.runId);
    try {
      const sizes = expectWholeAndBounded(run);
      figures('echo', run, sizes);
      // The target's echoes did reach the reports, blotted out: the search below looks where the token was.
      const report = readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8');
      expect(report.includes('EchoUnicode'), 'the echoes are in conformance.json').toBe(true);
      expect(report.includes('<redacted token>'), 'conformance.json holds redacted tokens').toBe(true);
      const hits = findSecrets(
        [...filesOf(run.reportDir), ...filesOf(runDir), { name: 'stdout', text: run.stdout }, { name: 'stderr', text: run.stderr }],
        secrets,
      );
      expect(hits, 'token forms found').toEqual([]);
      // The run's temp folder, kept on request: private to the user, and its dataset holds no token.
      expect(statSync(runDir).mode & 0o777).toBe(0o700);
      for (const file of filesBelow(runDir)) expect(statSync(file).mode & 0o777, file).toBe(0o600);
      expect(existsSync(path.join(runDir, 'dataset.json'))).toBe(true);
      expectValidJunit(run);
      expect(await fetchesOf(path.join(run.reportDir, 'index.html'))).toEqual([]);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});

test('a target answering JSON nested 20,000 deep: every result is written, the reports stay small, the run ends in minutes', async () => {
  await withTarget('deep', async (target) => {
    const run = await runKit(target, 'deep');
    const sizes = expectWholeAndBounded(run);
    figures(`deep (${DEEP_LEVELS} levels)`, run, sizes);
    expect(run.durationMs).toBeLessThan(180_000);
    // At least agc, Playwright's runner and its worker: a sampler that saw nothing would pass any bound.
    expect(run.maxTreeRssMb, 'peak memory of the run, as sampled').toBeGreaterThan(100);
    expect(run.maxTreeRssMb).toBeLessThan(1024);
    expect(`${run.stdout}${run.stderr}`).not.toContain('Maximum call stack size exceeded');
    expect(summaryOf(run).verdict).toBe('non-conformant');
    // The run's temp folder is gone at the end.
    expect(existsSync(runDirOf(run.runId))).toBe(false);
    expectValidJunit(run);
  });
});

test('a reporter given evidence nested 100,000 deep writes every result', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-deep-reporter-'));
  const previous = process.env.AG_REPORT_DIR;
  process.env.AG_REPORT_DIR = dir;
  try {
    const deepBody = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const evidence = `{"failure":{"check":"envelopeShape","received":"deep","documented":"d","fix":"f"},"exchange":{"request":{"method":"POST","url":"http://t/","headers":{},"body":"{}"},"response":{"status":200,"headers":{},"body":"x","json":${deepBody}}}}`;
    const testCase = {
      id: 't1',
      title: 'ENV-01 deep',
      annotations: [{ type: 'requirement', description: 'ENV-01' }],
      location: { file: path.join(ROOT, 'suites', 'envelope.spec.ts'), line: 1, column: 1 },
    };
    const result = {
      status: 'failed',
      duration: 1,
      annotations: [],
      errors: [{ message: 'deep' }],
      attachments: [{ name: 'evidence', contentType: 'application/json', body: Buffer.from(evidence) }],
    };
    const reporter = new ConformanceOutputs();
    reporter.onBegin({ projects: [] } as never, {} as never);
    reporter.onTestEnd(testCase as never, result as never);
    await reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1 } as never);
    const summary = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
    expect(summary.requirements.find((r: { id: string }) => r.id === 'ENV-01').status).toBe('failed');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toContain('ENV-01');
    expectWellFormedXml(path.join(dir, 'junit.xml'));
  } finally {
    if (previous === undefined) delete process.env.AG_REPORT_DIR;
    else process.env.AG_REPORT_DIR = previous;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a target answering every request with a 4 MiB error body: bounded reports and memory, each finding shown once', async () => {
  await withTarget('huge', async (target) => {
    const run = await runKit(target, 'huge');
    const sizes = expectWholeAndBounded(run);
    figures(`huge (${HUGE_BYTES} bytes each)`, run, sizes);
    expect(run.durationMs).toBeLessThan(180_000);
    // At least agc, Playwright's runner and its worker: a sampler that saw nothing would pass any bound.
    expect(run.maxTreeRssMb, 'peak memory of the run, as sampled').toBeGreaterThan(100);
    expect(run.maxTreeRssMb).toBeLessThan(1024);
    expect(sizes['conformance.json']).toBeLessThan(32 * MiB);
    expect(sizes['index.html']).toBeLessThan(32 * MiB);
    const html = readFileSync(path.join(run.reportDir, 'index.html'), 'utf8');
    expect(html).toContain('more characters cut');
    expect(html).toContain('The same finding was seen by');
    expectValidJunit(run);
  });
});

test('a target that takes the cookie it set instead of the token fails AUTH-01; the kit sends no cookie of its own', async () => {
  await withTarget('cookie', async (target) => {
    const run = await runKit(target, 'cookie', { args: ['--grep', 'AUTH-'] });
    expect(statusOf(run, 'AUTH-01'), run.stdout.slice(-3000)).toBe('failed');
    // Only the replay sends cookies: its list and its create.
    expect(target.seen.withCookie).toBe(2);
  });
});

test('a target that waives authentication for clients without a User-Agent fails AUTH-01 and AUTH-06; every other request names the kit', async () => {
  await withTarget('noUserAgent', async (target) => {
    const run = await runKit(target, 'no-ua', { args: ['--grep', 'AUTH-'] });
    expect(statusOf(run, 'AUTH-01'), run.stdout.slice(-3000)).toBe('failed');
    expect(statusOf(run, 'AUTH-06')).toBe('failed');
    // The two anonymous requests and the near miss of the appended AUTH tests, nothing else.
    expect(target.seen.withoutUserAgent).toBe(3);
    expect([...target.seen.userAgents]).toEqual([`asset-group-conformance-kit/${KIT_VERSION}`]);
  });
});

test("workflow commands, ANSI escapes and newlines in a target's bodies and headers reach the console and JUnit inert", async () => {
  await withTarget('commands', async (target) => {
    const run = await runKit(target, 'commands');
    const console = `${run.stdout}\n${run.stderr}`;
    // The target's text did reach the console: what is checked below is how.
    expect(console).toContain('pwned-by-target');
    expectInertConsole(console);
    expectValidJunit(run);
    const junit = readFileSync(path.join(run.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toContain('pwned-by-target');
    expectInertConsole(junit.replace(/&#27;|\\x1b/g, ''));
    expect(await fetchesOf(path.join(run.reportDir, 'index.html'))).toEqual([]);
  });
});

// ---------------------------------------------------------------- faults told truly

test('a timeout the kit enforced is reported as a timeout with its limit, not as a reset by the target', async () => {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ex = await send(url, { action: 'ListAssetGroups', version: '2024-01-01', body: '{}', authorization: null, authorizationShown: '', timeoutMs: 400 });
    expect(ex.networkError).toMatch(/timed out: no complete answer within 400 ms \(AG_REQUEST_TIMEOUT_MS; the kit closed the connection\)/);
    expect(ex.networkError).not.toMatch(/reset/);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("fail-fast is one decision for the whole run: a worker that finds the target gone stops every other worker's requests, and no other run's", async () => {
  const runId = `ff${Date.now().toString(36)}`;
  ensureRunDir(runId);
  try {
    // A port nothing listens on: three failures, then the probe fails too.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const options = { action: 'ListAssetGroups', version: '2024-01-01', body: '{}', authorization: null, authorizationShown: '', timeoutMs: 1000 };
    for (let i = 0; i < 3; i++) await noteAnswer(runId, await send(url, options), url, options);
    // Another process of the same run (another worker) sends nothing.
    const script = `const { sendWhileAlive } = require(${JSON.stringify(path.join(ROOT, 'client', 'liveness.ts'))}); sendWhileAlive(${JSON.stringify(runId)}, ${JSON.stringify(url)}, ${JSON.stringify(options)}).then((ex) => console.log(ex.networkError));`;
    const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), '-e', script], {
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(out).toMatch(/not sent: the target stopped answering/);
    // Another run in this same process (the self-test's batches hold several in one runner) still sends: the decision is per run.
    const other = `${runId}x`;
    ensureRunDir(other);
    try {
      expect((await sendWhileAlive(other, url, options)).networkError).not.toMatch(/^not sent/);
    } finally {
      removeRunDir(other);
    }
  } finally {
    removeRunDir(runId);
  }
});
