import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { proxyAdvice, routeFor, tlsAdvice, tunnelRefused, type ProxyChoice } from './network';
import { decodeBody, jsonAfterPrefix, MAX_RESPONSE_BYTES } from './body';

export { decodeBody, jsonAfterPrefix } from './body';

/**
 * One request and what came back, as the checks see it. Tokens never enter an Exchange: the
 * Authorization header is stored as a description of its form ("Bearer <primary token>").
 */
export interface Exchange {
  request: {
    method: string;
    url: string;
    action: string | null;
    version: string | null;
    headers: Record<string, string>;
    body: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** The parsed body; undefined when the body is not JSON (see jsonError). */
    json?: unknown;
    jsonError?: string;
    /**
     * Where a JSON object starts in a body that is not JSON but holds one whole after something printed before it (a
     * runtime's warning line, a byte-order mark): its offset, the length of that prefix. `json` stays undefined: such a
     * body is not JSON (ENV-05's finding), but the target is still one that answers with the envelope.
     */
    jsonAfter?: number;
    truncated?: boolean;
    /**
     * The cookies the target set (`name=value`), kept only so that AUTH-01 can send them back;
     * never shown: the Set-Cookie header itself is stored with its values masked.
     */
    cookies?: string[];
    /** Set when what is kept of the answer was cut (evidence.ts). */
    cut?: string;
  };
  /** Set when no HTTP response came back at all (refused, reset, timed out). */
  networkError?: string;
  durationMs: number;
  /** When it was sent, by the kit's clock (epoch ms): whether a read came before or after a group's visibility bound. */
  sentAt?: number;
}

export interface SendOptions {
  action: string | null;
  version: string | null;
  /** Raw body text; objects are JSON-encoded by the caller so malformed bodies can be sent too. */
  body: string;
  /** The Authorization header value to send, or null for none. */
  authorization: string | null;
  /** How to show the Authorization header in evidence, e.g. "Bearer <primary token>". */
  authorizationShown: string;
  timeoutMs: number;
  /** Extra path to request instead of the spec path, for requests to a wrong path. */
  path?: string;
  method?: string;
  contentType?: string | null;
  /** The User-Agent to send; undefined sends the kit's own (USER_AGENT), null sends none. */
  userAgent?: string | null;
  /** A Cookie header to send (AUTH-01 replays the target's cookies), and how evidence shows it. */
  cookie?: { value: string; shown: string };
  /**
   * Sent on a connection of its own, closed after the answer, never one a later request reuses. For
   * crafted credentials: a server may keep state per connection (Jetty 9.4's header field cache matches
   * a cached value ignoring case, so after `Bearer <TOKEN>` the same connection's `Bearer <token>` reached
   * the application as the cached upper-case one and was refused), and one test's crafted requests must not
   * decide the answers of another's requests.
   */
  isolated?: boolean;
  /** Where the proxy variables and AG_CA_FILE are read (client/network.ts): the process's environment unless given. */
  networkEnv?: NodeJS.ProcessEnv;
}

const KIT_VERSION = (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
/** What the kit says it is on every request: AG_USER_AGENT, or the kit's name and version. */
export const USER_AGENT = process.env.AG_USER_AGENT || `asset-group-conformance-kit/${KIT_VERSION}`;

/** The Set-Cookie values as `name=value` pairs, and the header with each value masked for evidence. */
function cookiesOf(setCookie: string[] | undefined): { pairs: string[]; shown: string } {
  const pairs: string[] = [];
  const shown: string[] = [];
  for (const line of setCookie ?? []) {
    const [pair, ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? '' : pair.slice(0, eq)).trim();
    const value = (eq < 0 ? pair : pair.slice(eq + 1)).trim();
    // Only what a Cookie header can carry (RFC 6265 cookie-name and cookie-octets) is kept to replay.
    if (/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) && /^"?[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*"?$/.test(value)) pairs.push(`${name}=${value}`);
    shown.push([`${name}=<a value of ${value.length} characters set by the target>`, ...attributes].join(';'));
  }
  return { pairs, shown: shown.join(', ') };
}

