// client/read-cache.ts: a read sent once per run, shared by the workers through the run's folder.
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ReadCache } from '../client/read-cache';
import { removeRunDir, runDirOf } from '../client/run-dir';
import type { Exchange } from '../client/exchange';

const exchange = (status: number, body = '{"Result":{}}'): Exchange => ({
  request: { method: 'POST', url: 'http://127.0.0.1/', action: 'ListAssetGroups', version: '2024-01-01', headers: {}, body: '{}' },
  response: { status, headers: {}, body, json: JSON.parse(body) },
  durationMs: 1,
});

/** A sender that counts its sends and answers after `ms`. */
function sender(answer: Exchange, ms = 0) {
  const sent = { count: 0 };
  return { sent, send: async () => (sent.count++, await new Promise((r) => setTimeout(r, ms)), answer) };
}

let runId = '';
test.beforeEach(() => {
  runId = `rc-${randomBytes(4).toString('hex')}`;
});
test.afterEach(() => removeRunDir(runId));

test('a read asked by two workers, one after the other or at the same time, is sent once', async () => {
  const key = ReadCache.key(['primary', 'ListAssetGroups', '{}']);
  const [first, second, third] = [new ReadCache(runId, 5_000), new ReadCache(runId, 5_000), new ReadCache(runId, 5_000)];
  const a = sender(exchange(200), 50);
  const b = sender(exchange(200));
  // The second asks while the first's request is under way: it waits for that answer.
  const [one, two] = await Promise.all([first.read(key, a.send), second.read(key, b.send)]);
  expect([one.sent, two.sent]).toEqual([true, false]);
  expect(two.exchange.response?.status).toBe(200);
  // A third, later, reads the published answer.
  const three = await third.read(key, b.send);
  expect(three.sent).toBe(false);
  expect(a.sent.count + b.sent.count).toBe(1);
});

test('only what the caller calls shareable is shared: by default a 200, never an error', async () => {
  const key = ReadCache.key(['primary', 'ListAssetGroups', '{"x":1}']);
  const failing = sender(exchange(500, '{"Error":{}}'));
  expect((await new ReadCache(runId, 5_000).read(key, failing.send)).sent).toBe(true);
  const other = sender(exchange(200));
  expect((await new ReadCache(runId, 5_000).read(key, other.send)).sent).toBe(true);
  expect(failing.sent.count + other.sent.count).toBe(2);

  const errorKey = ReadCache.key(['primary', 'NoSuchAction', '{}']);
  const refused = sender(exchange(400, '{"Error":{}}'));
  await new ReadCache(runId, 5_000).read(errorKey, refused.send, (ex) => !!ex.response);
  const shared = await new ReadCache(runId, 5_000).read(errorKey, refused.send, (ex) => !!ex.response);
  expect([shared.sent, refused.sent.count]).toEqual([false, 1]);
});

test('a claim that never answers is given up after the patience, and the read sent again', async () => {
  const key = ReadCache.key(['primary', 'ListAssetGroups', '{"y":1}']);
  const cache = new ReadCache(runId, 200);
  // Another worker claimed the read and died before answering.
  writeFileSync(path.join(runDirOf(runId), 'reads', `${key}.claim`), '');
  const own = sender(exchange(200));
  const started = Date.now();
  const outcome = await cache.read(key, own.send);
  expect(outcome.sent).toBe(true);
  expect(own.sent.count).toBe(1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(190);
});

test('an answer offered from outside (a poll that saw everything) is read, and never replaces one already there', async () => {
  const key = ReadCache.key(['channelA', 'ListAssetGroups', '{"z":1}']);
  const cache = new ReadCache(runId, 5_000);
  cache.offer(key, exchange(200, '{"Result":{"TotalCount":1}}'));
  cache.offer(key, exchange(200, '{"Result":{"TotalCount":2}}'));
  const never = sender(exchange(200));
  const outcome = await new ReadCache(runId, 5_000).read(key, never.send);
  expect(outcome.sent).toBe(false);
  expect(outcome.exchange.response?.json).toEqual({ Result: { TotalCount: 1 } });
  expect(never.sent.count).toBe(0);
});

test("a run's only worker keeps its reads in memory: sent once, shared by its tests, no file written; the phase's published answers are read", async () => {
  const reads = () => readdirSync(path.join(runDirOf(runId), 'reads'));
  // The create-and-wait phase, in the runner, publishes for the workers as always.
  const offered = ReadCache.key(['primary', 'ListAssetGroups', '{"p":1}']);
  new ReadCache(runId, 5_000).offer(offered, exchange(200, '{"Result":{"TotalCount":3}}'));
  expect(reads()).toHaveLength(1);

  const key = ReadCache.key(['primary', 'ListAssetGroups', '{"w":1}']);
  const a = sender(exchange(200, '{"Result":{"TotalCount":4}}'), 50);
  // Two tests' clients of the one worker: the second asks while the first's request is under way, a third later.
  const [one, two] = await Promise.all([new ReadCache(runId, 5_000, true).read(key, a.send), new ReadCache(runId, 5_000, true).read(key, a.send)]);
  const three = await new ReadCache(runId, 5_000, true).read(key, a.send);
  expect([one.sent, two.sent, three.sent, a.sent.count]).toEqual([true, false, false, 1]);
  // Each reader gets its own copy: what one test does to its exchange, another never sees.
  expect(two.exchange).not.toBe(three.exchange);
  expect(three.exchange.response?.json).toEqual({ Result: { TotalCount: 4 } });

  const never = sender(exchange(200));
  const phase = await new ReadCache(runId, 5_000, true).read(offered, never.send);
  expect([phase.sent, never.sent.count, phase.exchange.response?.json]).toEqual([false, 0, { Result: { TotalCount: 3 } }]);

  // An error is each asker's own, here too.
  const errorKey = ReadCache.key(['primary', 'ListAssetGroups', '{"e":1}']);
  const failing = sender(exchange(500, '{"Error":{}}'));
  await new ReadCache(runId, 5_000, true).read(errorKey, failing.send);
  expect((await new ReadCache(runId, 5_000, true).read(errorKey, failing.send)).sent).toBe(true);
  expect(failing.sent.count).toBe(2);

  // Nothing but the phase's answer was written.
  expect(reads()).toEqual([`${offered}.json`]);
});
