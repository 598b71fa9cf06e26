/**
 * The bench's critical path (bench/critical-path.ts) and the proxy that adds latency at the socket (bench/latency-proxy.ts):
 * the chain is the longest run of requests each sent after the one before it was answered, and the proxy holds each answer;
 * and the bench scripts' options, said plainly when wrong.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { criticalPath, stepLabel } from '../bench/critical-path';
import { startLatencyProxy, type ProxiedExchange } from '../bench/latency-proxy';
import { refreshWaits } from '../bench/measure';

const at = (arrivedMs: number, answeredMs: number, body = '{}'): ProxiedExchange => ({ arrivedMs, answeredMs, action: 'ListAssetGroups', body, status: 200 });

test('the critical path is the longest chain of requests each sent after the one before it was answered', () => {
  // a → c → d one after another; b overlaps a and c; e overlaps everything after a.
  const log = [at(0, 10, '{"a":1}'), at(5, 30, '{"b":1}'), at(12, 20, '{"c":1}'), at(25, 40, '{"d":1}'), at(11, 50, '{"e":1}')];
  const path = criticalPath(log);
  expect(path.depth).toBe(3);
  expect(path.steps.map((s) => s.body)).toEqual(['{"a":1}', '{"c":1}', '{"d":1}']);
  expect(criticalPath([]).depth).toBe(0);
  // All at once: one round trip.
  expect(criticalPath([at(0, 10), at(1, 11), at(2, 12)]).depth).toBe(1);
});

test("a step is named by its operation and what it asks: a create's Name label, a list's filters and paging", () => {
  expect(stepLabel({ ...at(0, 1, '{"Name":"agc-r1-ds-p0-x"}'), action: 'CreateAssetGroup' }, 'agc-r1-')).toBe('CreateAssetGroup ds-p0-x → 200');
  expect(stepLabel(at(0, 1, '{"Filter":{"GroupIds":["a","b"]},"PageSize":100}'), 'agc-r1-')).toBe(
    'ListAssetGroups {Filter: {GroupIds: [2]}, PageSize: 100} → 200',
  );
  expect(stepLabel(at(0, 1, '{"Name": '), 'agc-r1-')).toBe('ListAssetGroups (a body that is not JSON) → 200');
});

test("the refresh scenario's snapshot: the run's first create waits the rest of its phase's period, every later group until the next refresh", () => {
  // A 3 s period with the first create a quarter into it: refreshes at 2250 ms and 5250 ms after that create.
  const waits = refreshWaits(3000, 0.25);
  expect(waits({ createdAt: 10_000 })).toBe(2250);
  // Asked again: the period stays where the first create set it.
  expect(waits({ createdAt: 10_000 })).toBe(2250);
  expect(waits({ createdAt: 10_100 })).toBe(2150);
  // Created at a refresh: in it, as the reference server's snapshot holds a group once a refresh is at or after its create.
  expect(waits({ createdAt: 12_250 })).toBe(0);
  expect(waits({ createdAt: 12_251 })).toBe(2999);
  // At phase 0 the first create comes at a refresh, and is in it.
  expect(refreshWaits(3000, 0)({ createdAt: 0 })).toBe(0);
  // Round r of N at (r - 1/2)/N: three rounds wait 2.5, 1.5 and 0.5 s.
  expect([1, 2, 3].map((r) => refreshWaits(3000, (r - 0.5) / 3)({ createdAt: 0 }))).toEqual([2500, 1500, 500]);
});

test('the proxy holds every answer the latency it adds, passes bodies through, and logs when each arrived and left', async () => {
  const target = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ echoed: req.url })));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const proxy = await startLatencyProxy(`http://127.0.0.1:${(target.address() as AddressInfo).port}`, 150);
  try {
    const started = performance.now();
    const answer = await fetch(`${proxy.url}/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01`, { method: 'POST', body: '{}' });
    expect(await answer.json()).toEqual({ echoed: '/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
    await expect.poll(() => proxy.log.length).toBe(1);
    expect(proxy.log[0]).toMatchObject({ action: 'ListAssetGroups', body: '{}', status: 200 });
    expect(proxy.log[0].answeredMs - proxy.log[0].arrivedMs).toBeGreaterThanOrEqual(150);
  } finally {
    await proxy.close();
    target.close();
  }
});

test('the bench scripts print their usage for --help, and an unknown option in one line with it, exit 2, no stack trace', () => {
  const tsx = path.join(__dirname, '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
  for (const script of ['bench/path.ts', 'bench/run.ts']) {
    const file = path.join(__dirname, '..', script);
    const help = spawnSync(process.execPath, [tsx, file, '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: /);
    const wrong = spawnSync(process.execPath, [tsx, file, '--bogus'], { encoding: 'utf8', timeout: 60_000 });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^Unknown option '--bogus'\n\nUsage: /);
    expect(wrong.stderr).not.toMatch(/^\s+at /m);
  }
});
