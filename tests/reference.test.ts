/**
 * The reference server against the spec and the reference profile. Each test starts its own
 * in-process server (a few ms) so tests can run in parallel and never see each other's groups.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import fc from 'fast-check';
import { referenceTokens, referenceUsers, TOKEN_ROLES, type TokenRole } from '../reference/config';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../reference/server';

const ROOT = path.resolve(__dirname, '..');
const SPEC_PATH = '/v1/media_assets/';
const VERSION = '2024-01-01';
const CREATE = 'CreateAssetGroup';
const LIST = 'ListAssetGroups';
const JSON_TYPE = 'application/json; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
// The server reads the same environment, so the tests follow any AG_REF_TOKEN* override.
const TOKENS = referenceTokens();
const OPS = [CREATE, LIST] as const;
const BAD_REQUEST_KIND = { [CREATE]: 'AssetError', [LIST]: 'AssetBadRequest' } as const;

interface CallOptions {
  action?: string | null;
  version?: string | null;
  /** A role's token, sent as "Bearer <token>". */
  as?: TokenRole;
  /** The raw Authorization header; null = none. Overrides `as`. */
  authorization?: string | null;
  /** JSON-encoded unless `raw` is given. Default {}. */
  body?: unknown;
  raw?: string | Uint8Array<ArrayBuffer>;
  method?: string;
  path?: string;
  /** Full query string without "?", instead of action/version. */
  query?: string;
}

interface Reply {
  status: number;
  headers: Headers;
  json: any;
  elapsedMs: number;
}

class Client {
  constructor(readonly server: ReferenceServer, readonly lagMs: number) {}

  async call(o: CallOptions = {}): Promise<Reply> {
    let query = o.query;
    if (query === undefined) {
      const params = new URLSearchParams();
      const action = o.action === undefined ? LIST : o.action;
      const version = o.version === undefined ? VERSION : o.version;
      if (action !== null) params.set('Action', action);
      if (version !== null) params.set('Version', version);
      query = params.toString();
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const authorization = o.authorization !== undefined ? o.authorization : `Bearer ${TOKENS[o.as ?? 'primary']}`;
    if (authorization !== null) headers.Authorization = authorization;
    const method = o.method ?? 'POST';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const body = o.raw ?? JSON.stringify(o.body === undefined ? {} : o.body);
    const started = performance.now();
    const res = await fetch(`${this.server.url}${o.path ?? SPEC_PATH}${query ? `?${query}` : ''}`, {
      method,
      headers,
      body: hasBody ? body : undefined,
    });
    const text = await res.text();
    const elapsedMs = performance.now() - started;
    let json: any;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error(`response is not JSON (status ${res.status}): ${text.slice(0, 200)}`);
    }
    return { status: res.status, headers: res.headers, json, elapsedMs };
  }

  create(body: unknown, as: TokenRole = 'primary'): Promise<Reply> {
    return this.call({ action: CREATE, body, as });
  }

  list(body: unknown = {}, as: TokenRole = 'primary'): Promise<Reply> {
    return this.call({ action: LIST, body, as });
  }

  async createOk(body: unknown, as: TokenRole = 'primary'): Promise<string> {
    const r = await this.create(body, as);
    expectSuccess(r, CREATE);
    return r.json.Result.Id as string;
  }

  /** Polls until every id is listed for `as`; bounded by the lag plus slack, sleeping at most one lag period. */
  async waitListed(ids: string[], as: TokenRole = 'primary'): Promise<any[]> {
    const deadline = performance.now() + this.lagMs + 2000;
    for (;;) {
      const r = await this.list({ PageSize: 100 }, as);
      expectSuccess(r, LIST);
      const seen = new Set(r.json.Result.Items.map((i: any) => i.Id));
      if (ids.every((id) => seen.has(id))) return r.json.Result.Items;
      if (performance.now() > deadline) throw new Error(`groups ${ids.join(', ')} not listed within ${this.lagMs} ms + slack`);
      await sleep(Math.max(1, Math.min(10, this.lagMs)));
    }
  }

