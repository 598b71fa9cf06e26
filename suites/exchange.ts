import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

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
    truncated?: boolean;
  };
  /** Set when no HTTP response came back at all (refused, reset, timed out). */
  networkError?: string;
  durationMs: number;
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
  /** Extra path to request instead of the spec path, for bad-path probes. */
  path?: string;
  method?: string;
  contentType?: string | null;
}

export const SPEC_PATH = '/v1/media_assets/';
/** Bodies beyond this are cut short so a target answering megabytes cannot exhaust the kit. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };

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
  const shownHeaders = { ...headers, ...(options.authorization !== null ? { authorization: options.authorizationShown } : {}) };
  const wireHeaders = { ...headers, ...(options.authorization !== null ? { authorization: options.authorization } : {}) };
  const exchange: Exchange = {
    request: { method, url, action: options.action, version: options.version, headers: shownHeaders, body: options.body },
    durationMs: 0,
  };
  const started = performance.now();
  return new Promise<Exchange>((resolve) => {
    const finish = (patch: Partial<Exchange>) => {
      Object.assign(exchange, patch, { durationMs: Math.round(performance.now() - started) });
      resolve(exchange);
    };
    const parsed = new URL(url);
    const lib = parsed.protocol === 'https:' ? https : http;
    const req = lib.request(parsed, { method, headers: wireHeaders, agent: parsed.protocol === 'https:' ? agents.https : agents.http, timeout: options.timeoutMs });
    // `timeout` above only covers idle sockets; this bounds the whole exchange.
    const deadline = setTimeout(() => req.destroy(new Error(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (error) => {
      clearTimeout(deadline);
      finish({ networkError: describeNetworkError(error) });
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
        let json: unknown;
        let jsonError: string | undefined;
        if (truncated) jsonError = `body larger than ${MAX_RESPONSE_BYTES} bytes; not parsed`;
        else if (decoded.error) jsonError = decoded.error;
        else {
          try {
            json = JSON.parse(body);
          } catch (error) {
            jsonError = (error as Error).message;
          }
        }
        finish({ response: { status: res.statusCode ?? 0, headers: responseHeaders, body: truncated ? `${body.slice(0, 2000)}…` : body, json, jsonError, truncated } });
      };
      res.on('end', finishResponse);
      res.on('error', (error) => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        finish({ networkError: `connection dropped mid-answer (HTTP ${res.statusCode}): ${describeNetworkError(error)}` });
      });
    });
    req.end(options.body);
  });
}

/**
 * RFC 9110 §12.5.3: a request with no Accept-Encoding accepts any coding, so a proxy in front of a
 * target may compress whatever the kit asked. The body is read as the target meant it, whatever
 * was sent; what a coding inflates to is bounded like the wire bytes.
 */
export function decodeBody(raw: Buffer, encoding: string | string[] | undefined): { bytes: Buffer; error?: string } {
  const codings = (Array.isArray(encoding) ? encoding.join(',') : encoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let bytes = raw;
  const options = { maxOutputLength: MAX_RESPONSE_BYTES };
  // Codings are listed in the order they were applied: undone last first.
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = zlib.gunzipSync(bytes, options);
      else if (coding === 'deflate') bytes = inflateEither(bytes, options);
      else if (coding === 'br') bytes = zlib.brotliDecompressSync(bytes, options);
      else return { bytes, error: `Content-Encoding ${coding} is not one the kit can decode (gzip, deflate, br)` };
    } catch (error) {
      return { bytes: raw, error: `Content-Encoding ${coding}, but the body does not decode: ${(error as Error).message}` };
    }
  }
  return { bytes };
}

/** "deflate" is zlib-wrapped per RFC 9110, but some servers send raw deflate: both are read. */
function inflateEither(bytes: Buffer, options: zlib.ZlibOptions): Buffer {
  try {
    return zlib.inflateSync(bytes, options);
  } catch {
    return zlib.inflateRawSync(bytes, options);
  }
}

function describeNetworkError(error: Error & { code?: string }): string {
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
