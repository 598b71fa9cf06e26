/**
 * Reproduction: a report's failure reproduced by whoever must fix it. One kit run against a mutant
 * (INPUT-07's NUL in a Name filter answered with a 500); the curl line of its conformance.json, run
 * with bash, gets the same 500; `agc replay` of the report says "still failing" against the mutant,
 * "fixed" against the reference server, and "not reproducible" when the report's own address answers
 * as the reference server does. The check registry (replay/checks.ts) is tested on its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CHECKS_BY_FAMILY } from '../suites/checks';
import type { Exchange } from '../client/exchange';
import { errorKinds, profileAt } from '../schemas';
import { findMutant } from '../reference/mutants';
import { startReferenceServer, type ReferenceServer } from '../reference/server';
import { esc } from '../reporters/html-parts';
import { checkNamed, REJUDGEABLE } from '../replay/checks';
import { findingsOf, replay, type Finding, type Report } from '../replay/replay';
import { readJson, referenceTokenEnv, runAgc } from './helpers/harness';

const MUTANT = 'nameFilterNulCrashesBehindSurrogateCheck';

test('every check of the kit is either re-applied by its name or said to need the run', () => {
  const { profile, validate } = profileAt(undefined);
  const context = { profile, validate, errorKinds, successes: [] };
  const answer: Exchange = {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:1/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01',
      action: 'ListAssetGroups',
      version: '2024-01-01',
      headers: {},
      body: '{}',
    },
    response: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'boom', jsonError: 'not JSON' },
    durationMs: 1,
  };
  const names = Object.values(CHECKS_BY_FAMILY).flatMap((family) =>
    Object.entries(family)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name),
  );
  expect(names.length).toBeGreaterThan(40);
  let rejudged = 0;
  for (const name of names) {
    const found = checkNamed(name);
    if ('why' in found) {
      expect(found.why, name).not.toContain('no check of this kit');
      continue;
    }
    rejudged++;
    // A factory would answer with a function: a re-applied check must answer a failure of its own name, or nothing.
    const result = found.check(answer, context);
    if (result !== undefined) expect(result.check, name).toBe(name);
  }
  expect(rejudged, 'plain checks re-applied').toBe(REJUDGEABLE.length - 2);
  for (const name of ['statusIs(400)', 'validates(ListResult)']) expect('check' in checkNamed(name), name).toBe(true);
  expect(checkNamed('statusIs(400)')).toHaveProperty('check');
  expect((checkNamed('statusIs(400)') as { check: (ex: Exchange) => unknown }).check(answer)).toMatchObject({ check: 'statusIs(400)' });
  expect(checkNamed('listsExactly')).toHaveProperty('why', expect.stringContaining("run's own data"));
  expect(checkNamed('pagesPartition')).toHaveProperty('why', expect.stringContaining('several exchanges'));
  expect(checkNamed('noSuchCheck')).toHaveProperty('why', expect.stringContaining('no check of this kit'));
});

test('the findings replayed are the failures of failed tests, of the requirements asked for', () => {
  const failure = (check: string) => ({ check, received: 'r' });
  const report = {
    target: { baseURL: 'http://127.0.0.1:1', embedded: false },
    profile: { name: 'reference', path: null },
    requirements: [
      { id: 'VER-03', level: 'SHOULD', status: 'failed', tests: [{ title: 'VER-03 t', status: 'failed', failures: [failure('echoesVersion')] }] },
      {
        id: 'INPUT-07',
        level: 'MUST',
        status: 'failed',
        tests: [{ title: 'INPUT-07 t', status: 'failed', failures: [failure('noServerError'), failure('clientError')] }],
      },
      { id: 'ENV-01', level: 'MUST', status: 'passed', tests: [{ title: 'ENV-01 t', status: 'passed', failures: [failure('stale')] }] },
    ],
  } as Report;
  expect(findingsOf(report).map((f) => `${f.requirement} ${f.check}`)).toEqual(['VER-03 echoesVersion', 'INPUT-07 noServerError', 'INPUT-07 clientError']);
  expect(findingsOf(report, ['input-07']).map((f) => f.check)).toEqual(['noServerError', 'clientError']);
});

test('sent several times, a failure that repeats only sometimes is flaky, with every outcome kept', async () => {
  // Every other answer a 500: the failure of noServerError comes and goes.
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(n++ % 2 ? 200 : 500, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const finding: Finding = {
      requirement: 'INPUT-07',
      level: 'MUST',
      test: 'INPUT-07 t',
      check: 'noServerError',
      received: 'HTTP 500',
      exchange: {
        request: {
          method: 'POST',
          url: `${base}/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01`,
          action: 'ListAssetGroups',
          version: '2024-01-01',
          headers: { authorization: 'Bearer <AG_TOKEN>' },
          body: '{}',
        },
        response: { status: 500 },
      },
    };
    const { profile, validate } = profileAt(undefined);
    const options = {
      reportBase: base,
      targetBase: base,
      context: { profile, validate, errorKinds, successes: [] },
      timeoutMs: 5000,
      env: { AG_TOKEN: 'tok-flaky-123456' },
    };
    const [flaky] = await replay([finding], { ...options, repeat: 4 });
    expect(flaky.outcome).toBe('flaky');
    expect(flaky.attempts?.map((a) => a.outcome)).toEqual(['still failing', 'not reproducible', 'still failing', 'not reproducible']);
    expect(flaky.detail).toMatch(/^failed 2 of 4 times/);
    n = 0;
    const [once] = await replay([finding], options);
    expect(once.outcome).toBe('still failing');
    const [unset] = await replay([finding], { ...options, env: {} });
    expect(unset).toMatchObject({ outcome: 'not re-judgeable', detail: expect.stringContaining('AG_TOKEN not set') });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('agc replay: a usage error is one line and exit 3; --help prints the outcomes and the exit codes', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-replay-usage-'));
  const embedded = path.join(dir, 'conformance.json');
  writeFileSync(
    embedded,
    JSON.stringify({ target: { baseURL: 'http://127.0.0.1:1', embedded: true }, profile: { name: 'reference', path: null }, requirements: [] }),
  );
  const cases = [
    [],
    ['--bogus', dir],
    [path.join(dir, 'missing.json')],
    [dir],
    [dir, '--base-url', 'ftp://x'],
    [dir, '--base-url', 'http://127.0.0.1:1', '--repeat', '11'],
  ];
  const runs = await Promise.all(cases.map((args) => runAgc(['replay', ...args], {}, { timeoutMs: 60_000 })));
  for (const [i, run] of runs.entries()) {
    expect(run.status, `agc replay ${cases[i].join(' ')}: ${run.stdout}${run.stderr}`).toBe(3);
    expect(run.stderr.trim().split('\n'), 'one line').toHaveLength(1);
    expect(run.stderr).toMatch(/^agc replay: /);
  }
  expect(runs[3].stderr).toContain('--base-url');
  const help = await runAgc(['replay', '--help'], {});
  expect(help.status).toBe(0);
  for (const outcome of ['still failing', 'flaky', 'fixed', 'not reproducible', 'no answer', 'not re-judgeable', '--requirement', '--repeat', '--json'])
    expect(help.stdout).toContain(outcome);
  expect(help.stdout).toContain('Exit status (the same for every agc command)');
});

const bash = (command: string, env: Record<string, string>) =>
  new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
    execFile('bash', ['-c', command], { env: { PATH: process.env.PATH, ...env }, timeout: 15_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    ),
  );

test.describe('a report of a mutant, reproduced', () => {
  test.setTimeout(120_000);
  const servers: ReferenceServer[] = [];
  test.afterAll(async () => {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
  });

  test('its curl line reproduces the finding in bash; agc replay says still failing, fixed, not reproducible', async () => {
    const mutant = findMutant(MUTANT)!;
    const broken = await startReferenceServer({ hooks: mutant.hooks, lagMs: 25, createRate: null, port: 0 });
    servers.push(broken);
    const reference = await startReferenceServer({ lagMs: 25, createRate: null, port: 0 });
    servers.push(reference);
    const tokens = referenceTokenEnv();
    const work = mkdtempSync(path.join(os.tmpdir(), 'agc-replay-'));
    const reportDir = path.join(work, 'report');

    const run = await runAgc(['run', '--grep', 'INPUT-07', '--report-dir', reportDir], { ...tokens, AG_BASE_URL: broken.url, AG_SEED: '7' });
    const report = readJson(path.join(reportDir, 'conformance.json'));
    const input07 = report.requirements.find((r: { id: string }) => r.id === 'INPUT-07');
    expect(input07?.status, `${run.stdout}\n${run.stderr}`).toBe('failed');
    const failure = input07.tests.flatMap((t: { failures: unknown[] }) => t.failures)[0];
    expect(failure.check).toBe('noServerError');
    const curl: string = failure.exchange.curl;

    await test.step('the curl line, run with bash and AG_TOKEN set, gets the 500 the report shows', async () => {
      expect(curl).toMatch(/^curl -sS -X POST '/);
      expect(curl).toContain('"Authorization: Bearer $AG_TOKEN"');
      for (const value of Object.values(tokens)) expect(curl, 'no token value in the line').not.toContain(value);
      const { stdout } = await bash(`${curl} -w '\\n%{http_code}'`, { AG_TOKEN: tokens.AG_TOKEN });
      expect(stdout.trim().split('\n').at(-1)).toBe('500');
      expect(failure.exchange.response.status).toBe(500);
      // The same line against the reference server: the NUL is refused or matched, never a 5xx.
      const fixed = await bash(`${curl.replace(broken.url, reference.url)} -w '\\n%{http_code}'`, { AG_TOKEN: tokens.AG_TOKEN });
      expect(Number(fixed.stdout.trim().split('\n').at(-1))).toBeLessThan(500);
      const html = readFileSync(path.join(reportDir, 'index.html'), 'utf8');
      expect(html).toContain(`<pre class="cmd"><code>${esc(curl)}</code></pre>`);
    });

    const replay = async (label: string, args: string[]) => {
      const out = path.join(work, `${label}.json`);
      const done = await runAgc(['replay', reportDir, '--requirement', 'INPUT-07', '--json', out, ...args], tokens, { timeoutMs: 60_000 });
      return { ...done, json: readJson(out) };
    };

    await test.step('agc replay against the mutant: still failing, exit 1', async () => {
      const r = await replay('mutant', []);
      expect(r.status, r.stderr).toBe(1);
      expect(r.json.findings.map((f: { outcome: string }) => f.outcome)).toEqual(['still failing']);
      expect(r.json.findings[0].after.status).toBe(500);
      expect(r.stdout).toMatch(/^still failing +INPUT-07 \(MUST\) noServerError \[HTTP 500\]/m);
    });

    await test.step('agc replay --base-url the reference server: fixed, exit 0', async () => {
      const r = await replay('reference', ['--base-url', reference.url]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.json.findings.map((f: { outcome: string }) => f.outcome)).toEqual(['fixed']);
      expect(r.json.target).toBe(reference.url);
    });

    await test.step("agc replay against the report's own address, now answering as the reference server: not reproducible", async () => {
      const port = Number(new URL(broken.url).port);
      await broken.close();
      servers.push(await startReferenceServer({ lagMs: 25, createRate: null, port }));
      const r = await replay('same', []);
      expect(r.status, r.stderr).toBe(0);
      expect(r.json.findings.map((f: { outcome: string }) => f.outcome)).toEqual(['not reproducible']);
      const text = readFileSync(path.join(work, 'same.json'), 'utf8') + r.stdout + r.stderr;
      for (const value of Object.values(tokens)) expect(text, 'no token value in what replay wrote').not.toContain(value);
    });
  });
});