  async listIds(body: unknown, as: TokenRole = 'primary'): Promise<string[]> {
    const r = await this.list(body, as);
    expectSuccess(r, LIST);
    return r.json.Result.Items.map((i: any) => i.Id);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectEnvelope(r: Reply, action: string, version = VERSION): void {
  expect(r.headers.get('content-type')).toBe(JSON_TYPE);
  const md = r.json?.ResponseMetadata;
  expect(md, 'ResponseMetadata').toBeTruthy();
  expect(md.RequestId).toMatch(UUID);
  expect(md.Action).toBe(action);
  expect(md.Version).toBe(version);
  expect(md.Service).toBe('media_assets');
  expect(md.Region).toBe('ref-local-1');
}

function expectSuccess(r: Reply, action: string): void {
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expectEnvelope(r, action);
  expect(r.json.ResponseMetadata.Error).toBeUndefined();
  expect(typeof r.json.Result).toBe('object');
}

function expectError(r: Reply, status: number, code: string, action: string, version = VERSION): void {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expectEnvelope(r, action, version);
  expect(r.json.ResponseMetadata.Error.Code).toBe(code);
  expect(typeof r.json.ResponseMetadata.Error.Message).toBe('string');
  expect(r.json.ResponseMetadata.Error.Message.length).toBeGreaterThan(0);
  expect(r.json).not.toHaveProperty('Result');
}

const test = base.extend<{ refOptions: ReferenceOptions; ref: Client }>({
  refOptions: [{ lagMs: 50 }, { option: true }],
  ref: async ({ refOptions }, use) => {
    const server = await startReferenceServer(refOptions);
    await use(new Client(server, refOptions.lagMs ?? 300));
    await server.close();
  },
});

test.describe('envelope', () => {
  test('success responses carry the full envelope and a Result', async ({ ref }) => {
    const created = await ref.create({ Name: 'envelope' });
    expectSuccess(created, CREATE);
    expect(Object.keys(created.json.Result)).toEqual(['Id']);
    expect(created.json.Result.Id).toMatch(/^agp-[0-9a-f]+$/);

    const listed = await ref.list({});
    expectSuccess(listed, LIST);
    expect(Object.keys(listed.json.Result).sort()).toEqual(['Items', 'PageNumber', 'PageSize', 'TotalCount']);
  });

  test('every response gets a fresh RequestId', async ({ ref }) => {
    const replies = await Promise.all([ref.list({}), ref.list({}), ref.call({ authorization: null }), ref.call({ path: '/nope' })]);
    const ids = replies.map((r) => r.json.ResponseMetadata.RequestId);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('error responses carry the envelope, Error {Code, Message} and no Result', async ({ ref }) => {
    expectError(await ref.call({ action: LIST, authorization: null }), 401, 'TokenAuthError', LIST);
    expectError(await ref.call({ action: CREATE, raw: '{' }), 400, 'AssetError', CREATE);
  });

  test('Action and Version are echoed verbatim, also on errors, "" when absent', async ({ ref }) => {
    expectError(await ref.call({ action: 'Frobnicate', version: '1999-01-01' }), 400, 'AssetBadRequest', 'Frobnicate', '1999-01-01');
    expectError(await ref.call({ action: null, version: null }), 400, 'AssetBadRequest', '', '');
    expectError(await ref.call({ action: LIST, version: null }), 400, 'AssetBadRequest', LIST, '');
    expectError(await ref.call({ query: 'Action=Create%20Asset+Group&Version=2024-01-01' }), 400, 'AssetBadRequest', 'Create Asset Group');
    expectError(await ref.call({ action: CREATE, authorization: null }), 401, 'TokenAuthError', CREATE);
    expectError(await ref.call({ action: CREATE, version: 'v2', path: '/elsewhere' }), 404, 'AssetBadRequest', CREATE, 'v2');
    expectError(await ref.call({ action: LIST, method: 'PUT' }), 405, 'AssetBadRequest', LIST);
  });
});

test.describe('routing', () => {
  test('any path but /v1/media_assets/ is a 404 with the envelope', async ({ ref }) => {
    for (const p of ['/', '/v1/media_assets', '/v1/media_assets/extra', '/v1/other/', '//v1/media_assets/', '/V1/MEDIA_ASSETS/']) {
      const r = await ref.call({ path: p, action: LIST });
      expectError(r, 404, 'AssetBadRequest', LIST);
    }
  });

  test('any method but POST is a 405 with Allow: POST and the envelope', async ({ ref }) => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await ref.call({ method, action: LIST });
      expectError(r, 405, 'AssetBadRequest', LIST);
      expect(r.headers.get('allow')).toBe('POST');
    }
    const head = await fetch(`${ref.server.url}${SPEC_PATH}`, { method: 'HEAD' });
    expect(head.status).toBe(405);
  });

  test('unknown or missing Action is a 400 AssetBadRequest', async ({ ref }) => {
    for (const action of ['Frobnicate', 'createassetgroup', '', null]) {
      expectError(await ref.call({ action }), 400, 'AssetBadRequest', action ?? '');
    }
  });

  test('wrong or missing Version is a 400 of the operation\'s kind', async ({ ref }) => {
    for (const op of OPS) {
      for (const version of ['2023-01-01', '', '2024-01-01 ', null]) {
        expectError(await ref.call({ action: op, version }), 400, BAD_REQUEST_KIND[op], op, version ?? '');
      }
    }
  });

  test('checks run in order: path/method, Action/Version, auth, body', async ({ ref }) => {
    const noAuthBadBody = { authorization: null, raw: '{' };
    expectError(await ref.call({ ...noAuthBadBody, path: '/x', action: 'Nope' }), 404, 'AssetBadRequest', 'Nope');
    expectError(await ref.call({ ...noAuthBadBody, method: 'PUT', action: 'Nope' }), 405, 'AssetBadRequest', 'Nope');
    expectError(await ref.call({ ...noAuthBadBody, action: 'Nope' }), 400, 'AssetBadRequest', 'Nope');
    expectError(await ref.call({ ...noAuthBadBody, action: CREATE, version: 'x' }), 400, 'AssetError', CREATE, 'x');
    expectError(await ref.call({ ...noAuthBadBody, action: LIST, version: 'x' }), 400, 'AssetBadRequest', LIST, 'x');
    expectError(await ref.call({ ...noAuthBadBody, action: CREATE }), 401, 'TokenAuthError', CREATE);
    expectError(await ref.call({ raw: '{', action: CREATE }), 400, 'AssetError', CREATE);
  });
});

test.describe('authentication', () => {
  const rejected: Array<[string, string | null]> = [
    ['missing header', null],
    ['empty token', 'Bearer '],
    ['scheme only', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['another scheme with a valid token', `Token ${TOKENS.primary}`],
    ['token without scheme', TOKENS.primary],
    ['unknown token', 'Bearer not-a-reference-token'],
    ['two spaces', `Bearer  ${TOKENS.primary}`],
    ['token with a suffix', `Bearer ${TOKENS.primary}x`],
  ];
  for (const op of OPS) {
    for (const [label, authorization] of rejected) {
      test(`${op}: ${label} is a 401 TokenAuthError`, async ({ ref }) => {
        const r = await ref.call({ action: op, authorization, body: op === CREATE ? { Name: 'auth' } : {} });
        expectError(r, 401, 'TokenAuthError', op);
      });
    }
  }

  test('the scheme matches case-insensitively; every reference token is accepted', async ({ ref }) => {
    expectSuccess(await ref.call({ authorization: `bearer ${TOKENS.primary}` }), LIST);
    expectSuccess(await ref.call({ authorization: `BEARER ${TOKENS.primary}` }), LIST);
    for (const role of Object.keys(TOKENS) as TokenRole[]) expectSuccess(await ref.list({}, role), LIST);
  });

  test('a 401 creates nothing', async ({ ref }) => {
    await ref.call({ action: CREATE, authorization: 'Bearer nope', body: { Name: 'ghost' } });
    expect(ref.server.stats().creates).toBe(0);
  });
});

test.describe('request bodies', () => {
  const malformed: Array<[string, string | Uint8Array<ArrayBuffer>]> = [
    ['empty', ''],
    ['truncated object', '{'],
    ['truncated member', '{"Name":'],
    ['single quotes', "{'Name':'x'}"],
    ['trailing comma', '{"Name":"x",}'],
    ['bare word', 'nul'],
    ['two values', '{}{}'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ];
  const nonObjects: Array<[string, string]> = [
    ['array', '[]'],
    ['array of object', '[{"Name":"x"}]'],
    ['string', '"x"'],
    ['number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ];
  for (const op of OPS) {
    test(`${op}: malformed JSON is a 400 ${BAD_REQUEST_KIND[op]}`, async ({ ref }) => {
      for (const [label, raw] of malformed) {
        await test.step(label, async () => expectError(await ref.call({ action: op, raw }), 400, BAD_REQUEST_KIND[op], op));
      }
    });

    test(`${op}: a JSON value that is not an object is a 400 ${BAD_REQUEST_KIND[op]}`, async ({ ref }) => {
      for (const [label, raw] of nonObjects) {
        await test.step(label, async () => expectError(await ref.call({ action: op, raw }), 400, BAD_REQUEST_KIND[op], op));
      }
    });

    test(`${op}: a body over 1 MiB is a 400 ${BAD_REQUEST_KIND[op]}; exactly 1 MiB is read`, async ({ ref }) => {
      const fill = (size: number) => {
        const shell = JSON.stringify({ Name: 'big', Pad: '' });
        return JSON.stringify({ Name: 'big', Pad: 'a'.repeat(size - shell.length) });
      };
      expectSuccess(await ref.call({ action: op, raw: fill(1024 * 1024) }), op);
      expectError(await ref.call({ action: op, raw: fill(1024 * 1024 + 1) }), 400, BAD_REQUEST_KIND[op], op);
      // Chunked, with no Content-Length: the limit holds while streaming too.
      const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 4 * 1024 * 1024) controller.close();
          else {
            sent += chunk.length;
            controller.enqueue(chunk);
          }
        },
      });
      const res = await fetch(`${ref.server.url}${SPEC_PATH}?Action=${op}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.primary}` },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(400);
      expect((await res.json()).ResponseMetadata.Error.Code).toBe(BAD_REQUEST_KIND[op]);
    });
  }

  test('no 5xx and always the envelope for a batch of garbage bodies', async ({ ref }) => {
    const field = fc.constantFrom('Name', 'Title', 'Description', 'GroupType', 'ProjectName', 'Filter', 'PageNumber', 'PageSize', 'GroupIds', '__proto__', 'constructor');
    const value = fc.oneof(fc.jsonValue(), fc.string({ maxLength: 400, size: 'max' }), fc.constantFrom('AIGC', 1, 0, -1, 100, 101, 1.5, 1e300));
    const body = fc.oneof(
      // maxKeys below the number of distinct keys: a larger unique-key dictionary never finishes generating.
      fc.dictionary(field, value, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
      fc.dictionary(field, fc.dictionary(field, value, { maxKeys: 5 }), { maxKeys: 3 }).map((o) => JSON.stringify(o)),
      fc.record({ Name: fc.string({ maxLength: 70, size: 'max' }), Description: fc.string({ maxLength: 310, size: 'max' }), GroupType: fc.constantFrom('AIGC', 'aigc'), PageSize: fc.integer({ min: -1, max: 101 }) }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
      fc.constantFrom('['.repeat(100_000), '{"a":'.repeat(50_000), '\u0000', '{"Name":"\\ud800"}'),
    );
    const samples = fc.sample(body, { numRuns: 150, seed: 20240101 });
    for (const op of OPS) {
      const replies = await Promise.all(samples.map((raw) => ref.call({ action: op, raw, as: 'channelA' })));
      for (const [i, r] of replies.entries()) {
        expect(r.status, `body ${JSON.stringify(samples[i]).slice(0, 200)}`).toBeLessThan(500);
        expect([200, 400, 429]).toContain(r.status);
        if (r.status === 400) expectError(r, 400, BAD_REQUEST_KIND[op], op);
        else if (r.status === 200) expectSuccess(r, op);
      }
    }
  });

  test('malformed HTTP gets a 400 with the envelope, not a dropped connection', async ({ ref }) => {
    const { port } = new URL(ref.server.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain(`Content-Type: ${JSON_TYPE}`);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
    expect(body.ResponseMetadata.Error.Code).toBe('AssetBadRequest');
  });

  test('a bug in a step is a 500 AssetError with the envelope', async () => {
    const server = await startReferenceServer({
      lagMs: 0,
      hooks: {
        validateList: () => {
          throw new Error('planted bug');
        },
      },
    });
    try {
      const r = await new Client(server, 0).list({});
      expectError(r, 500, 'AssetError', LIST);
    } finally {
      await server.close();
    }
  });
});

test.describe('CreateAssetGroup validation', () => {
  const emoji = '\u{1F600}'; // one code point, two UTF-16 units
  const rejected: Array<[string, unknown, RegExp]> = [
    ['missing Name', {}, /Name/],
    ['empty Name', { Name: '' }, /Name/],
    ['Name a number', { Name: 5 }, /Name/],
    ['Name null', { Name: null }, /Name/],
    ['Name an array', { Name: ['a'] }, /Name/],
    ['Name an object', { Name: {} }, /Name/],
    ['Name a boolean', { Name: true }, /Name/],
    ['Title a number', { Name: 'x', Title: 1 }, /Title/],
    ['Description a boolean', { Name: 'x', Description: false }, /Description/],
    ['GroupType a number', { Name: 'x', GroupType: 1 }, /GroupType/],
    ['ProjectName null', { Name: 'x', ProjectName: null }, /ProjectName/],
    ['Name of 65 characters', { Name: 'a'.repeat(65) }, /Name/],
    ['Name of 65 emoji', { Name: emoji.repeat(65) }, /Name/],
    ['Description of 301 characters', { Name: 'x', Description: 'd'.repeat(301) }, /Description/],
    ['Description of 301 emoji', { Name: 'x', Description: emoji.repeat(301) }, /Description/],
    ['GroupType lower case', { Name: 'x', GroupType: 'aigc' }, /GroupType/],
    ['GroupType unknown', { Name: 'x', GroupType: 'OTHER' }, /GroupType/],
    ['GroupType empty', { Name: 'x', GroupType: '' }, /GroupType/],
  ];
  test('invalid create bodies are a 400 AssetError whose Message names the field', async ({ ref }) => {
    for (const [label, body, names] of rejected) {
      await test.step(label, async () => {
        const r = await ref.create(body);
        expectError(r, 400, 'AssetError', CREATE);
        expect(r.json.ResponseMetadata.Error.Message).toMatch(names);
      });
    }
    expect(ref.server.stats().creates).toBe(0);
  });

  test('limits count code points, not UTF-16 units, and are inclusive', async ({ ref }) => {
    for (const body of [
      { Name: 'a'.repeat(64) },
      { Name: emoji.repeat(64) }, // 128 UTF-16 units
      { Name: 'x', Description: 'd'.repeat(300) },
      { Name: 'x', Description: emoji.repeat(300) },
      { Name: 'x', Title: 't'.repeat(1000), Description: '', ProjectName: '' },
    ]) {
      expectSuccess(await ref.create(body), CREATE);
    }
  });

  test('defaults: Title "", Description "", GroupType AIGC, ProjectName "default"; extra fields ignored', async ({ ref }) => {
    const id = await ref.createOk({ Name: 'defaults', Id: 'agp-chosen-by-client', AssetSpaceId: 'space-x', Extra: { a: 1 } });
    expect(id).not.toBe('agp-chosen-by-client');
    const [item] = (await ref.waitListed([id])).filter((i) => i.Id === id);
    expect(item).toMatchObject({ Name: 'defaults', Title: '', Description: '', GroupType: 'AIGC', ProjectName: 'default' });
    expect(item.AssetSpaceId).not.toBe('space-x');
  });
});

test.describe('ListAssetGroups validation', () => {
  const rejected: Array<[string, unknown]> = [
    ['PageNumber 0', { PageNumber: 0 }],
    ['PageNumber -1', { PageNumber: -1 }],
    ['PageNumber 1.5', { PageNumber: 1.5 }],
    ['PageNumber "1"', { PageNumber: '1' }],
    ['PageNumber null', { PageNumber: null }],
    ['PageNumber true', { PageNumber: true }],
    ['PageSize 0', { PageSize: 0 }],
    ['PageSize 101', { PageSize: 101 }],
    ['PageSize 2.5', { PageSize: 2.5 }],
    ['PageSize "10"', { PageSize: '10' }],
    ['PageSize null', { PageSize: null }],
    ['Filter a string', { Filter: 'x' }],
    ['Filter an array', { Filter: [] }],
    ['Filter null', { Filter: null }],
    ['Filter.AssetSpaceId a number', { Filter: { AssetSpaceId: 1 } }],
    ['Filter.GroupType null', { Filter: { GroupType: null } }],
    ['Filter.Name a number', { Filter: { Name: 5 } }],
    ['Filter.GroupIds a string', { Filter: { GroupIds: 'agp-x' } }],
    ['Filter.GroupIds an object', { Filter: { GroupIds: {} } }],
    ['Filter.GroupIds with a number', { Filter: { GroupIds: ['agp-x', 1] } }],
  ];
  test('wrong types and out-of-range paging are a 400 AssetBadRequest', async ({ ref }) => {
    for (const [label, body] of rejected) {
      await test.step(label, async () => expectError(await ref.list(body), 400, 'AssetBadRequest', LIST));
    }
  });

  test('boundary paging values and empty filters are accepted', async ({ ref }) => {
    for (const body of [{}, { PageNumber: 1, PageSize: 1 }, { PageSize: 100 }, { PageNumber: 1e9 }, { Filter: {} }, { Filter: { GroupIds: [] } }, { Other: 1 }]) {
      expectSuccess(await ref.list(body), LIST);
    }
  });
});

test.describe('create then list', () => {
  test('a created group is listed with all its fields after the lag', async ({ ref }) => {
    const before = new Date();
    const body = { Name: 'Round Trip', Title: 'A title', Description: 'Some text', GroupType: 'AIGC', ProjectName: 'proj-1' };
    const id = await ref.createOk(body);
    const items = await ref.waitListed([id]);
    const after = new Date();
    expect(items).toHaveLength(1);
    const item = items[0];
    expect(Object.keys(item).sort()).toEqual(['AssetSpaceId', 'CreateTime', 'Description', 'GroupType', 'Id', 'Name', 'ProjectName', 'Title', 'UpdateTime']);
    expect(item).toMatchObject({ Id: id, ...body });
    expect(typeof item.AssetSpaceId).toBe('string');
    expect(item.AssetSpaceId.length).toBeGreaterThan(0);
    expect(item.CreateTime).toMatch(RFC3339_UTC);
    expect(item.UpdateTime).toBe(item.CreateTime);
    const created = Date.parse(item.CreateTime);
    expect(created).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(created).toBeLessThanOrEqual(after.getTime() + 1);
  });

  test.describe('with a long lag', () => {
    test.use({ refOptions: { lagMs: 2000 } });
    test('a new group is invisible before the next snapshot refresh, visible after it', async ({ ref }) => {
      const id = await ref.createOk({ Name: 'late' });
      const created = performance.now();
      const first = await ref.list({});
      expectSuccess(first, LIST);
      expect(first.json.Result.Items).toEqual([]);
      expect(first.json.Result.TotalCount).toBe(0);
      await sleep(100);
      expect(await ref.listIds({})).toEqual([]);
      await ref.waitListed([id]);
      expect(performance.now() - created).toBeLessThan(2000 + 500);
    });
  });

  test('the snapshot refreshes at start + k*lag (injected clock)', async () => {
    let now = 0;
    const server = await startReferenceServer({ lagMs: 2000, clock: () => now });
    try {
      const ref = new Client(server, 2000);
      now = 10;
      const id = await ref.createOk({ Name: 'clocked' });
      expect(await ref.listIds({})).toEqual([]);
      now = 1999;
      expect(await ref.listIds({})).toEqual([]);
      now = 2000;
      expect(await ref.listIds({})).toEqual([id]);
      now = 2001;
      const id2 = await ref.createOk({ Name: 'clocked 2' });
      now = 3999;
      expect(await ref.listIds({})).toEqual([id]);
      now = 4000;
      expect(await ref.listIds({})).toEqual([id, id2]);
    } finally {
      await server.close();
    }
  });

  test.describe('with no lag', () => {
    test.use({ refOptions: { lagMs: 0 } });
    test('lagMs 0 lists a group at once', async ({ ref }) => {
      const id = await ref.createOk({ Name: 'now' });
      expect(await ref.listIds({})).toEqual([id]);
    });
  });
});

test.describe('filters', () => {
  test('each filter, alone and combined', async ({ ref }) => {
    const alphaOne = await ref.createOk({ Name: 'Alpha One' });
    const alphaTwo = await ref.createOk({ Name: 'alpha two' });
    const beta = await ref.createOk({ Name: 'Beta' });
    const alphaA = await ref.createOk({ Name: 'ALPHA on A' }, 'channelA');
    const gammaB = await ref.createOk({ Name: 'Gamma' }, 'channelB');
    const all = [alphaOne, alphaTwo, beta, alphaA, gammaB];
    const items = await ref.waitListed(all);
    const spaceOf = (id: string) => items.find((i) => i.Id === id).AssetSpaceId as string;
    const unboundSpace = spaceOf(alphaOne);
    expect(spaceOf(alphaA)).not.toBe(unboundSpace);
    expect(spaceOf(gammaB)).not.toBe(spaceOf(alphaA));

    const ids = (Filter: unknown) => ref.listIds({ Filter, PageSize: 100 });
    expect(await ids({})).toEqual(all);
    // AssetSpaceId: exact.
    expect(await ids({ AssetSpaceId: unboundSpace })).toEqual([alphaOne, alphaTwo, beta]);
    expect(await ids({ AssetSpaceId: spaceOf(alphaA) })).toEqual([alphaA]);
    expect(await ids({ AssetSpaceId: unboundSpace.toUpperCase() })).toEqual([]);
    expect(await ids({ AssetSpaceId: unboundSpace.slice(0, -1) })).toEqual([]);
    // GroupType: exact.
    expect(await ids({ GroupType: 'AIGC' })).toEqual(all);
    expect(await ids({ GroupType: 'aigc' })).toEqual([]);
    expect(await ids({ GroupType: 'OTHER' })).toEqual([]);
    // GroupIds: membership; an empty list does not filter.
    expect(await ids({ GroupIds: [beta, alphaOne] })).toEqual([alphaOne, beta]);
    expect(await ids({ GroupIds: [] })).toEqual(all);
    expect(await ids({ GroupIds: ['agp-does-not-exist'] })).toEqual([]);
    // Name: case-insensitive substring.
    expect(await ids({ Name: 'alpha' })).toEqual([alphaOne, alphaTwo, alphaA]);
    expect(await ids({ Name: 'PHA T' })).toEqual([alphaTwo]);
    expect(await ids({ Name: 'Beta' })).toEqual([beta]);
    expect(await ids({ Name: '' })).toEqual(all);
    expect(await ids({ Name: 'zeta' })).toEqual([]);
    // Combined: all must hold.
    expect(await ids({ Name: 'alpha', AssetSpaceId: unboundSpace })).toEqual([alphaOne, alphaTwo]);
    expect(await ids({ Name: 'alpha', GroupIds: [alphaA, beta] })).toEqual([alphaA]);
    // Unknown filter fields are ignored.
    expect(await ids({ Colour: 'red' })).toEqual(all);
    // TotalCount counts the matches, not the user's groups.
    const r = await ref.list({ Filter: { Name: 'alpha' }, PageSize: 1 });
    expect(r.json.Result.TotalCount).toBe(3);
    expect(r.json.Result.Items.map((i: any) => i.Id)).toEqual([alphaOne]);
  });
});

test.describe('paging', () => {
  test('pages tile the result in creation order: no gap, no overlap, empty past the end', async ({ ref }) => {
    const created: string[] = [];
    for (let i = 0; i < 12; i++) created.push(await ref.createOk({ Name: `page-${i}` }));
    await ref.waitListed(created);

    const defaults = await ref.list({});
    expect(defaults.json.Result).toMatchObject({ PageNumber: 1, PageSize: 10, TotalCount: 12 });
    expect(defaults.json.Result.Items.map((i: any) => i.Id)).toEqual(created.slice(0, 10));

    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await ref.list({ PageNumber: page, PageSize: 5 });
      expectSuccess(r, LIST);
      expect(r.json.Result).toMatchObject({ PageNumber: page, PageSize: 5, TotalCount: 12 });
      expect(r.json.Result.Items).toHaveLength(page < 3 ? 5 : 2);
      seen.push(...r.json.Result.Items.map((i: any) => i.Id));
    }
    expect(seen).toEqual(created);

    for (const PageNumber of [4, 1000, 1e9]) {
      const past = await ref.list({ PageNumber, PageSize: 5 });
      expect(past.json.Result).toEqual({ Items: [], TotalCount: 12, PageNumber, PageSize: 5 });
    }
    const one = await ref.list({ PageNumber: 12, PageSize: 1 });
    expect(one.json.Result.Items.map((i: any) => i.Id)).toEqual([created[11]]);
    const big = await ref.list({ PageSize: 100 });
    expect(big.json.Result.Items.map((i: any) => i.Id)).toEqual(created);
  });
});

test.describe('scoping', () => {
  test('a user sees only their own groups', async ({ ref }) => {
    const mine = [await ref.createOk({ Name: 'mine 1' }), await ref.createOk({ Name: 'mine 2' })];
    const theirs = await ref.createOk({ Name: 'theirs' }, 'otherUser');
    await ref.waitListed(mine);
    await ref.waitListed([theirs], 'otherUser');
    expect(await ref.listIds({ PageSize: 100 })).toEqual(mine);
    expect(await ref.listIds({ PageSize: 100 }, 'otherUser')).toEqual([theirs]);
    // Not even by id or by the other user's asset space.
    expect(await ref.listIds({ Filter: { GroupIds: [theirs] } })).toEqual([]);
    const theirSpace = (await ref.list({}, 'otherUser')).json.Result.Items[0].AssetSpaceId;
    expect(await ref.listIds({ Filter: { AssetSpaceId: theirSpace } })).toEqual([]);
    expect((await ref.list({ Filter: { Name: 'theirs' } })).json.Result.TotalCount).toBe(0);
  });

  test('a channel-bound token sees only its channel; an unbound token sees all of its user\'s', async ({ ref }) => {
    const unbound = await ref.createOk({ Name: 'unbound' });
    const onA = await ref.createOk({ Name: 'on A' }, 'channelA');
    const onB = await ref.createOk({ Name: 'on B' }, 'channelB');
    await ref.waitListed([unbound, onA, onB]);
    expect(await ref.listIds({ PageSize: 100 })).toEqual([unbound, onA, onB]);
    expect(await ref.listIds({ PageSize: 100 }, 'channelA')).toEqual([onA]);
    expect(await ref.listIds({ PageSize: 100 }, 'channelB')).toEqual([onB]);
    expect(await ref.listIds({ Filter: { GroupIds: [onB, unbound] } }, 'channelA')).toEqual([]);
    expect((await ref.list({}, 'channelA')).json.Result.TotalCount).toBe(1);
    expect(await ref.listIds({}, 'otherUser')).toEqual([]);
  });
});

test.describe('create rate', () => {
  test.describe('limited', () => {
    test.use({ refOptions: { lagMs: 0, createRate: { perSecond: 1, burst: 3 } } });
    test('past the bucket a create is a 429 UpstreamRateLimit with Retry-After in whole seconds', async ({ ref }) => {
      for (let i = 0; i < 3; i++) await ref.createOk({ Name: `burst ${i}` });
      const r = await ref.create({ Name: 'one too many' });
      expectError(r, 429, 'UpstreamRateLimit', CREATE);
      const retryAfter = r.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(ref.server.stats()).toMatchObject({ creates: 3, rateLimited: 1 });
      // The rejected create left no group behind.
      expect(await ref.listIds({})).toHaveLength(3);
      // Per token: another token of the same user still has its whole bucket.
      await ref.createOk({ Name: 'other token' }, 'channelA');
      // Lists are never rate limited.
      for (let i = 0; i < 5; i++) expectSuccess(await ref.list({}), LIST);
    });

    test('invalid creates do not spend the bucket', async ({ ref }) => {
      for (let i = 0; i < 6; i++) expectError(await ref.create({}), 400, 'AssetError', CREATE);
      for (let i = 0; i < 3; i++) await ref.createOk({ Name: `after invalid ${i}` });
    });
  });

  test('Retry-After is the wait for the next token, rounded up (injected clock)', async () => {
    let now = 0;
    const server = await startReferenceServer({ lagMs: 0, createRate: { perSecond: 0.5, burst: 1 }, clock: () => now });
    try {
      const ref = new Client(server, 0);
      await ref.createOk({ Name: 'first' });
      expect((await ref.create({ Name: 'x' })).headers.get('retry-after')).toBe('2');
      now = 1000;
      expect((await ref.create({ Name: 'x' })).headers.get('retry-after')).toBe('1');
      now = 2000;
      await ref.createOk({ Name: 'refilled' });
    } finally {
      await server.close();
    }
  });

  test.describe('default', () => {
    test.use({ refOptions: { lagMs: 0 } });
    test('is on by default (20/s, burst 40)', async ({ ref }) => {
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => ref.create({ Name: `flood ${i}` })));
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(40);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    });
  });

  test.describe('off', () => {
    test.use({ refOptions: { lagMs: 0, createRate: null } });
    test('createRate null never answers 429', async ({ ref }) => {
      const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => ref.create({ Name: `free ${i}` })));
      expect(replies.map((r) => r.status).every((s) => s === 200)).toBe(true);
      expect(ref.server.stats()).toMatchObject({ creates: 100, rateLimited: 0 });
    });
  });
});

