/**
 * A certification's HAR (AG_HAR_ALL, issue 50 part 5), without a target: what each sender writes (client/exchange-log.ts)
 * is bounded and redacted as evidence is, and the reporter (reporters/har-all.ts) gathers every line in the order sent,
 * marks the evidence, bounds the whole file and removes the senders' files. The whole run is tests/certify.test.ts's.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Exchange } from '../client/exchange';
import { evidenceOf } from '../client/evidence';
import { exchangeLogDir, logExchange } from '../client/exchange-log';
import { holdsSecret, secretPattern, secretsOf } from '../client/redact';
import { writeFullHar } from '../reporters/har-all';
import type { Har } from '../reporters/har-entries';
import { expectValidHar } from './helpers/har-schema';
import { summarize, type Outcome } from '../reporters/verdict';

const TOKEN = 'har-all-token-0123456789abcdef';

const exchange = (action: string, body: string, durationMs: number): Exchange => ({
  request: {
    method: 'POST',
    url: `http://127.0.0.1:9/v1/media_assets/?Action=${action}&Version=2024-01-01`,
    action,
    version: '2024-01-01',
    headers: { authorization: 'Bearer <AG_TOKEN>', 'content-type': 'application/json' },
    body: '{}',
  },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body },
  durationMs,
});

test('every exchange, in the order sent, each cut to the evidence bound and redacted; the evidence marked; the file bounded; the log removed', () => {
  const dir = exchangeLogDir(mkdtempSync(path.join(os.tmpdir(), 'agc-har-all-')), 'run1');
  const bounds = { limit: 200, capBytes: 3000, tokens: [TOKEN] };
  // A body far past the bound, and the token echoed back in base64 inside a body.
  const long = exchange('ListAssetGroups', `{"Items":"${'x'.repeat(5000)}"}`, 5);
  const echoed = exchange('CreateAssetGroup', `{"Echo":"${Buffer.from(`Bearer ${TOKEN}`).toString('base64')}"}`, 1);
  const failing = exchange('ListAssetGroups', '{"Result":{"Items":[]}}', 2);
  for (const ex of [long, echoed, failing]) logExchange(dir, ex, bounds);
  // Past this process's share of the bound: counted, not kept.
  for (let i = 0; i < 40; i++) logExchange(dir, exchange('ListAssetGroups', `{"n":${i}}`, 0), bounds);

  // One failure's evidence is the third exchange, as the suites record it.
  const outcome: Outcome = {
    requirement: 'LIST-01',
    title: 'LIST-01 a test',
    file: 'suites/list.spec.ts',
    status: 'failed',
    durationMs: 1,
    checks: ['someCheck'],
    failures: [{ check: 'someCheck', received: 'no items', documented: 'items', fix: 'list them', exchange: evidenceOf(failing, bounds.limit) }],
  };
  const facts = { lagsMs: [], neverVisible: 0, retries: { 429: 0, 503: 0 }, startedAt: new Date().toISOString(), finishedAt: '', runErrors: [], runId: 'run1' };
  const file = path.join(path.dirname(dir), 'exchanges.har');
  writeFullHar(file, summarize([outcome], facts), dir, 1_000_000);

  const text = readFileSync(file, 'utf8');
  const har = expectValidHar(file);
  const entries = har.log.entries;
  expect(entries.length).toBeGreaterThanOrEqual(3);
  expect(entries.length).toBeLessThan(43);
  expect(har.log.comment).toMatch(new RegExp(`; ${43 - entries.length} exchange\\(s\\) left out by that bound`));
  // In the order sent: the long one started first (its answer came after 5 ms).
  expect(entries.map((e) => e.startedDateTime)).toEqual([...entries.map((e) => e.startedDateTime)].sort());
  const body = entries.find((e) => e.response.content.text.startsWith('{"Items":"xxx'))!.response.content.text;
  expect(body.length).toBeLessThan(400);
  expect(body).toContain('more characters cut');
  expect(holdsSecret(text, secretPattern(secretsOf([TOKEN]))), 'no form of the token').toBe(false);
  expect(text).toContain('<redacted token>');
  // The evidence is the logged exchange, marked, not a second entry.
  const marked = entries.filter((e) => e._evidenceOf.length);
  expect(marked.map((e) => e._evidenceOf[0].requirement)).toEqual(['LIST-01']);
  expect(entries.filter((e) => e.response.content.text === '{"Result":{"Items":[]}}')).toHaveLength(1);
  expect(entries.filter((e) => !e._evidenceOf.length).every((e) => e.comment === 'sent by the kit; evidence of no failure')).toBe(true);
  expect(existsSync(dir)).toBe(false);

  // And the whole file is bounded too: a small bound keeps fewer entries and says how many it left out.
  const again = exchangeLogDir(path.dirname(dir), 'run2');
  for (const ex of [long, echoed, failing]) logExchange(again, ex, { ...bounds, capBytes: 1_000_000 });
  writeFullHar(file, summarize([], { ...facts, runId: 'run2' }), again, 1200);
  const small = JSON.parse(readFileSync(file, 'utf8')) as Har;
  expect(small.log.entries.length).toBeLessThan(3);
  expect(small.log.comment).toContain(`${3 - small.log.entries.length} exchange(s) left out by that bound`);
});
