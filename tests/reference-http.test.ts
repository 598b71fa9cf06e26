/** The reference server's envelope, routing and wire step: what every answer carries, what any path, method, Action or Version gets, and how an answer goes on the wire. Request bodies: tests/reference-bodies.test.ts. */
import http from 'node:http';
import zlib from 'node:zlib';
import {
  BAD_REQUEST_KIND,
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
} from './helpers/reference-client';
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
