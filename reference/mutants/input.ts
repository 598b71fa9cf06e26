/** INPUT: what the server does with unusual or invalid input; refused with a 4xx, never a 500. */
import { ApiError, badRequest, codePointLength, defaultHooks, LONE_SURROGATE, OPERATIONS, SPEC_VERSION, type Operation } from '../behaviour';
import { family, isObject, perServer, syntaxError, utf8 } from './helpers';
import { isJsonText } from '../../schemas/spec';

/** A body read as its first JSON value, whatever follows it; a body without a readable first value gets the reference's answer. */
function firstValueOnly(raw: Buffer, op: Operation): ReturnType<typeof defaultHooks.parseBody> {
  const parsed = defaultHooks.parseBody(raw, op);
  if (!(parsed instanceof ApiError)) return parsed;
  const text = utf8.decode(raw);
  const end = firstValueEnd(text);
  return end < 0 || syntaxError(Buffer.from(text.slice(0, end))) !== null ? parsed : defaultHooks.parseBody(Buffer.from(text.slice(0, end)), op);
}

/**
 * The end of the first JSON value of `text` (after leading whitespace), or -1: what Go's
 * json.Decoder reads before it stops, leaving the rest of the stream unread.
 */
function firstValueEnd(text: string): number {
  const start = text.search(/\S/);
  if (start < 0 || !'{['.includes(text[start])) return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

const rateLimitedOnce = perServer(() => new Set<string>());

const parsesAsJson = isJsonText;

export const INPUT = family({
  /** A hand-written parser crashes on an invalid escape sequence (500) instead of refusing it. */
  badEscapeCrashes: {
    breaks: 'INPUT-01',
    description: 'an invalid escape sequence in the JSON body gets a 500',
    hooks: {
      parseBody: (raw, op) => {
        const text = raw.toString('utf8');
        if (!parsesAsJson(text) && /\\[^"\\/bfnrtu]/.test(text)) throw new Error('unexpected escape sequence');
        return defaultHooks.parseBody(raw, op);
      },
    },
  },
  /** Any JSON value is taken as the body; only objects were ever tested. */
  nonObjectBodyAccepted: {
    breaks: 'INPUT-02',
    description: 'a JSON body that is not an object is accepted (or crashes) instead of being refused',
    hooks: {
      parseBody: (raw, op) => {
        const result = defaultHooks.parseBody(raw, op);
        if (!(result instanceof ApiError) || !/must be a JSON object/.test(result.message)) return result;
        return JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      },
    },
  },
  /** Create fields are coerced with String() instead of type-checked. */
  createFieldsCoerced: {
    breaks: 'INPUT-03',
    description: 'create fields of the wrong type are coerced with String()',
    hooks: {
      validateCreate: (body, ctx) => {
        const coerced: Record<string, unknown> = { ...body };
        for (const field of ['Name', 'Title', 'Description', 'GroupType', 'ProjectName']) {
          if (coerced[field] !== undefined && typeof coerced[field] !== 'string') coerced[field] = String(coerced[field]);
        }
        return defaultHooks.validateCreate(coerced, ctx);
      },
    },
  },
  /**
   * Mojo::JSON's way: an integer literal too large for 64 bits is decoded as the string of its digits, so a type
   * check that asks "is it a string?" lets it through (a Mojolicious server built blind from the spec did this).
   */
  bigIntegerAsString: {
    breaks: 'INPUT-03',
    description: 'an integer literal beyond 64 bits in a create body is read as a string (Mojo::JSON) and accepted',
    hooks: {
      parseBody: (raw, op) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (parsed instanceof ApiError || op !== 'CreateAssetGroup') return parsed;
        const text = utf8.decode(raw);
        // Digits alone, as a value (after a colon, before a comma or brace), beyond 2^64: quoted before parsing.
        const quoted = text.replace(/(:\s*)(-?\d{20,})(?=\s*[,}])/g, (all, colon: string, digits: string) =>
          BigInt(digits) >= 2n ** 64n || BigInt(digits) < -(2n ** 63n) ? `${colon}"${digits}"` : all,
        );
        return quoted === text ? parsed : defaultHooks.parseBody(Buffer.from(quoted), op);
      },
    },
  },
  /** The Name length limit is not enforced. */
  overlongNameAccepted: {
    breaks: 'INPUT-04',
    description: 'a Name over 64 characters is accepted, though its profile states that bound',
    kitProfile: { name: 'reference-stated' },
    hooks: {
      validateCreate: (body, ctx) => {
        const max = ctx.profile.create.maxLength.Name;
        const name = body.Name;
        if (typeof name !== 'string' || max === undefined || codePointLength(name) <= max) return defaultHooks.validateCreate(body, ctx);
        const input = defaultHooks.validateCreate({ ...body, Name: [...name].slice(0, max).join('') }, ctx);
        return input instanceof ApiError ? input : { ...input, Name: name };
      },
    },
  },
  /** An unknown Action reaches a dispatch table lookup that throws (500). */
  unknownActionCrashes: {
    breaks: 'INPUT-05',
    description: 'an unknown or missing Action gets a 500',
    hooks: {
      selectOperation: (action, version) => {
        if (!OPERATIONS.includes(action as Operation)) throw new TypeError(`handlers[${JSON.stringify(action)}] is not a function`);
        return defaultHooks.selectOperation(action, version);
      },
    },
  },
  /** The Version parameter is never checked. */
  anyVersionAccepted: {
    breaks: 'INPUT-06',
    description: 'any Version, or none, is served as 2024-01-01',
    hooks: { selectOperation: (action) => defaultHooks.selectOperation(action, SPEC_VERSION) },
  },
  /** A strict UTF-8 encoder in the storage layer throws on a lone surrogate (500). */
  loneSurrogateCrashes: {
    breaks: 'INPUT-07',
    description: 'a lone surrogate in a create field gets a 500',
    hooks: {
      validateCreate: (body, ctx) => {
        const input = defaultHooks.validateCreate(body, ctx);
        if (!(input instanceof ApiError) && Object.values(input).some((v) => LONE_SURROGATE.test(v))) throw new Error('invalid UTF-16: lone surrogate');
        return input;
      },
    },
  },
  /**
   * MySQL's `utf8` (utf8mb3) column in strict mode: a character outside the BMP (an emoji) is "Incorrect string value",
   * and the create fails with a 500.
   */
  astralCharsCrash: {
    breaks: 'INPUT-07',
    description: 'a create with a character outside the BMP in any field gets a 500',
    hooks: {
      validateCreate: (body, ctx) => {
        const input = defaultHooks.validateCreate(body, ctx);
        if (!(input instanceof ApiError) && Object.values(input).some((v) => /[\u{10000}-\u{10FFFF}]/u.test(v))) throw new Error('Incorrect string value');
        return input;
      },
    },
  },
  /** The first create of each token is rate limited, with no Retry-After header. */
  rateLimitWithoutRetryAfter: {
    breaks: 'INPUT-08',
    description: 'the first create of each token gets 429 without a Retry-After header',
    hooks: {
      limitCreate: (principal, ctx) => {
        const seen = rateLimitedOnce(ctx);
        if (seen.has(principal.token)) return null;
        seen.add(principal.token);
        return new ApiError(429, 'UpstreamRateLimit', 'create rate exceeded');
      },
    },
  },
  /** PostgreSQL's text type cannot hold U+0000 ("invalid byte sequence for encoding UTF8: 0x00"); the error becomes a 500. */
  nulCharacterCrashes: {
    breaks: 'INPUT-07',
    description: 'a NUL character in a create field or the Name filter gets a 500',
    hooks: {
      validateCreate: (body, ctx) => {
        const input = defaultHooks.validateCreate(body, ctx);
        if (!(input instanceof ApiError) && Object.values(input).some((v) => v.includes('\u0000')))
          throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
        return input;
      },
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        if (!(query instanceof ApiError) && query.filter.name?.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
        return query;
      },
    },
  },
  /**
   * The Name filter's text checked for lone surrogates (a 400, as Django REST framework's CharField does) but not for NUL,
   * which PostgreSQL's text type cannot hold: a refused text must not hide another's 500.
   */
  nameFilterNulCrashesBehindSurrogateCheck: {
    breaks: 'INPUT-07',
    description: 'a lone surrogate in the Name filter gets 400, a NUL in it a 500 (creates are fine)',
    hooks: {
      validateList: (body, ctx) => {
        const query = defaultHooks.validateList(body, ctx);
        if (query instanceof ApiError || query.filter.name === undefined) return query;
        if (LONE_SURROGATE.test(query.filter.name)) return badRequest('ListAssetGroups', 'Surrogate characters are not allowed');
        if (query.filter.name.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
        return query;
      },
    },
  },
  /** Jackson's UNWRAP_SINGLE_VALUE_ARRAYS, often switched on: a one-element array is read as that element. */
  singleElementArrayUnwrapped: {
    breaks: 'INPUT-02',
    description: 'a JSON array of one object is read as that object (Jackson UNWRAP_SINGLE_VALUE_ARRAYS): [{...}] is served as {...}',
    hooks: {
      parseBody: (raw, op) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (!(parsed instanceof ApiError) || syntaxError(raw) !== null) return parsed;
        const value: unknown = JSON.parse(utf8.decode(raw));
        return Array.isArray(value) && value.length === 1 && isObject(value[0]) ? value[0] : parsed;
      },
    },
  },
  /** Go: `json.NewDecoder(r.Body).Decode(&req)` reads one JSON value and never checks that nothing follows. */
  goDecoderTrailingData: {
    breaks: 'INPUT-01',
    description: 'bytes after the first JSON value are ignored (Go json.Decoder without a check for EOF): {"Name": "x"} trailing is accepted',
    hooks: { parseBody: firstValueOnly },
  },
  /**
   * Jackson binding a create: FAIL_ON_TRAILING_TOKENS is off by default, so what follows the first value is never read;
   * and GroupType is required (a choice of its own). A create that carries only a Name is refused either way, so only a
   * complete create followed by trailing text shows the lenient decoder (a Jetty + Jackson server built blind from the spec).
   */
  jacksonTrailingTokens: {
    breaks: 'INPUT-01',
    description: 'bytes after the first JSON value of a create are ignored (Jackson FAIL_ON_TRAILING_TOKENS off), and a create without GroupType is refused',
    hooks: {
      parseBody: (raw, op) => (op === 'CreateAssetGroup' ? firstValueOnly(raw, op) : defaultHooks.parseBody(raw, op)),
      validateCreate: (body, ctx) =>
        body.GroupType === undefined ? badRequest('CreateAssetGroup', 'GroupType is required') : defaultHooks.validateCreate(body, ctx),
    },
  },
});
