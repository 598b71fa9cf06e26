/**
 * The reference server: a real HTTP server (node:http only) implementing the spec plus the
 * reference profile. The kit's default target, a stand-in developers can run, and the base of
 * mutants (see `hooks` and reference/behaviour.ts).
 *
 * Pipeline, in this order: path/method -> Action/Version -> auth -> body -> operation, then the
 * answer's wire form (encodeResponse, then the optional `wire` step of reference/wire.ts). A mutant
 * may look at the body before auth (`beforeAuth`), as a body parser mounted first does.
 * Any exception in a step becomes a 500 AssetError with the envelope, never a dropped connection.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadProfile, type Profile } from '../schemas/profile';
import { ApiError, badRequest, defaultHooks, type HookContext, type Operation, type Principal, type ReferenceHooks, type ResponseMetadata } from './behaviour';
import { referenceUsers, type ReferenceUser } from './config';
import { GroupStore, monotonicClock, preloadGroups, TokenBuckets, type Clock, type PreloadSettings } from './store';
import { onTheWire } from './wire';
import { ClientGone, readBody, splitTarget } from './read-request';

export type { ReferenceUser, ReferenceToken, TokenRole } from './config';
export { defaultHooks, ApiError } from './behaviour';
export type { ReferenceHooks, HookContext, Principal, ResponseMetadata } from './behaviour';
export type { WireAnswer, WireRequest } from './wire';

export interface ReferenceOptions {
  /** Default 0 = any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Snapshot refresh period of ListAssetGroups, in ms. Default 300; 0 = creates are visible at once. */
  lagMs?: number;
  /** Per-token token bucket for CreateAssetGroup; null = off. Default { perSecond: 20, burst: 40 }. */
  createRate?: { perSecond: number; burst: number } | null;
  /** Added to every response, in ms. Default 0. */
  latencyMs?: number;
  /** Default: referenceUsers() of config.ts. */
  users?: ReferenceUser[];
  /** ResponseMetadata.Service. Default "media_assets". */
  service?: string;
  /** ResponseMetadata.Region. Default "ref-local-1". */
  region?: string;
  /** Replaces named steps of the behaviour; the basis of mutants. */
  hooks?: Partial<ReferenceHooks>;
  /** Monotonic ms clock for the snapshot lag and the rate buckets. Default performance.now. */
  clock?: Clock;
  /**
   * Groups already on the server before it answers (a busy target), visible from the first
   * request: `groups` of them, `primaryShare` (0..1) owned by the first user, the rest by others.
   * Default none. Used by the benchmarks (bench/run.ts).
   */
  preload?: PreloadSettings;
  /** The profile the server implements (its field names, bounds, error shape). Default: the reference profile. */
  profile?: Profile;
}

export interface ReferenceServer {
  /** http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
  stats(): { requests: number; creates: number; rateLimited: number };
  /** The Name and Title of every group it holds: the kit's own tests check that a run created none without its prefix. */
  groups(): { Name: string; Title: string }[];
}

export const DEFAULT_CREATE_RATE = { perSecond: 20, burst: 40 } as const;
const JSON_TYPE = 'application/json; charset=utf-8';

interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function tokenDirectory(users: ReferenceUser[]): Map<string, Principal> {
  const tokens = new Map<string, Principal>();
  for (const user of users) {
    for (const t of user.tokens) {
      // Names only, never values: the message may end up in a terminal or a CI log.
      if (t.token === '') throw new Error(`reference user ${user.id} has an empty token`);
      if (tokens.has(t.token)) throw new Error(`two reference tokens share one value (user ${user.id}${t.role ? `, role ${t.role}` : ''})`);
      tokens.set(t.token, { userId: user.id, channel: t.channel, token: t.token });
    }
  }
  return tokens;
}

