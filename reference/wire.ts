/**
 * The wire layer of the reference server: what real stacks do to an answer after the application
 * wrote it (a proxy's gzip, its `Connection: close`, a framework's own HTML page), and the two
 * optional steps that reach it. Kept out of server.ts so the server stays a sequence of steps.
 *
 * Both steps are optional fields of `ReferenceHooks`, added here by declaration merging so variants
 * and mutants set them like any other step; the reference server leaves both unset.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { ApiError, type Operation } from './behaviour';

/** One answer as it is about to be written: `headers` as the server would send them (Content-Length is set afterwards). */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a wire step may know of the request; the body is the application's business. */
export interface WireRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The refusal behind an error answer (an ApiError of a step), null for a success or a 500. */
  cause: ApiError | null;
}

declare module './behaviour-types' {
  interface ReferenceHooks {
    /**
     * Rewrites an answer on its way out, after encodeResponse: a proxy's or a framework's layer.
     * Default: none. The server then sets Content-Length from the body, unless the headers say
     * `Transfer-Encoding: chunked`.
     */
    wire?(answer: WireAnswer, request: WireRequest): WireAnswer;
    /**
     * Looks at the raw body before authentication (a body parser mounted before the auth
     * middleware); a refusal answers at once. Default: none, and the body is read after auth.
     */
    beforeAuth?(raw: Buffer, op: Operation, ctx: HookContext): ApiError | null;
  }
}

/** Applies `wire` when set; the reference answer otherwise, byte for byte. */
export function onTheWire(
  wire: ((answer: WireAnswer, request: WireRequest) => WireAnswer) | undefined,
  answer: WireAnswer,
  request: WireRequest,
): { answer: WireAnswer; chunked: boolean } {
  const out = wire ? wire(answer, request) : answer;
  const chunked = /chunked/i.test(headerOf(out.headers, 'transfer-encoding') ?? '');
  return { answer: out, chunked };
}

// ---------------------------------------------------------------- headers, case-insensitively

export function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

/** A copy with `name` set (replacing any spelling of it); `undefined` removes it. */
export function withHeader(headers: Record<string, string>, name: string, value: string | undefined): Record<string, string> {
  const out = Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase()));
  if (value !== undefined) out[name] = value;
  return out;
}

// ---------------------------------------------------------------- pages a stack writes on its own

/**
 * An answer a framework or proxy writes itself, bypassing the application's envelope: a step
 * returns it as its refusal, and `stackPages` (the wire step) sends `page` as it is.
 */
export class StackAnswer extends ApiError {
  constructor(
    status: number,
    readonly page: { contentType: string | null; text: string; headers?: Record<string, string> },
    message = page.text.slice(0, 100),
  ) {
    super(status, 'StackAnswer', message);
  }
}

/** The wire step that lets a StackAnswer through as written; every other answer is unchanged. */
export function stackPages(answer: WireAnswer, request: WireRequest): WireAnswer {
  if (!(request.cause instanceof StackAnswer)) return answer;
  const { contentType, text, headers = {} } = request.cause.page;
  // Only what the stack sets survives: the application's own headers (Retry-After…) never reach the client.
  return {
    status: request.cause.status,
    headers: contentType === null ? { ...headers } : { ...headers, 'Content-Type': contentType },
    body: Buffer.from(text),
  };
}

/** As markupsafe.escape and PHP's htmlspecialchars(ENT_QUOTES) write them. */
export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Express's finalhandler page for an error it did not have a handler for (body-parser's
 * `entity.parse.failed` among them): HTML, with the CSP and nosniff headers finalhandler sets.
 * In development it shows the stack, e.g. "SyntaxError: Unexpected string in JSON at position 53
 * at JSON.parse … body-parser/lib/types/json.js" (as quoted by the json-syntax-error package's README).
 */
export function expressErrorPage(status: number, shown: string): StackAnswer {
  const text = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${escapeHtml(shown).replace(/\n/g, '<br> &nbsp; &nbsp;')}</pre>\n</body>\n</html>\n`;
  return new StackAnswer(status, {
    contentType: 'text/html; charset=utf-8',
    text,
    headers: { 'Content-Security-Policy': "default-src 'none'", 'X-Content-Type-Options': 'nosniff', 'X-Powered-By': 'Express' },
  });
}

/** Go's `http.Error(w, msg, code)`: text/plain, nosniff, the message and a newline. */
export function goHttpError(status: number, message: string): StackAnswer {
  return new StackAnswer(status, { contentType: 'text/plain; charset=utf-8', text: `${message}\n`, headers: { 'X-Content-Type-Options': 'nosniff' } });
}

/** Werkzeug's (Flask's) HTML page for a BadRequest, e.g. `request.args['Action']` when it is absent. */
export function werkzeugBadRequest(): StackAnswer {
  const text =
    '<!doctype html>\n<html lang=en>\n<title>400 Bad Request</title>\n<h1>Bad Request</h1>\n<p>The browser (or proxy) sent a request that this server could not understand.</p>\n';
  return new StackAnswer(400, { contentType: 'text/html; charset=utf-8', text });
}

/** nginx's built-in error page (ngx_http_special_response.c), e.g. limit_req with `limit_req_status 429`. */
export function nginxErrorPage(status: number, reason: string): StackAnswer {
  const text = `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return new StackAnswer(status, { contentType: 'text/html', text, headers: { Server: 'nginx' } });
}

