/**
 * Variants that reproduce what the common stacks do by default (Express, Go net/http, Python,
 * Java Spring/Jackson, ASP.NET, a reverse proxy in front): each a legitimate choice the spec leaves
 * open, as reference/variants.ts's are, and listed after them in VARIANTS. Each cites where the
 * default comes from.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, badRequest, defaultHooks, LONE_SURROGATE } from './behaviour';
import { OPERATIONS } from './behaviour-base';
import { brotli, expressEtag, gzipped, headerOf, unicodeEscape, withHeader, writeJson, type JsonStyle, type WireAnswer } from './wire';
import { isObject } from '../schemas/spec';
import type { Variant } from './behaviour-types';

const HTTP_JSON = 'The service is an HTTP/JSON interface.';
const TIMESTAMP = 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.';

/** The reference's answers written by another serializer (`style`), under `contentType` (default: the reference's). */
function encodedAs(style: JsonStyle, contentType = 'application/json; charset=utf-8', trailer = '') {
  return (payload: unknown) => ({ contentType, text: `${writeJson(payload, style)}${trailer}` });
}

/** Now in UTC with `digits` fraction digits: the milliseconds of Date, the rest from the monotonic clock's sub-millisecond part. */
function utcNow(digits: number): { base: string; fraction: string } {
  const iso = new Date().toISOString();
  const subMs = String(process.hrtime.bigint() % 1000000n).padStart(6, '0');
  return { base: iso.slice(0, 19), fraction: `${iso.slice(20, 23)}${subMs}`.slice(0, digits) };
}

/** The reference's create and list steps, but a body's keys match the names they expect case-insensitively (an exact match first). */
function foldKeys(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const name of names) {
    if (Object.prototype.hasOwnProperty.call(out, name)) continue;
    const key = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key !== undefined) {
      out[name] = out[key];
      delete out[key];
    }
  }
  return out;
}

/** What Django REST framework's CharField validators refuse in any string: a NUL, or a lone surrogate. */
const charFieldRefuses = (text: string): boolean => text.includes('\u0000') || LONE_SURROGATE.test(text);

