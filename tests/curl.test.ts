/**
 * The curl line of an evidence exchange (client/curl.ts), run with `bash -c` against a small echo
 * server on 127.0.0.1: the bytes of the body and the headers that reach the server must be the ones
 * the kit sent, for bodies a shell or curl would mangle too, and the token must come from the
 * environment, never from the line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { authorizationValue, curlOf, rebased, type CurlRequest } from '../client/curl';
import { evidenceJson, evidenceOf } from '../client/evidence';
import type { Exchange } from '../client/exchange';
import { exchangeLogDir, logExchange } from '../client/exchange-log';
import { writeFullHar } from '../reporters/har-all';
import { summarize } from '../reporters/verdict';
import { flipCase } from '../client/redact';
import { ANNOTATION, ATTACHMENT } from '../facts/record';
import ConformanceOutputs from '../reporters/conformance';

const TOKEN = 'tok-Primary-7f3a9c2e';
const OTHER = 'tok-Other-11aa22bb';
const ENV = { AG_TOKEN: TOKEN, AG_TOKEN_OTHER_USER: OTHER };

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: http.Server;
let base = '';
const received: Received[] = [];

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function bash(command: string, env: Record<string, string> = ENV): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', command], { env: { PATH: process.env.PATH, ...env }, timeout: 10_000 }, (error, _out, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    ),
  );
}

/** What the echo server received from the curl line of `request`. */
async function viaCurl(request: CurlRequest, env?: Record<string, string>): Promise<Received> {
  const before = received.length;
  const { command } = curlOf(request);
  await bash(command, env);
  expect(received.length, `one request reached the server from: ${command}`).toBe(before + 1);
  return received[received.length - 1];
}

const request = (body: string, headers: Record<string, string> = {}): CurlRequest => ({
  method: 'POST',
  url: `${base}/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01`,
  headers: {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'asset-group-conformance-kit/0.1.0',
    authorization: 'Bearer <AG_TOKEN>',
    ...headers,
  },
  body,
});

test('bodies a shell or curl would mangle reach the server byte for byte', async () => {
  const bodies = [
    '{}',
    '',
    '{"Filter":{"Name":"a\u0000b"}}',
    '{"Name":"it\'s \\"quoted\\" $HOME `id` !x"}',
    '@/etc/passwd',
    '{"Name":"line one\nline two\r\n\ttab"}',
    '{"Name":"\ufeffcafé 雪 😀 \u2028"}',
    '{"Name":"back\\\\slash \\u0000 %s %b \\c end"}',
    // A lone surrogate: the kit sends it as UTF-8 encodes it (EF BF BD), and so must the line.
    '{"Name":"\ud800"}',
    '{"Name":"\u001b[31mred\u001b[0m \u007f"}',
  ];
  for (const body of bodies) {
    const got = await viaCurl(request(body));
    expect(got.body.equals(Buffer.from(body, 'utf8')), `body ${JSON.stringify(body)}: got ${JSON.stringify(got.body.toString('latin1'))}`).toBe(true);
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)));
  }
});