export const SPEC_PATH = '/v1/media_assets/';
export function buildUrl(baseURL: string, path: string, action: string | null, version: string | null): string {
  const url = new URL(path.replace(/^\//, ''), baseURL.endsWith('/') ? baseURL : `${baseURL}/`);
  if (action !== null) url.searchParams.set('Action', action);
  if (version !== null) url.searchParams.set('Version', version);
  return url.toString();
}

/**
 * Sends one request with node:http rather than fetch: the kit needs a hard deadline on the whole
 * exchange (a target that trickles bytes never trips an idle timeout), a cap on how much of an
 * answer it reads, and header values and bodies sent exactly as given, malformed ones included.
 */
export function send(baseURL: string, options: SendOptions): Promise<Exchange> {
  const url = buildUrl(baseURL, options.path ?? SPEC_PATH, options.action, options.version);
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = {};
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  headers['content-length'] = String(Buffer.byteLength(options.body));
  const userAgent = options.userAgent === undefined ? USER_AGENT : options.userAgent;
  if (userAgent !== null) headers['user-agent'] = userAgent;
  // The kit keeps no cookie jar: a Cookie header is only ever the one a test asks for.
  const shownHeaders = {
    ...headers,
    ...(options.authorization !== null ? { authorization: options.authorizationShown } : {}),
    ...(options.cookie ? { cookie: options.cookie.shown } : {}),
  };
  const wireHeaders = {
    ...headers,
    ...(options.authorization !== null ? { authorization: options.authorization } : {}),
    ...(options.cookie ? { cookie: options.cookie.value } : {}),
  };
  const exchange: Exchange = {
    request: { method, url, action: options.action, version: options.version, headers: shownHeaders, body: options.body },
    durationMs: 0,
    sentAt: Date.now(),
  };
  const started = performance.now();
  const parsed = new URL(url);
  const lib = parsed.protocol === 'https:' ? https : http;
  return new Promise<Exchange>((resolve) => attempt(options.isolated ?? false, resolve));

  function attempt(isolated: boolean, resolve: (exchange: Exchange) => void): void {
    const finish = (patch: Partial<Exchange>) => {
      Object.assign(exchange, patch, { durationMs: Math.round(performance.now() - started) });
      resolve(exchange);
    };
    // Through the proxy the environment names (client/network.ts), trusting --ca-file's CA too where it is given.
    const { agent, proxy, tls } = routeFor(parsed, isolated, options.networkEnv);
    const req = lib.request(parsed, { method, headers: wireHeaders, agent, timeout: options.timeoutMs, ...tls });
    // A proxy that refuses the tunnel answers the CONNECT itself: its answer is the proxy's, never the target's.
    let refused = '';
    req.on('proxyConnect', (connect: { statusCode?: number; statusText?: string }) => {
      // http-proxy-agent says so too, with no status: it sends the request itself to the proxy, and there is no tunnel.
      if (!proxy || parsed.protocol !== 'https:' || typeof connect?.statusCode !== 'number' || connect.statusCode === 200) return;
      refused = tunnelRefused(proxy, parsed, connect.statusCode, connect.statusText ?? '');
      req.destroy(new Error(refused));
    });
    // The kit's own timeouts close the connection; what follows (a reset, an abort) is then the
    // kit's doing and is reported as the timeout it was, with its limit, never as the target's reset.
    let timedOut = '';
    const giveUp = (why: string) => {
      if (timedOut) return;
      timedOut = `timed out: ${why} within ${options.timeoutMs} ms (AG_REQUEST_TIMEOUT_MS; the kit closed the connection)`;
      req.destroy(new Error(timedOut));
    };
    // `timeout` above only covers idle sockets; this bounds the whole exchange.
    const deadline = setTimeout(() => giveUp('no complete answer'), options.timeoutMs);
    req.on('timeout', () => giveUp('no answer'));
    req.on('error', (error: Error & { code?: string }) => {
      clearTimeout(deadline);
      // A kept-alive connection the target had just closed as idle (its keep-alive timeout: Starman's is 1 s, gunicorn's 2 s)
      // resets the request sent on it before any answer: the request most likely never reached the application. Sent
      // again once, on a new connection, as browsers do (Node's http docs, request.reusedSocket); a reset there is the target's.
      if (!timedOut && !isolated && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return attempt(true, resolve);
      finish({ networkError: timedOut || refused || describeNetworkError(error, proxy, options.networkEnv) });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          truncated = true;
          chunks.push(chunk.subarray(0, chunk.length - (size - MAX_RESPONSE_BYTES)));
          res.destroy();
          finishResponse();
          return;
        }
        chunks.push(chunk);
      });
      let done = false;
      const finishResponse = () => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        const decoded = truncated ? { bytes: Buffer.concat(chunks) } : decodeBody(Buffer.concat(chunks), res.headers['content-encoding']);
        const body = decoded.bytes.toString('utf8');
        const responseHeaders: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders[key] = Array.isArray(value) ? value.join(', ') : value;
        }
        const cookies = cookiesOf(res.headers['set-cookie']);
        if (res.headers['set-cookie']) responseHeaders['set-cookie'] = cookies.shown;
        let json: unknown;
        let jsonError: string | undefined;
        let jsonAfter: number | undefined;
        if (truncated) jsonError = `body larger than ${MAX_RESPONSE_BYTES} bytes; not parsed`;
        else if (decoded.error) jsonError = decoded.error;
        else {
          try {
            json = JSON.parse(body);
          } catch (error) {
            jsonError = (error as Error).message;
            jsonAfter = jsonAfterPrefix(body);
          }
        }
        finish({
          response: {
            status: res.statusCode ?? 0,
            headers: responseHeaders,
            body: truncated ? `${body.slice(0, 2000)}…` : body,
            json,
            jsonError,
            ...(jsonAfter === undefined ? {} : { jsonAfter }),
            truncated,
            ...(cookies.pairs.length ? { cookies: cookies.pairs } : {}),
          },
        });
      };
      res.on('end', finishResponse);
      res.on('error', (error) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        finish({
          networkError: timedOut
            ? `${timedOut}, mid-answer (HTTP ${res.statusCode}, ${size} bytes read)`
            : `connection dropped mid-answer (HTTP ${res.statusCode}): ${describeNetworkError(error)}`,
        });
      });
    });
    req.end(options.body);
  }
}

function describeNetworkError(error: Error & { code?: string }, proxy?: ProxyChoice, env?: NodeJS.ProcessEnv): string {
  const advice = tlsAdvice(error.code, error.message, env) ?? (proxy && proxyAdvice(error.code, proxy));
  if (advice) return advice;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is the target up?)';
    case 'ECONNRESET':
      return 'connection reset by the target';
    case 'ENOTFOUND':
      return 'host name not found';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
