/**
 * The kit's own tests of the reference server (tests/reference-*.test.ts) share this: a small
 * fetch client that speaks the spec's wire format, the envelope assertions, and the `ref` fixture.
 */
import { expect } from '@playwright/test';
import { referenceTokens, type TokenRole } from '../../reference/config';
import { startReferenceServer, type ReferenceOptions, type ReferenceServer } from '../../reference/server';
import { test as base } from './fixtures';

export { expect };

export const SPEC_PATH = '/v1/media_assets/';
export const VERSION = '2024-01-01';
export const CREATE = 'CreateAssetGroup';
export const LIST = 'ListAssetGroups';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
// The server reads the same environment, so the tests follow any AG_REF_TOKEN* override.
export const TOKENS = referenceTokens();
export const OPS = [CREATE, LIST] as const;
export const BAD_REQUEST_KIND = { [CREATE]: 'AssetError', [LIST]: 'AssetBadRequest' } as const;

export interface CallOptions {
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

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
  elapsedMs: number;
}

export class Client {
  constructor(
    readonly server: ReferenceServer,
    readonly lagMs: number,
  ) {}

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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What expectSuccess and expectError judge of an answer, gathered so that each is one assertion: Playwright makes every
 * `expect` a step of its own (a stack captured, two messages to the runner), and these run for every request of the
 * reference server's tests, polls included. A failure shows every field that differs at once.
 */
function answerOf(r: Reply) {
  const md = r.json?.ResponseMetadata;
  return {
    status: r.status,
    contentType: r.headers.get('content-type'),
    metadata: md && { RequestId: md.RequestId, Action: md.Action, Version: md.Version, Service: md.Service, Region: md.Region },
  };
}

const envelope = (status: number, action: string, version: string) => ({
  status,
  contentType: JSON_TYPE,
  metadata: { RequestId: expect.stringMatching(UUID), Action: action, Version: version, Service: 'media_assets', Region: 'ref-local-1' },
});

export function expectSuccess(r: Reply, action: string): void {
  const md = r.json?.ResponseMetadata;
  expect({ ...answerOf(r), error: md?.Error, result: typeof r.json?.Result }, JSON.stringify(r.json)).toEqual({
    ...envelope(200, action, VERSION),
    error: undefined,
    result: 'object',
  });
}

export function expectError(r: Reply, status: number, code: string, action: string, version = VERSION): void {
  const error = r.json?.ResponseMetadata?.Error;
  expect(
    {
      ...answerOf(r),
      code: error?.Code,
      message: typeof error?.Message,
      messageEmpty: error?.Message === '',
      hasResult: r.json !== null && typeof r.json === 'object' && 'Result' in r.json,
    },
    JSON.stringify(r.json),
  ).toEqual({ ...envelope(status, action, version), code, message: 'string', messageEmpty: false, hasResult: false });
}

/**
 * `ref`: a fresh in-process reference server per test (a few ms), so tests run in parallel and never
 * see each other's groups; `refOptions` sets it up (the server's own defaults, create rate
 * included, with a 50 ms lag). `startReference` (tests/helpers/fixtures.ts) starts extra ones, closed when
 * the test ends.
 */
export const test = base.extend<{ refOptions: ReferenceOptions; ref: Client }>({
  refOptions: [{ lagMs: 50 }, { option: true }],
  ref: async ({ refOptions }, use) => {
    const server = await startReferenceServer(refOptions);
    await use(new Client(server, refOptions.lagMs ?? 300));
    await server.close();
  },
});