test('the headers are the ones the kit sent, the token taken from the environment', async () => {
  const got = await viaCurl(request('{}'));
  expect(got.method).toBe('POST');
  expect(got.url).toBe('/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01');
  expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`);
  expect(got.headers['content-type']).toBe('application/json');
  expect(got.headers['user-agent']).toBe('asset-group-conformance-kit/0.1.0');
  // curl's own defaults are not sent where the kit sent none.
  expect(got.headers.accept).toBeUndefined();
  const bare = await viaCurl({ ...request('x'), headers: { authorization: 'Bearer <AG_TOKEN_OTHER_USER>' } });
  expect(bare.headers['content-type']).toBeUndefined();
  expect(bare.headers['user-agent']).toBeUndefined();
  expect(bare.headers.authorization).toBe(`Bearer ${OTHER}`);
  const odd = await viaCurl({ ...request('{}'), headers: { 'content-type': 'text/plain; charset="x"', 'user-agent': "it's é" } });
  expect(odd.headers['content-type']).toBe('text/plain; charset="x"');
  expect(Buffer.from(odd.headers['user-agent'] as string, 'latin1').toString('utf8')).toBe("it's é");
});

test("every form of the AUTH tests' Authorization header is rebuilt in bash as the kit built it", async () => {
  const forms = [
    'Bearer <AG_TOKEN>',
    'Basic <AG_TOKEN>',
    '<AG_TOKEN> with no scheme',
    'Bearer <AG_TOKEN without its last character>',
    "Bearer <AG_TOKEN with its letters' case flipped>",
    'Bearer <AG_TOKEN>x',
    'Bearer x<AG_TOKEN>',
    'Bearer <AG_TOKEN with its last character changed>',
    'Bearer <AG_TOKEN with a space in the middle>',
    'Bearer <AG_TOKEN> <AG_TOKEN>',
    'Bearer <AG_TOKEN_OTHER_USER>-<AG_TOKEN>',
    'Bearer <a random token the target never issued>',
    JSON.stringify('Bearer '),
  ];
  const expected = [
    `Bearer ${TOKEN}`,
    `Basic ${TOKEN}`,
    TOKEN,
    `Bearer ${TOKEN.slice(0, -1)}`,
    `Bearer ${flipCase(TOKEN)}`,
    `Bearer ${TOKEN}x`,
    `Bearer x${TOKEN}`,
    `Bearer ${TOKEN.slice(0, -1)}x`,
    `Bearer ${TOKEN.slice(0, 10)} ${TOKEN.slice(10)}`,
    `Bearer ${TOKEN} ${TOKEN}`,
    `Bearer ${OTHER}-${TOKEN}`,
    'Bearer agc-never-issued-token',
    // Node trims a header value's trailing space.
    'Bearer',
  ];
  for (const [i, shown] of forms.entries()) {
    const line = curlOf(request('{}', { authorization: shown })).command;
    expect(line, 'no token value in the line').not.toContain(TOKEN.slice(4));
    const got = await viaCurl(request('{}', { authorization: shown }));
    expect(got.headers.authorization, shown).toBe(expected[i]);
    expect(authorizationValue(shown, ENV)?.trim(), `agc replay's value for ${shown}`).toBe(expected[i]);
  }
  // The last character changed, where it was an x already.
  const x = await viaCurl(request('{}', { authorization: 'Bearer <AG_TOKEN with its last character changed>' }), { AG_TOKEN: 'tok-abcdefx' });
  expect(x.headers.authorization).toBe('Bearer tok-abcdefy');
});

