/**
 * The kit under attack (issue 19): the target is untrusted input. Each test runs the kit, as a user
 * would (`agc run`), against a hostile target (tests/hostile-target.ts) and checks what the kit
 * wrote and printed; each check is first shown able to fail (a planted token is found, the target's
 * text did reach the output it was neutralised in, the attack did fail the requirement it breaks).
 */
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { cleanEnv, filesBelow, ROOT } from './harness';
import { DEEP_LEVELS, HUGE_BYTES, startHostileTarget, type HostileMode, type HostileTarget } from './hostile-target';
import { loadCatalogue } from '../schemas/requirements';
import HtmlReporter from '../reporters/html';
import JsonReporter from '../reporters/json';
import JunitReporter from '../reporters/junit';
import { send } from '../client/exchange';
import { noteAnswer } from '../client/liveness';
import { ensureRunDir, removeRunDir, runDirOf } from '../client/run-dir';

test.setTimeout(300_000);

/** Each run's folder (reports, console.txt): kept while a test fails, for a look, removed once it passes. */
const workDirs: string[] = [];
test.afterEach(({}, testInfo) => {
  for (const dir of workDirs.splice(0)) if (testInfo.status === testInfo.expectedStatus) rmSync(dir, { recursive: true, force: true });
});

const AGC = path.join(ROOT, 'bin', 'agc.mjs');
const KIT_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const MiB = 1024 * 1024;
const assessed = loadCatalogue()
  .requirements.filter((r) => r.level !== 'NOT-ASSESSED')
  .map((r) => r.id);

interface HostileRun {
  status: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  runId: string;
  durationMs: number;
  /** Peak of the summed resident memory of agc, Playwright and its workers, sampled every 250 ms. */
  maxTreeRssMb: number;
}

/** Resident memory of a process and all its descendants, in bytes, from /proc. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
      rss.set(Number(name), kb ? Number(kb[1]) * 1024 : 0);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** `agc run` against the target, one worker, with its own report folder and run id; bounded by SIGINT. */
