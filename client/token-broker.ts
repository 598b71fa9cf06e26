/**
 * The tokens a run fetches (client/token-source.ts), held in one place: the runner. It fetches each before the run and
 * again when one nears its expiry or a target refused it; the workers, separate processes, ask it over loopback (a
 * random key in their environment, never a file: no token is ever written anywhere). So a token source is asked once per
 * renewal, not once per worker, and the runner, which writes the reports, has registered every token any worker sent
 * (client/redact.ts) before its reporters run their last redaction over each file.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { send } from './exchange';
import { registerSecret } from './redact';
import { refreshAtOf, TokenSourceError, type Fetched } from './token-source';
import { oneLine } from './safe-text';

/** A token as one process holds it: `generation` counts the runner's fetches of its role, so that a refresh asked for by several workers at once happens once. */
export interface Held {
  token: string;
  refreshAt: number;
  generation: number;
}

/** Where a worker finds the runner's broker, and the key it must show. */
export const BROKER_URL = 'AG_TOKEN_BROKER';
export const BROKER_KEY = 'AG_TOKEN_BROKER_KEY';

/** One process's tokens, renewed once however many requests ask at the same time. */
export class TokenStore {
  private readonly held = new Map<string, Held>();
  private readonly pending = new Map<string, Promise<Held>>();

  /** `obtain` gets a new token for the role; `stale`, when given, is the generation a target refused. */
  constructor(private readonly obtain: (role: string, stale: number | undefined) => Promise<Held>) {}

  /** The latest token of the role this process holds, if any. */
  current(role: string): Held | undefined {
    return this.held.get(role);
  }

  /** A token of the role that is not yet due for renewal. */
  fresh(role: string): Promise<Held> {
    const held = this.held.get(role);
    return held && Date.now() < held.refreshAt ? Promise.resolve(held) : this.renew(role, undefined);
  }

  /** A token newer than the one of `generation`, which a target refused with a 401. */
  after401(role: string, generation: number): Promise<Held> {
    const held = this.held.get(role);
    return held && held.generation > generation ? Promise.resolve(held) : this.renew(role, generation);
  }

  private renew(role: string, stale: number | undefined): Promise<Held> {
    const pending = this.pending.get(role);
    if (pending) return pending;
    const renewal = this.obtain(role, stale)
      .then((held) => {
        registerSecret(held.token);
        this.held.set(role, held);
        return held;
      })
      .finally(() => this.pending.delete(role));
    this.pending.set(role, renewal);
    return renewal;
  }
}

/** The runner's store: each renewal a fetch from the role's source. */
export function ownerStore(fetch: (role: string) => Promise<Fetched>): TokenStore {
  const generations = new Map<string, number>();
  return new TokenStore(async (role) => {
    const fetched = await fetch(role);
    registerSecret(fetched.token);
    const generation = (generations.get(role) ?? 0) + 1;
    generations.set(role, generation);
    return { token: fetched.token, refreshAt: refreshAtOf(fetched), generation };
  });
}

/** Bodies the broker reads or sends are this small; anything longer is not the kit's. */
const MAX_BROKER_BODY = 4096;

/**
 * Serves the runner's store to the workers on 127.0.0.1, to those that show the key only. Returns its URL and key,
 * which the runner puts in its environment before the workers start, and a close.
 */
export async function startBroker(store: TokenStore, roles: readonly string[]): Promise<{ url: string; key: string; close: () => void }> {
  const key = randomBytes(32).toString('hex');
  registerSecret(key);
  const expected = Buffer.from(`Bearer ${key}`);
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const shown = Buffer.from(req.headers.authorization ?? '');
    if (shown.length !== expected.length || !timingSafeEqual(shown, expected)) return answer(401, { error: 'not this run' });
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BROKER_BODY) req.destroy();
    });
    req.on('end', () => {
      let asked: { role?: unknown; stale?: unknown };
      try {
        asked = JSON.parse(text) as typeof asked;
      } catch {
        return answer(400, { error: 'not JSON' });
      }
      const role = asked.role;
      if (typeof role !== 'string' || !roles.includes(role)) return answer(400, { error: 'no such role' });
      const renewal = typeof asked.stale === 'number' ? store.after401(role, asked.stale) : store.fresh(role);
      renewal.then(
        (held) => answer(200, held),
        // A TokenSourceError's message is already safe: it names the variable, never a secret.
        (error: unknown) => answer(502, { error: error instanceof TokenSourceError ? error.message : 'the token could not be fetched' }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The runner ends when its run does, whatever a worker still holds open.
  server.unref();
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, key, close: () => server.close() };
}

/** A worker's store: each renewal asks the runner's broker. */
export function brokerStore(url: string, key: string, timeoutMs: number): TokenStore {
  return new TokenStore(async (role, stale) => {
    const exchange = await send(url, {
      action: null,
      version: null,
      path: '/',
      method: 'POST',
      body: JSON.stringify({ role, ...(stale !== undefined ? { stale } : {}) }),
      authorization: `Bearer ${key}`,
      authorizationShown: `Bearer <${BROKER_KEY}>`,
      timeoutMs,
      // Renewals are rare: no connection is kept open to the runner between them.
      isolated: true,
    });
    const body = exchange.response?.json as Partial<Held> & { error?: unknown };
    if (exchange.response?.status === 200 && typeof body?.token === 'string' && typeof body.generation === 'number') {
      // JSON has no Infinity: a token that never says when it expires comes back with refreshAt null.
      return { token: body.token, generation: body.generation, refreshAt: typeof body.refreshAt === 'number' ? body.refreshAt : Infinity };
    }
    const why = typeof body?.error === 'string' ? body.error : (exchange.networkError ?? `HTTP ${exchange.response?.status}`);
    throw new TokenSourceError(oneLine(why, 500));
  });
}

let processStore: TokenStore | undefined;

/** The runner makes its store this process's; a worker's is made from the environment when first asked for. */
export function useTokenStore(store: TokenStore | undefined): void {
  processStore = store;
}

/** This process's token store: the runner's own, or the broker's client in a worker; undefined where no token is fetched. */
export function tokenStore(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): TokenStore | undefined {
  if (!processStore && env[BROKER_URL] && env[BROKER_KEY]) processStore = brokerStore(env[BROKER_URL], env[BROKER_KEY], timeoutMs);
  return processStore;
}