test.describe('latency', () => {
  test.use({ refOptions: { lagMs: 0, latencyMs: 300 } });
  test('every response is delayed by latencyMs without blocking others', async ({ ref }) => {
    const ok = await ref.list({});
    expectSuccess(ok, LIST);
    expect(ok.elapsedMs).toBeGreaterThanOrEqual(280);
    const err = await ref.call({ authorization: null });
    expect(err.status).toBe(401);
    expect(err.elapsedMs).toBeGreaterThanOrEqual(280);
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => ref.list({})));
    expect(performance.now() - started).toBeLessThan(2 * 300);
  });
});

test.describe('server', () => {
  test('listens on 127.0.0.1 and counts requests', async ({ ref }) => {
    expect(ref.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await ref.list({});
    await ref.call({ path: '/x' });
    expect(ref.server.stats().requests).toBe(2);
  });

  test('custom users and tokens; duplicate token values are refused', async () => {
    const users = [{ id: 'u1', tokens: [{ token: 'custom-token', channel: null }] }];
    const server = await startReferenceServer({ lagMs: 0, users });
    try {
      const r = await fetch(`${server.url}${SPEC_PATH}?Action=${LIST}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: 'Bearer custom-token' },
        body: '{}',
      });
      expect(r.status).toBe(200);
      const refused = await fetch(`${server.url}${SPEC_PATH}?Action=${LIST}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.primary}` },
        body: '{}',
      });
      expect(refused.status).toBe(401);
    } finally {
      await server.close();
    }
    const dup = [{ id: 'u1', tokens: [{ token: 'same', channel: null }] }, { id: 'u2', tokens: [{ token: 'same', channel: null }] }];
    await expect(startReferenceServer({ users: dup })).rejects.toThrow(/share one value/);
  });
});

test.describe('config', () => {
  test('token values come from the environment when set, else readable defaults', () => {
    expect(referenceTokens({})).toEqual({
      primary: 'ref-primary-token',
      otherUser: 'ref-other-user-token',
      channelA: 'ref-channel-a-token',
      channelB: 'ref-channel-b-token',
    });
    const env = { AG_REF_TOKEN: 'p', AG_REF_TOKEN_OTHER_USER: 'o', AG_REF_TOKEN_CHANNEL_A: 'a', AG_REF_TOKEN_CHANNEL_B: '' };
    expect(referenceTokens(env)).toEqual({ primary: 'p', otherUser: 'o', channelA: 'a', channelB: 'ref-channel-b-token' });
    const users = referenceUsers(env);
    expect(users).toHaveLength(2);
    const [primary, other] = users;
    expect(primary.tokens.map((t) => [t.token, t.channel])).toEqual([
      ['p', null],
      ['a', 'channel-a'],
      ['ref-channel-b-token', 'channel-b'],
    ]);
    expect(other.tokens.map((t) => [t.token, t.channel])).toEqual([['o', null]]);
    expect(TOKEN_ROLES.map((r) => r.clientEnv)).toEqual(['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B']);
  });
});

test.describe('CLI', () => {
  const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const MAIN = path.join(ROOT, 'reference', 'main.ts');

  function run(args: string[]) {
    const child = spawn(TSX, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const waitFor = async (pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> => {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const m = stdout.match(pattern);
        if (m) return m;
        if (child.exitCode !== null || performance.now() > deadline) throw new Error(`no ${pattern} in stdout: ${stdout} / stderr: ${stderr}`);
        await sleep(20);
      }
    };
    return { child, exited, waitFor, out: () => stdout, err: () => stderr };
  }

  test('starts, prints AG_REFERENCE_URL, serves, and stops cleanly on SIGINT', async () => {
    const proc = run(['--port', '0', '--no-print-tokens', '--lag', '0']);
    try {
      const [, url] = await proc.waitFor(/^AG_REFERENCE_URL=(http:\/\/127\.0\.0\.1:\d+)$/m);
      const r = await fetch(`${url}${SPEC_PATH}?Action=${CREATE}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.primary}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ Name: 'from the CLI' }),
      });
      expect(r.status).toBe(200);
      expect(proc.out()).not.toMatch(/AG_TOKEN/);
      expect(proc.out()).not.toContain(TOKENS.primary);
      proc.child.kill('SIGINT');
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      expect(proc.out().trim().split('\n')).toEqual([`AG_REFERENCE_URL=${url}`]);
      expect(proc.err()).toBe('');
    } finally {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
  });

  test('prints the tokens as .env lines by default and stops on SIGTERM', async () => {
    const proc = run(['--port', '0', '--create-rate', 'off', '--latency', '0']);
    try {
      await proc.waitFor(/^AG_TOKEN_CHANNEL_B=.*$/m);
      const lines = proc.out().trim().split('\n');
      expect(lines[0]).toMatch(/^AG_REFERENCE_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.slice(1)).toEqual([
        `AG_TOKEN=${TOKENS.primary}`,
        `AG_TOKEN_OTHER_USER=${TOKENS.otherUser}`,
        `AG_TOKEN_CHANNEL_A=${TOKENS.channelA}`,
        `AG_TOKEN_CHANNEL_B=${TOKENS.channelB}`,
      ]);
      proc.child.kill('SIGTERM');
      expect((await proc.exited).code).toBe(0);
    } finally {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
  });

  test('a bad option or value is one line naming it, exit 2; --help lists the options', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--bogus'], /--bogus/],
      [['--port', 'abc'], /--port/],
      [['--create-rate', 'fast'], /--create-rate/],
      [['--lag', '-5'], /--lag/],
    ];
    const results = await Promise.all(cases.map(async ([args]) => {
      const proc = run(args);
      return { ...(await proc.exited), out: proc.out(), err: proc.err() };
    }));
    for (const [i, result] of results.entries()) {
      expect(result.code, cases[i][0].join(' ')).toBe(2);
      expect(result.err.trim().split('\n')).toHaveLength(1);
      expect(result.err).toMatch(cases[i][1]);
      expect(result.err).not.toMatch(/\n\s+at /);
      expect(result.out).toBe('');
    }
    const help = run(['--help']);
    expect((await help.exited).code).toBe(0);
    for (const option of ['--port', '--lag', '--create-rate', '--latency', '--print-tokens', '--no-print-tokens']) expect(help.out()).toContain(option);
  });
});