test('every Authorization form the AUTH plans write is one the curl line and agc replay rebuild', () => {
  const source = readFileSync(path.join(__dirname, '..', 'suites', 'plans', 'auth.ts'), 'utf8');
  const forms = [...source.matchAll(/shown: (['"])((?:(?!\1).)*<(?:(?!\1).)*)\1/g)].map((m) => m[2]);
  expect(forms.length, 'forms found in suites/plans/auth.ts').toBeGreaterThan(8);
  for (const shown of forms) {
    expect(authorizationValue(shown, ENV), shown).toBeDefined();
    expect(curlOf(request('{}', { authorization: shown })).note, shown).toBeUndefined();
  }
});

test('what cannot be rebuilt is said, not guessed; an embedded run names its base URL by AG_BASE_URL', async () => {
  const cookie = curlOf(request('{}', { cookie: '<1 cookie(s) the target set: sid>' }));
  expect(cookie.note).toContain('Cookie');
  expect(cookie.command).not.toContain('Cookie');
  const unknown = curlOf(request('{}', { authorization: 'Bearer <something else>' }));
  expect(unknown.note).toContain('cannot be rebuilt');
  expect(unknown.command).not.toContain('Authorization');
  const r = request('{}');
  const line = rebased(curlOf(r).command, r.url, `${base}/`);
  expect(line).toContain(`"\${AG_BASE_URL%/}"'/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01'`);
  expect(line).not.toContain(base);
  const before = received.length;
  await bash(line, { ...ENV, AG_BASE_URL: `${base}/` });
  expect(received.length).toBe(before + 1);
  expect(received[received.length - 1].url).toBe('/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01');
});

/** conformance.json of one failed test with this evidence, from a run against `baseURL` (embedded or not). */
async function reported(evidence: object, baseURL: string, embedded: boolean): Promise<{ curl?: string; curlNote?: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-curl-'));
  const saved = process.env.AG_REPORT_DIR;
  process.env.AG_REPORT_DIR = dir;
  try {
    const reporter = new ConformanceOutputs();
    reporter.onBegin({ projects: [] } as never, {} as never);
    const attachment = (name: string, body: string) => ({ name, contentType: 'application/json', body: Buffer.from(body) });
    reporter.onTestEnd(
      {
        id: 't',
        title: 'VER-03 t',
        annotations: [{ type: ANNOTATION.requirement, description: 'VER-03' }],
        location: { file: 'x.ts', line: 1, column: 1 },
      } as never,
      {
        status: 'failed',
        duration: 1,
        annotations: [],
        errors: [{ message: 'failed' }],
        attachments: [
          attachment(ATTACHMENT.evidence, evidenceJson(evidence)),
          attachment(ATTACHMENT.run, JSON.stringify({ baseURL, embedded, profile: { name: 'reference', path: null } })),
        ],
      } as never,
    );
    await reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1 } as never);
  } finally {
    if (saved === undefined) delete process.env.AG_REPORT_DIR;
    else process.env.AG_REPORT_DIR = saved;
  }
  const report = JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
  return report.requirements.find((r: { id: string }) => r.id === 'VER-03').tests[0].failures[0].exchange;
}

test("conformance.json carries the curl line; an embedded run's names AG_BASE_URL, a long body none", async () => {
  const failure = { check: 'echoesVersion', received: 'r', documented: 'd', fix: 'f' };
  const r = request('{"a":"\u0000"}');
  const exchange = { request: { ...r, action: 'ListAssetGroups', version: '2024-01-01' }, response: { status: 400, headers: {}, body: '{}' }, durationMs: 1 };
  const target = await reported({ failure, exchange }, base, false);
  expect(target.curl).toBe(curlOf(r).command);
  const embedded = await reported({ failure, exchange }, base, true);
  expect(embedded.curl).toContain(`"\${AG_BASE_URL%/}"'/v1/media_assets/?Action=`);
  expect(embedded.curl).not.toContain(base);
  const long = 'x'.repeat(70 * 1024);
  const cut = await reported({ failure, exchange: { ...exchange, request: { ...exchange.request, body: long } } }, base, false);
  expect(cut.curl).toBeUndefined();
  expect(cut.curlNote).toContain('longer than');
});

test("a certification's full HAR still marks the evidence whose curl line an embedded run rewrote", () => {
  const dir = exchangeLogDir(mkdtempSync(path.join(os.tmpdir(), 'agc-curl-har-')), 'run1');
  const r = request('{}');
  const sent: Exchange = {
    request: { ...r, action: 'ListAssetGroups', version: '2024-01-01' },
    response: { status: 500, headers: {}, body: '{}' },
    durationMs: 1,
  };
  logExchange(dir, sent, { limit: 1000, capBytes: 100_000, tokens: [TOKEN] });
  const held = evidenceOf(sent, 1000) as { curl: string; request: { url: string } };
  const exchange = { ...held, curl: rebased(held.curl, held.request.url, base) };
  expect(exchange.curl).not.toBe(held.curl);
  const failure = { check: 'noServerError', received: 'HTTP 500', documented: 'd', fix: 'f', exchange };
  const outcome = {
    requirement: 'INPUT-07',
    title: 'INPUT-07 t',
    file: 'x.ts',
    status: 'failed' as const,
    durationMs: 1,
    checks: ['noServerError'],
    failures: [failure],
  };
  const facts = { lagsMs: [], neverVisible: 0, retries: { 429: 0, 503: 0 }, startedAt: '', finishedAt: '', runErrors: [], runId: 'run1' };
  const file = path.join(path.dirname(dir), 'exchanges.har');
  writeFullHar(file, summarize([outcome], facts), dir, 1_000_000);
  const entries = JSON.parse(readFileSync(file, 'utf8')).log.entries as { _evidenceOf: { requirement: string }[] }[];
  expect(entries).toHaveLength(1);
  expect(entries[0]._evidenceOf.map((e) => e.requirement)).toEqual(['INPUT-07']);
});