export const STACK_VARIANTS: readonly Variant[] = [
  // ---------------------------------------------------------------- Express (Node)
  {
    name: 'expressDefaultHeaders',
    // Express sets X-Powered-By unless app.disable('x-powered-by'), and res.send a weak ETag (the etag package).
    description: 'Express defaults: X-Powered-By: Express and a weak ETag on every answer',
    allows: HTTP_JSON,
    hooks: { wire: (a: WireAnswer) => ({ ...a, headers: { 'X-Powered-By': 'Express', ...a.headers, ETag: expressEtag(a.body) } }) },
  },
  // ---------------------------------------------------------------- Go (net/http, encoding/json)
  {
    name: 'goHtmlEscapedJson',
    // encoding/json escapes <, >, & and U+2028/U+2029 in strings by default ("so that the JSON will be safe to embed
    // inside HTML <script> tags"; SetEscapeHTML(false) turns it off); json.Encoder.Encode ends with a newline;
    // handlers commonly set Content-Type: application/json with no charset (JSON is UTF-8 by RFC 8259).
    description:
      'Go encoding/json: <, >, & written as \\u003c, \\u003e, \\u0026 (and U+2028/9 escaped), a trailing newline, Content-Type application/json without charset',
    allows: HTTP_JSON,
    hooks: {
      encodeResponse: encodedAs({ escape: (ch) => ('<>&\u2028\u2029'.includes(ch) ? unicodeEscape(ch) : undefined) }, 'application/json', '\n'),
    },
  },
  {
    name: 'goNanoTimestamps',
    // time.Time's MarshalJSON writes RFC 3339 with nanoseconds (time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z07:00"):
    // trailing zeros of the fraction dropped, Z for UTC.
    description: 'Go time.Time: RFC 3339 with up to 9 fraction digits, trailing zeros dropped (2026-11-23T00:50:41.315847123Z)',
    allows: TIMESTAMP,
    hooks: {
      timestamp: () => {
        const { base, fraction } = utcNow(9);
        const trimmed = fraction.replace(/0+$/, '');
        return `${base}${trimmed ? `.${trimmed}` : ''}Z`;
      },
    },
  },
  {
    name: 'goNullBodyAsEmpty',
    // Decoding `null` into a struct "has no effect on the value": the request struct stays empty.
    description: 'Go encoding/json decoding: a body of null is read as {} (a list of everything; a create without a Name, refused)',
    allows: 'Request body: a JSON object. An empty object {} is a valid body.',
    hooks: {
      parseBody: (raw, op) => (new TextDecoder().decode(raw).trim() === 'null' ? {} : defaultHooks.parseBody(raw, op)),
    },
  },
  {
    name: 'goCaseInsensitiveKeys',
    // encoding/json's Unmarshal matches keys to struct fields "preferring an exact match but also accepting a case-insensitive match".
    description: 'Go encoding/json decoding: body keys match field names case-insensitively (name for Name, filter keys too)',
    allows: 'Which body fields are required and how invalid values are rejected: not shown.',
    hooks: {
      validateCreate: (body, ctx) => defaultHooks.validateCreate(foldKeys(body, ['Name', 'Title', 'Description', 'GroupType', 'ProjectName']), ctx),
      validateList: (body, ctx) => {
        const { filterField, filters, pageNumber, pageSize } = ctx.profile.list;
        const top = foldKeys(body, [filterField, pageNumber.field, pageSize.field]);
        const filter = top[filterField];
        if (isObject(filter)) top[filterField] = foldKeys(filter, Object.values(filters));
        return defaultHooks.validateList(top, ctx);
      },
    },
  },
  // ---------------------------------------------------------------- PHP (json_decode)
  {
    name: 'phpEmptyFilterArray',
    // json_decode($body, true), what Slim's getParsedBody, Laravel's $request->json() and Symfony's toArray() use, decodes
    // JSON objects to PHP arrays: [] and {} become the same empty array, so a Filter of [] reads as a Filter of {}.
    description: 'PHP json_decode($body, true) (Slim, Laravel, Symfony): a Filter of [] is the same empty array as {}, so it is read as no filter',
    allows: 'Names of the filter fields and of the pagination request fields: not shown.',
    hooks: {
      validateList: (body, ctx) => {
        const wrapper = ctx.profile.list.filterField;
        const filter = wrapper === '' ? undefined : body[wrapper];
        return defaultHooks.validateList(Array.isArray(filter) && filter.length === 0 ? { ...body, [wrapper]: {} } : body, ctx);
      },
    },
  },
  // ---------------------------------------------------------------- Python (json, datetime, Flask)
  {
    name: 'pythonJsonDumps',
    // json.dumps defaults: ensure_ascii=True ("all incoming non-ASCII characters escaped", astral ones as surrogate
    // pairs) and separators (', ', ': ').
    description: 'Python json.dumps defaults: every non-ASCII character as \\uXXXX (surrogate pairs beyond the BMP), ", " and ": " separators',
    allows: HTTP_JSON,
    hooks: {
      encodeResponse: encodedAs(
        { escape: (ch) => (ch.codePointAt(0)! > 0x7f ? unicodeEscape(ch) : undefined), itemSeparator: ', ', keySeparator: ': ' },
        'application/json',
      ),
    },
  },
  {
    name: 'djangoRestCharField',
    // rest_framework/fields.py: CharField.__init__ appends ProhibitNullCharactersValidator and
    // ProhibitSurrogateCharactersValidator to every string field ("Null characters are not allowed.",
    // "Surrogate characters are not allowed: U+D800."), so NUL and lone surrogates are refused with a 400.
    description: 'Django REST framework CharField: a NUL or a lone surrogate in any create field or list filter text is refused with 400',
    allows: 'All fields are strings unless noted.',
    hooks: {
      validateCreate: (body, ctx) => {
        const input = defaultHooks.validateCreate(body, ctx);
        if (input instanceof ApiError) return input;
        const odd = Object.entries(input).find(([, v]) => charFieldRefuses(v));
        return odd ? badRequest('CreateAssetGroup', `${odd[0]}: Null or surrogate characters are not allowed.`) : input;
      },
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        if (query instanceof ApiError) return query;
        const texts = [query.filter.name, query.filter.assetSpaceId, query.filter.groupType].filter((v) => v !== undefined);
        return texts.some(charFieldRefuses) ? badRequest('ListAssetGroups', 'Null or surrogate characters are not allowed.') : query;
      },
    },
  },
  {
    name: 'flaskJsonify',
    // Flask's jsonify (DefaultJSONProvider): sort_keys=True, ensure_ascii=True, compact, a trailing newline, mimetype application/json.
    description: 'Flask jsonify: keys sorted, non-ASCII as \\uXXXX, a trailing newline, Content-Type application/json',
    allows: HTTP_JSON,
    hooks: {
      encodeResponse: encodedAs({ escape: (ch) => (ch.codePointAt(0)! > 0x7f ? unicodeEscape(ch) : undefined), sortKeys: true }, 'application/json', '\n'),
    },
  },
  {
    name: 'pythonIsoformatTimestamps',
    // datetime.now(timezone.utc).isoformat(): microseconds and "+00:00"; the fraction is left out when it is zero.
    description: 'Python datetime.isoformat(): six fraction digits and +00:00 (2026-11-23T00:50:41.315847+00:00)',
    allows: TIMESTAMP,
    hooks: {
      timestamp: () => {
        const { base, fraction } = utcNow(6);
        return `${base}${/^0+$/.test(fraction) ? '' : `.${fraction}`}+00:00`;
      },
    },
  },
  // ---------------------------------------------------------------- Java (Jackson, Spring)
  {
    name: 'jacksonOffsetTimestamps',
    // Jackson's StdDateFormat since 2.11 (databind#2643): milliseconds and an offset with its colon, "+00:00". Before 2.11
    // it wrote "+0000" after an extended date-time, no ISO 8601 form (the mutant phpIso8601Offset).
    description: 'Jackson StdDateFormat (2.11 and later): milliseconds and a +00:00 offset (2026-11-23T00:50:41.315+00:00)',
    allows: TIMESTAMP,
    hooks: { timestamp: () => new Date().toISOString().replace(/Z$/, '+00:00') },
  },
  {
    name: 'springDefaultHeaders',
    // Spring MVC writes bodies chunked with application/json (no charset since 5.2), adds the CORS Vary headers, and
    // Spring Security its cache and framing headers.
    description:
      "Spring Boot defaults: chunked bodies, Content-Type application/json, Vary for CORS, Spring Security's Cache-Control, Pragma, Expires, X-Frame-Options",
    allows: HTTP_JSON,
    hooks: {
      wire: (a: WireAnswer) => ({
        ...a,
        headers: {
          ...withHeader(a.headers, 'Content-Type', headerOf(a.headers, 'content-type')?.replace(/;\s*charset=utf-8/i, '')),
          Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate',
          Pragma: 'no-cache',
          Expires: '0',
          'X-Frame-Options': 'DENY',
          'Transfer-Encoding': 'chunked',
        },
      }),
    },
  },
  // ---------------------------------------------------------------- .NET (ASP.NET Core, System.Text.Json)
  {
    name: 'aspNetEscapedJson',
    // System.Text.Json's default encoder (JavaScriptEncoder.Default) escapes every non-ASCII character and the
    // HTML-sensitive ", &, ', +, <, >, ` as \uXXXX with upper-case hex ("\u0436\u0430\u0440\u043A\u043E").
    description: 'System.Text.Json defaults: non-ASCII and " & \' + < > ` written as \\uXXXX (upper-case hex)',
    allows: HTTP_JSON,
    hooks: { encodeResponse: encodedAs({ escape: (ch) => (ch.codePointAt(0)! > 0x7e || '"&\'+<>`'.includes(ch) ? unicodeEscape(ch, true) : undefined) }) },
  },
  {
    name: 'aspNetEnumAction',
    // [FromQuery] bound to an enum: ASP.NET Core's EnumTypeConverter parses with ignoreCase, so listassetgroups
    // selects ListAssetGroups. Which values select an operation is the server's; the spec names them, not their case.
    description: 'ASP.NET Core binds Action to an enum case-insensitively: listassetgroups selects ListAssetGroups',
    allows: 'Both operations share one path. The query parameter Action selects the operation.',
    hooks: {
      selectOperation: (action, version) =>
        defaultHooks.selectOperation(OPERATIONS.find((op) => op.toLowerCase() === action?.toLowerCase()) ?? action, version),
    },
  },
  {
    name: 'aspNetRoundTripTimestamps',
    // DateTimeOffset.UtcNow.ToString("o"): seven fraction digits and +00:00.
    description: '.NET round-trip format "o" of a DateTimeOffset: seven fraction digits and +00:00 (2026-11-23T00:50:41.3158470+00:00)',
    allows: TIMESTAMP,
    hooks: {
      timestamp: () => {
        const { base, fraction } = utcNow(7);
        return `${base}.${fraction}+00:00`;
      },
    },
  },
  // ---------------------------------------------------------------- a reverse proxy in front (nginx, haproxy)
  {
    name: 'proxyGzipAlways',
    // RFC 9110 §12.5.3: a request without Accept-Encoding accepts any coding; a proxy may compress every answer.
    description: 'a proxy gzips every answer (Content-Encoding: gzip, Vary: Accept-Encoding), whatever the request said',
    allows: HTTP_JSON,
    hooks: { wire: gzipped },
  },
  {
    name: 'proxyBrotliAlways',
    description: 'a proxy compresses every answer with Brotli (Content-Encoding: br), whatever the request said',
    allows: HTTP_JSON,
    hooks: { wire: brotli },
  },
  {
    name: 'proxyConnectionClose',
    // nginx with keepalive_timeout 0, haproxy with option httpclose: every answer closes its connection.
    description: 'a proxy closes every connection after its answer (Connection: close)',
    allows: HTTP_JSON,
    hooks: { wire: (a: WireAnswer) => ({ ...a, headers: withHeader(a.headers, 'Connection', 'close') }) },
  },
  {
    name: 'nginxHeaders',
    // nginx's Server header, and $request_id (32 hex digits) passed on as X-Request-Id.
    description: 'nginx in front: Server: nginx and an X-Request-Id of 32 hex digits on every answer',
    allows: HTTP_JSON,
    hooks: { wire: (a: WireAnswer) => ({ ...a, headers: { ...a.headers, Server: 'nginx', 'X-Request-Id': randomBytes(16).toString('hex') } }) },
  },
];