export async function startReferenceServer(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  const lagMs = options.lagMs ?? 300;
  const latencyMs = options.latencyMs ?? 0;
  if (!(latencyMs >= 0) || !Number.isFinite(latencyMs)) throw new RangeError(`latencyMs must be a finite number >= 0, got ${latencyMs}`);
  const createRate = options.createRate === undefined ? DEFAULT_CREATE_RATE : options.createRate;
  const clock = options.clock ?? monotonicClock;
  const service = options.service ?? 'media_assets';
  const region = options.region ?? 'ref-local-1';
  const hooks: ReferenceHooks = { ...defaultHooks, ...options.hooks };
  const users = options.users ?? referenceUsers();
  const ctx: HookContext = {
    // The reference profile unless a caller (a variant, a self-test) chose another; never AG_PROFILE.
    profile: options.profile ?? loadProfile(),
    store: new GroupStore(lagMs, clock),
    rate: createRate ? new TokenBuckets(createRate, clock) : null,
    tokens: tokenDirectory(users),
    hooks,
  };
  if (options.preload && users.length) {
    // The first user is the primary one (referenceUsers() lists it first).
    const [primary, ...others] = users;
    preloadGroups(ctx.store, options.preload, {
      primaryUserId: primary.id,
      primaryChannels: [...new Set(primary.tokens.map((t) => t.channel))],
      otherUserIds: others.map((u) => u.id),
    });
  }
  const counters = { requests: 0, creates: 0, rateLimited: 0 };

  async function pipeline(req: http.IncomingMessage, path: string, action: string | null, version: string | null): Promise<Outcome | ApiError> {
    const routeError = hooks.route(req.method ?? '', path);
    if (routeError) return routeError;
    const op = hooks.selectOperation(action, version);
    if (op instanceof ApiError) return op;
    // Read first only when a step wants the body before auth; the reference never reads a body it will refuse.
    let read = hooks.beforeAuth ? await readBody(req, hooks.maxBodyBytes(op)) : undefined;
    if (read?.ok) {
      const refused = hooks.beforeAuth!(read.raw, op, ctx);
      if (refused) return refused;
    }
    const principal = hooks.authenticate(req.headers.authorization, ctx, req.headers, req.socket);
    if (principal instanceof ApiError) return principal;
    read ??= await readBody(req, hooks.maxBodyBytes(op));
    if (!read.ok) {
      const error = badRequest(op, `request body exceeds ${hooks.maxBodyBytes(op)} bytes`);
      // The rest of the body is never read; closing stops a client from streaming it into a reused socket.
      return new ApiError(error.status, error.code, error.message, { Connection: 'close' });
    }
    const body = hooks.parseBody(read.raw, op);
    if (body instanceof ApiError) return body;
    return operation(op, principal, body);
  }

  function operation(op: Operation, principal: Principal, body: Record<string, unknown>): Outcome | ApiError {
    if (op === 'CreateAssetGroup') {
      const input = hooks.validateCreate(body, ctx);
      if (input instanceof ApiError) return input;
      const limited = hooks.limitCreate(principal, ctx);
      if (limited) {
        if (limited.status === 429) counters.rateLimited++;
        return limited;
      }
      const group = hooks.createGroup(principal, input, ctx);
      counters.creates++;
      return { status: 200, body: { Id: group.Id } };
    }
    const query = hooks.validateList(body, ctx);
    if (query instanceof ApiError) return query;
    const refused = hooks.authorizeList(principal, query, ctx);
    if (refused) return refused;
    return { status: 200, body: hooks.listGroups(principal, query, ctx) };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    counters.requests++;
    const { path, query } = splitTarget(req.url ?? '/');
    const action = query.get('Action');
    const version = query.get('Version');
    let status: number;
    let payload: unknown;
    let headers: Record<string, string> = {};
    let meta: ResponseMetadata | undefined;
    let cause: ApiError | null = null;
    try {
      meta = { RequestId: hooks.newRequestId(), Action: action ?? '', Version: version ?? '', Service: service, Region: region };
      const outcome = await pipeline(req, path, action, version);
      if (outcome instanceof ApiError) {
        cause = outcome;
        status = outcome.status;
        headers = outcome.headers;
        payload = hooks.errorBody(meta, outcome, ctx);
      } else {
        status = outcome.status;
        headers = outcome.headers ?? {};
        payload = hooks.successBody(meta, outcome.body, ctx);
      }
    } catch (error) {
      if (error instanceof ClientGone) {
        res.destroy();
        return;
      }
      const detail = error instanceof Error ? error.message : String(error);
      const internal = new ApiError(500, 'AssetError', `internal error in the reference server: ${detail.slice(0, 200)}`);
      meta ??= { RequestId: randomUUID(), Action: action ?? '', Version: version ?? '', Service: service, Region: region };
      status = 500;
      headers = {};
      try {
        payload = hooks.errorBody(meta, internal, ctx);
      } catch {
        payload = defaultHooks.errorBody(meta, internal, ctx);
      }
    }
    if (latencyMs > 0) await sleep(latencyMs);
    if (res.destroyed || res.headersSent) return;
    const { contentType, text } = hooks.encodeResponse(payload, status);
    const encoded = { status, headers: { ...headers, 'Content-Type': contentType }, body: Buffer.from(text) };
    const { answer, chunked } = onTheWire(hooks.wire, encoded, { method: req.method ?? '', path, query, headers: req.headers, cause });
    res.writeHead(answer.status, chunked ? answer.headers : { ...answer.headers, 'Content-Length': answer.body.length });
    res.end(answer.body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      // Only reachable if writing the response itself failed; the socket is all that is left.
      if (!res.destroyed) res.destroy();
    });
  });

  // Malformed HTTP never reaches the handler; answer it with the envelope too, as a 4xx.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const meta: ResponseMetadata = { RequestId: hooks.newRequestId(), Action: '', Version: '', Service: service, Region: region };
    const text = JSON.stringify(defaultHooks.errorBody(meta, new ApiError(status, 'AssetBadRequest', 'malformed HTTP request'), ctx));
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    stats: () => ({ ...counters }),
    groups: () => ctx.store.all().map(({ Name, Title }) => ({ Name, Title })),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets would hold close() open until their idle timeout.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