/** Spring Boot's DefaultErrorAttributes as JSON (BasicErrorController for a non-HTML client): no message since Boot 2.3. */
export function springBootError(status: number, reason: string, path: string, now = new Date()): StackAnswer {
  // Jackson 2.11+ writes java.util.Date with StdDateFormat: milliseconds and a "+00:00" offset.
  const timestamp = now.toISOString().replace(/Z$/, '+00:00');
  return new StackAnswer(status, { contentType: 'application/json', text: JSON.stringify({ timestamp, status, error: reason, path }) });
}

/** ASP.NET Core's automatic 400 for an [ApiController] whose model binding failed: a ValidationProblemDetails. */
export function aspNetValidationProblem(errors: Record<string, string[]>, traceId: string): StackAnswer {
  const body = { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'One or more validation errors occurred.', status: 400, errors, traceId };
  return new StackAnswer(400, { contentType: 'application/problem+json; charset=utf-8', text: JSON.stringify(body) });
}

/** Passport's refusal when every strategy failed (passport-http-bearer): `res.statusCode = 401; res.end(STATUS_CODES[401])` with the challenge, and no Content-Type at all. */
export function passportUnauthorized(): StackAnswer {
  return new StackAnswer(401, { contentType: null, text: 'Unauthorized', headers: { 'WWW-Authenticate': 'Bearer realm="Users"', 'X-Powered-By': 'Express' } });
}

// ---------------------------------------------------------------- what proxies do to every answer

/** gzip whatever the request asked: RFC 9110 §12.5.3, no Accept-Encoding means any coding is acceptable. */
export function gzipped(answer: WireAnswer): WireAnswer {
  const headers = withHeader(withHeader(answer.headers, 'Content-Encoding', 'gzip'), 'Vary', 'Accept-Encoding');
  return { ...answer, headers, body: zlib.gzipSync(answer.body) };
}

export function brotli(answer: WireAnswer): WireAnswer {
  return {
    ...answer,
    headers: withHeader(withHeader(answer.headers, 'Content-Encoding', 'br'), 'Vary', 'Accept-Encoding'),
    body: zlib.brotliCompressSync(answer.body),
  };
}

/** Express's default ETag (the `etag` package, weak): W/"<length hex>-<sha1 base64, 27 chars>". */
export function expressEtag(body: Buffer): string {
  return `W/"${body.length.toString(16)}-${createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
}

// ---------------------------------------------------------------- JSON as other stacks write it

export interface JsonStyle {
  /** The escape for one character (a code point), or undefined to write it as JSON.stringify does. */
  escape?: (char: string) => string | undefined;
  sortKeys?: boolean;
  /** Between array items and object members; "," by default (Python's json.dumps: ", "). */
  itemSeparator?: string;
  /** Between a key and its value; ":" by default (Python's json.dumps: ": "). */
  keySeparator?: string;
}

/** JSON as another serializer writes it: the same values, another escaping, key order or spacing. */
export function writeJson(value: unknown, style: JsonStyle = {}): string {
  const { escape, sortKeys = false, itemSeparator = ',', keySeparator = ':' } = style;
  const str = (s: string) => {
    if (!escape) return JSON.stringify(s);
    let out = '';
    for (const ch of s) out += escape(ch) ?? JSON.stringify(ch).slice(1, -1);
    return `"${out}"`;
  };
  const write = (v: unknown): string | undefined => {
    if (v === undefined || typeof v === 'function') return undefined;
    if (typeof v === 'string') return str(v);
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x) => write(x) ?? 'null').join(itemSeparator)}]`;
    const keys = Object.keys(v);
    if (sortKeys) keys.sort();
    const members = keys.flatMap((k) => {
      const x = write((v as Record<string, unknown>)[k]);
      return x === undefined ? [] : [`${str(k)}${keySeparator}${x}`];
    });
    return `{${members.join(itemSeparator)}}`;
  };
  return write(value) ?? 'null';
}

/** \uXXXX of each UTF-16 unit of a character: a character outside the BMP becomes its surrogate pair. */
export function unicodeEscape(ch: string, upper = false): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) {
    const hex = ch.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return out;
}