async function runKit(
  target: HostileTarget,
  label: string,
  extra: { env?: Record<string, string>; args?: string[]; timeoutMs?: number } = {},
): Promise<HostileRun> {
  const work = mkdtempSync(path.join(os.tmpdir(), `agc-hostile-${label}-`));
  workDirs.push(work);
  const reportDir = path.join(work, 'report');
  const runId = `h${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 16);
  const env = {
    ...cleanEnv(),
    ...target.tokenEnv,
    AG_BASE_URL: target.url,
    AG_REPORT_DIR: reportDir,
    AG_RUN_ID: runId,
    AG_VISIBILITY_TIMEOUT_MS: '3000',
    AG_REQUEST_TIMEOUT_MS: '5000',
    AG_NUM_RUNS: '5',
    AG_SEED: '7',
    CI: '1',
    // Playwright's own colours off, so that any escape on the console would be the target's.
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    ...extra.env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [AGC, 'run', '--workers', '1', ...(extra.args ?? [])], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, treeRss(child.pid!))), 250);
  const timer = setTimeout(() => {
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  }, extra.timeoutMs ?? 240_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  clearTimeout(timer);
  writeFileSync(path.join(work, 'console.txt'), `${stdout}\n----- stderr\n${stderr}`);
  return { status, stdout, stderr, reportDir, runId, durationMs: Date.now() - started, maxTreeRssMb: Math.round(maxRss / MiB) };
}

// ---------------------------------------------------------------- looking for a token, independently of client/redact.ts

/** The forms the hostile target writes a secret in. (JSON inside JSON doubles backslashes: the search collapses them first.) */
function formsOf(secret: string): string[] {
  const unicode = (upper: boolean, alternate: boolean) =>
    [...secret]
      .map((c, i) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[(alternate ? i % 2 === 1 : upper) ? 'toUpperCase' : 'toLowerCase']()}`)
      .join('');
  const base64: string[] = [];
  for (const pad of ['', 'a', 'ab']) {
    const encoded = Buffer.from(pad + secret).toString('base64');
    const stable = encoded.slice(Math.ceil((pad.length * 8) / 6), Math.floor((pad.length + secret.length) / 3) * 4);
    base64.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  const forms = [
    secret,
    secret.toLowerCase(),
    secret.replace(/\//g, '\\/'),
    unicode(false, false),
    unicode(true, false),
    unicode(false, true),
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    ...base64,
  ];
  return [...new Set(forms)];
}

function findSecrets(texts: { name: string; text: string }[], secrets: string[]): string[] {
  const hits: string[] = [];
  const collapsed = texts.map(({ name, text }) => ({ name, text: text.replace(/\\+/g, '\\') }));
  for (const secret of secrets)
    for (const form of formsOf(secret)) for (const { name, text } of collapsed) if (text.includes(form)) hits.push(`${name}: ${form}`);
  return hits;
}

const filesOf = (dir: string) => (existsSync(dir) ? filesBelow(dir).map((file) => ({ name: file, text: readFileSync(file, 'latin1') })) : []);

/** The search finds each form: planted in a file among noise, one form a file. */
function expectSearchFinds(secret: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-plant-'));
  try {
    formsOf(secret).forEach((form, i) =>
      writeFileSync(path.join(dir, `planted-${i}.txt`), `noise ${'x'.repeat(i)} ${JSON.stringify({ planted: form })} noise`),
    );
    const hits = findSecrets(filesOf(dir), [secret]);
    for (let i = 0; i < formsOf(secret).length; i++)
      expect(
        hits.some((h) => h.includes(`planted-${i}.txt`)),
        `planted form ${i} found`,
      ).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summaryOf(run: HostileRun): { verdict: string; requirements: { id: string; status: string }[] } {
  return JSON.parse(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'));
}

const statusOf = (run: HostileRun, id: string) => summaryOf(run).requirements.find((r) => r.id === id)?.status;

/** Every assessed requirement has a result in the report, and no file of it is over 64 MiB. */
function expectWholeAndBounded(run: HostileRun): Record<string, number> {
  const ids = new Set(
    summaryOf(run)
      .requirements.filter((r) => r.status !== 'not-assessed')
      .map((r) => r.id),
  );
  expect(
    assessed.filter((id) => !ids.has(id)),
    `requirements missing from conformance.json\n${run.stderr.slice(-2000)}`,
  ).toEqual([]);
  const sizes: Record<string, number> = {};
  for (const file of filesBelow(run.reportDir)) {
    sizes[path.relative(run.reportDir, file)] = statSync(file).size;
    expect(statSync(file).size, `${file} size`).toBeLessThan(64 * MiB);
  }
  return sizes;
}

/** No console line a CI runner would read as a command, and no terminal escape. */
function expectInertConsole(text: string): void {
  const lines = text.split(/\r?\n|\r/);
  expect(
    lines.filter((l) => /^\s*(::|##)/.test(l) || l.includes('##vso[')),
    'console lines that are workflow commands',
  ).toEqual([]);
  expect(text.includes('\u001b'), 'an ESC on the console').toBe(false);
}

function expectValidJunit(run: HostileRun): void {
  execFileSync('xmllint', ['--noout', path.join(run.reportDir, 'junit.xml')]);
}

/** Opens index.html in Debian's chromium with every request routed: the page must fetch nothing. */
async function fetchesOf(file: string): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const fetched: string[] = [];
    const own = `file://${file}`;
    await page.route('**/*', (route) => {
      if (route.request().url() === own) return route.continue();
      fetched.push(route.request().url());
      return route.abort();
    });
    await page.goto(own);
    await page.waitForLoadState('load');
    await page.close();
    return fetched;
  } finally {
    await browser.close();
  }
}

const figures = (label: string, run: HostileRun, sizes: Record<string, number>) =>
  console.log(
    `${label}: exit ${run.status}, ${(run.durationMs / 1000).toFixed(1)} s, peak RSS of the process tree ${run.maxTreeRssMb} MiB, files: ${Object.entries(sizes)
      .filter(([name]) => !name.includes('test-output'))
      .map(([name, size]) => `${name} ${(size / 1024).toFixed(0)} KiB`)
      .join(', ')}`,
  );

async function withTarget<T>(mode: HostileMode, body: (target: HostileTarget) => Promise<T>): Promise<T> {
  const target = await startHostileTarget(mode);
  try {
    return await body(target);
  } finally {
    await target.close();
  }
}

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
    for (const Reporter of [JsonReporter, HtmlReporter, JunitReporter]) {
      const reporter = new Reporter();
      reporter.onBegin({ projects: [] } as never, {} as never);
      reporter.onTestEnd(testCase as never, result as never);
      await reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1 } as never);
    }
    const summary = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
    expect(summary.requirements.find((r: { id: string }) => r.id === 'ENV-01').status).toBe('failed');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toContain('ENV-01');
    execFileSync('xmllint', ['--noout', path.join(dir, 'junit.xml')]);
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

test("fail-fast is one decision for the whole run: a worker that finds the target gone stops every other worker's requests", async () => {
  const runId = `ff${Date.now().toString(36)}`;
  const previous = process.env.AG_RUN_ID;
  process.env.AG_RUN_ID = runId;
  ensureRunDir(runId);
  try {
    // A port nothing listens on: three failures, then the probe fails too.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const options = { action: 'ListAssetGroups', version: '2024-01-01', body: '{}', authorization: null, authorizationShown: '', timeoutMs: 1000 };
    for (let i = 0; i < 3; i++) await noteAnswer(await send(url, options), url, options);
    // Another process of the same run (another worker) sends nothing.
    const script = `const { sendWhileAlive } = require(${JSON.stringify(path.join(ROOT, 'client', 'liveness.ts'))}); sendWhileAlive(${JSON.stringify(url)}, ${JSON.stringify(options)}).then((ex) => console.log(ex.networkError));`;
    const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), '-e', script], {
      env: { ...cleanEnv(), AG_RUN_ID: runId },
      encoding: 'utf8',
    });
    expect(out).toMatch(/not sent: the target stopped answering/);
  } finally {
    removeRunDir(runId);
    if (previous === undefined) delete process.env.AG_RUN_ID;
    else process.env.AG_RUN_ID = previous;
  }
});
