/** The reference server's envelope, routing and request bodies: what every answer carries, and what any path, method, Action, Version or body gets. */
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import fc from 'fast-check';
import {
  BAD_REQUEST_KIND,
  Client,
  CREATE,
  expect,
  expectError,
  expectSuccess,
  JSON_TYPE,
  LIST,
  OPS,
  SPEC_PATH,
  test,
  TOKENS,
  UUID,
  VERSION,
} from './reference-client';
import { ApiError, defaultHooks } from '../reference/server';
import { expressErrorPage, gzipped, stackPages } from '../reference/wire';

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

  test("wrong or missing Version is a 400 of the operation's kind", async ({ ref }) => {
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
    const field = fc.constantFrom(
      'Name',
      'Title',
      'Description',
      'GroupType',
      'ProjectName',
      'Filter',
      'PageNumber',
      'PageSize',
      'GroupIds',
      '__proto__',
      'constructor',
    );
    const value = fc.oneof(fc.jsonValue(), fc.string({ maxLength: 400, size: 'max' }), fc.constantFrom('AIGC', 1, 0, -1, 100, 101, 1.5, 1e300));
    const body = fc.oneof(
      // maxKeys below the number of distinct keys: a larger unique-key dictionary never finishes generating.
      fc.dictionary(field, value, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
      fc.dictionary(field, fc.dictionary(field, value, { maxKeys: 5 }), { maxKeys: 3 }).map((o) => JSON.stringify(o)),
      fc
        .record(
          {
            Name: fc.string({ maxLength: 70, size: 'max' }),
            Description: fc.string({ maxLength: 310, size: 'max' }),
            GroupType: fc.constantFrom('AIGC', 'aigc'),
            PageSize: fc.integer({ min: -1, max: 101 }),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
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

  test('a bug in a step is a 500 AssetError with the envelope', async ({ startReference }) => {
    const server = await startReference({
      lagMs: 0,
      hooks: {
        validateList: () => {
          throw new Error('planted bug');
        },
      },
    });
    expectError(await new Client(server, 0).list({}), 500, 'AssetError', LIST);
  });
});

test.describe('wire step', () => {
  /** One POST over node:http with no Accept-Encoding, the raw bytes of the answer kept. */
  function rawPost(
    url: string,
    query: string,
    body: string,
    authorization?: string,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (authorization) headers.Authorization = authorization;
      const req = http.request(`${url}${SPEC_PATH}?${query}`, { method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const LIST_QUERY = `Action=${LIST}&Version=${VERSION}`;

  test("without a wire step the answer is the reference's: JSON, Content-Length, no Content-Encoding", async ({ startReference }) => {
    const server = await startReference({ lagMs: 0 });
    const r = await rawPost(server.url, LIST_QUERY, '{}', `Bearer ${TOKENS.primary}`);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['content-type']).toBe(JSON_TYPE);
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(JSON.parse(r.body.toString()).Result.Items).toEqual([]);
  });

  test('a wire step can gzip every answer, though the request sent no Accept-Encoding', async ({ startReference }) => {
    const server = await startReference({ lagMs: 0, hooks: { wire: gzipped } });
    for (const authorization of [`Bearer ${TOKENS.primary}`, undefined]) {
      const r = await rawPost(server.url, LIST_QUERY, '{}', authorization);
      expect(r.headers['content-encoding']).toBe('gzip');
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      const json = JSON.parse(zlib.gunzipSync(r.body).toString());
      expect(json.ResponseMetadata.Action).toBe(LIST);
      expect(r.status).toBe(authorization ? 200 : 401);
    }
  });

  test("a step can answer with a stack's own HTML page, which the wire step sends as written", async ({ startReference }) => {
    const server = await startReference({
      lagMs: 0,
      hooks: {
        parseBody: (raw, op) => (raw.toString() === '{' ? expressErrorPage(400, 'SyntaxError: Unexpected end of JSON input') : defaultHooks.parseBody(raw, op)),
        wire: stackPages,
      },
    });
    const r = await rawPost(server.url, `Action=${CREATE}&Version=${VERSION}`, '{', `Bearer ${TOKENS.primary}`);
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.body.toString()).toMatch(/^<!DOCTYPE html>[\s\S]*<pre>SyntaxError: Unexpected end of JSON input<\/pre>/);
    // Other answers of the same server keep the envelope.
    const ok = await rawPost(server.url, LIST_QUERY, '{}', `Bearer ${TOKENS.primary}`);
    expect(JSON.parse(ok.body.toString()).ResponseMetadata.Action).toBe(LIST);
  });

  test('a chunked wire answer has no Content-Length', async ({ startReference }) => {
    const server = await startReference({ lagMs: 0, hooks: { wire: (a) => ({ ...a, headers: { ...a.headers, 'Transfer-Encoding': 'chunked' } }) } });
    const r = await rawPost(server.url, LIST_QUERY, '{}', `Bearer ${TOKENS.primary}`);
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.headers['content-length']).toBeUndefined();
    expect(JSON.parse(r.body.toString()).Result.TotalCount).toBe(0);
  });

  test('beforeAuth sees the body before the token is checked; without it, auth answers first', async ({ startReference }) => {
    const reference = await startReference({ lagMs: 0 });
    expect((await rawPost(reference.url, LIST_QUERY, '{')).status).toBe(401);
    const early = await startReference({
      lagMs: 0,
      hooks: { beforeAuth: (raw) => (raw.toString() === '{' ? new ApiError(400, 'AssetBadRequest', 'not JSON') : null) },
    });
    expect((await rawPost(early.url, LIST_QUERY, '{')).status).toBe(400);
    expect((await rawPost(early.url, LIST_QUERY, '{}')).status).toBe(401);
    expect((await rawPost(early.url, LIST_QUERY, '{}', `Bearer ${TOKENS.primary}`)).status).toBe(200);
  });
});
