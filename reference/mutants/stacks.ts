/**
 * STACKS: what real stacks do by default that the spec does not allow, each one deviation. The
 * frameworks' and proxies' own pages (reference/wire.ts) reach the client through the `wire` step;
 * everything else the application answers is the reference's.
 */
import { ApiError, defaultHooks, SPEC_PATH, type Operation } from '../behaviour';
import { aspNetValidationProblem, expressErrorPage, goHttpError, nginxErrorPage, passportUnauthorized, springBootError, stackPages, werkzeugBadRequest } from '../wire';
import { family, isObject, perServer } from './helpers';

const utf8 = new TextDecoder('utf-8');

/** JSON.parse's complaint about a body, or null when it parses. */
function syntaxError(raw: Buffer): string | null {
  try {
    JSON.parse(utf8.decode(raw));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
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

/** Action or Version absent from the query (not empty: an empty parameter is still there). */
const missingParameter = (action: string | null, version: string | null) => (action === null ? 'Action' : version === null ? 'Version' : null);

let traceCounter = 0;

export const STACKS = family({
  /**
   * Express with `app.use(express.json())` and no error handler of its own: body-parser's
   * `entity.parse.failed` (400) reaches finalhandler, which writes its HTML page. In strict mode
   * (the default) body-parser also refuses a body whose first character is not { or [.
   */
  expressBodyParserHtml: {
    breaks: 'ENV-05',
    description: 'a body that is not JSON (or, body-parser\'s strict mode, a JSON string, number, true or null) gets Express\'s HTML 400 page "SyntaxError: …"',
    hooks: {
      parseBody: (raw, op) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (!(parsed instanceof ApiError) || raw.length === 0) return parsed;
        const text = utf8.decode(raw);
        const first = text.trim()[0];
        const complaint = syntaxError(raw) ?? (first !== '{' && first !== '[' ? `Unexpected token ${first} in JSON at position ${text.indexOf(first)}` : null);
        return complaint === null ? parsed : expressErrorPage(400, `SyntaxError: ${complaint}\n    at JSON.parse (<anonymous>)\n    at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)`);
      },
      wire: stackPages,
    },
  },
  /** Go: `if q.Get("Action") == "" { http.Error(w, …, http.StatusBadRequest) }` before the API's own error writer is reached. */
  missingQueryGoHttpError: {
    breaks: 'ENV-05',
    description: 'a request without Action or Version gets Go\'s http.Error: 400 text/plain "missing query parameter Action"',
    hooks: {
      selectOperation: (action, version) => {
        const missing = missingParameter(action, version);
        return missing ? goHttpError(400, `missing query parameter ${missing}`) : defaultHooks.selectOperation(action, version);
      },
      wire: stackPages,
    },
  },
  /** Flask: `request.args['Action']` raises BadRequestKeyError, which Werkzeug answers with its HTML page. */
  missingQueryFlaskHtml: {
    breaks: 'ENV-05',
    description: 'a request without Action or Version gets Werkzeug\'s HTML 400 page "Bad Request" (Flask, request.args[…])',
    hooks: {
      selectOperation: (action, version) => (missingParameter(action, version) ? werkzeugBadRequest() : defaultHooks.selectOperation(action, version)),
      wire: stackPages,
    },
  },
  /**
   * Spring: a missing `@RequestParam` throws MissingServletRequestParameterException, which Spring
   * Boot's BasicErrorController answers with DefaultErrorAttributes (no message since Boot 2.3).
   */
  missingQuerySpringError: {
    breaks: 'ENV-02',
    description: 'a request without Action or Version gets Spring Boot\'s default error JSON {timestamp, status, error, path} with no ResponseMetadata',
    hooks: {
      selectOperation: (action, version) => (missingParameter(action, version) ? springBootError(400, 'Bad Request', SPEC_PATH) : defaultHooks.selectOperation(action, version)),
      wire: stackPages,
    },
  },
  /**
   * ASP.NET Core [ApiController]: when the [FromBody] model does not bind (not JSON, not an object,
   * a field of the wrong type), the automatic 400 answers a ValidationProblemDetails before the
   * action runs.
   */
  aspNetModelBindingProblem: {
    breaks: 'ENV-02',
    description: 'a create body that does not bind (not JSON, not an object) gets ASP.NET\'s ValidationProblemDetails (application/problem+json, no ResponseMetadata)',
    hooks: {
      parseBody: (raw, op: Operation) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (!(parsed instanceof ApiError) || op !== 'CreateAssetGroup') return parsed;
        const trace = `00-${(++traceCounter).toString(16).padStart(32, '0')}-${'0'.repeat(15)}1-00`;
        return aspNetValidationProblem({ $: [`The JSON value could not be converted to CreateAssetGroupRequest. Path: $ | LineNumber: 0 | BytePositionInLine: 0.`], request: ['The request field is required.'] }, trace);
      },
      wire: stackPages,
    },
  },
  /**
   * nginx in front with `limit_req zone=… ` keyed by the Authorization header and `limit_req_status
   * 429`: its own HTML page, no envelope, no Retry-After. Here the first create of each token.
   */
  nginxRateLimitHtml: {
    breaks: 'ENV-05',
    description: 'the first create of each token gets nginx\'s limit_req page: 429 text/html "429 Too Many Requests", no envelope, no Retry-After',
    hooks: {
      limitCreate: (() => {
        const seen = perServer(() => new Set<string>());
        return (principal, ctx) => {
          const tokens = seen(ctx);
          if (tokens.has(principal.token)) return defaultHooks.limitCreate(principal, ctx);
          tokens.add(principal.token);
          return nginxErrorPage(429, 'Too Many Requests');
        };
      })(),
      wire: stackPages,
    },
  },
  /**
   * The body parser is mounted before authentication (Express's app.use(express.json()) first;
   * FastAPI reads the JSON body before it solves the auth dependency), so a bad body is refused
   * before the missing token is noticed.
   */
  bodyParsedBeforeAuth: {
    breaks: 'AUTH-01',
    description: 'the body is parsed before the token is checked: no token and a malformed or non-object body gets 400, not 401',
    hooks: {
      beforeAuth: (raw, op) => {
        const parsed = defaultHooks.parseBody(raw, op);
        return parsed instanceof ApiError ? parsed : null;
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
    hooks: {
      parseBody: (raw, op) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (!(parsed instanceof ApiError)) return parsed;
        const text = utf8.decode(raw);
        const end = firstValueEnd(text);
        return end < 0 || syntaxError(Buffer.from(text.slice(0, end))) !== null ? parsed : defaultHooks.parseBody(Buffer.from(text.slice(0, end)), op);
      },
    },
  },
  /** Go: decoding `null` into a struct "has no effect on the value", so the request struct stays empty. */
  goNullBodyAsEmpty: {
    breaks: 'INPUT-02',
    description: 'a body of null is served as {} (Go encoding/json: null into a struct leaves it unchanged)',
    hooks: {
      parseBody: (raw, op) => (utf8.decode(raw).trim() === 'null' ? {} : defaultHooks.parseBody(raw, op)),
    },
  },
  /** Passport with passport-http-bearer and no failure handler: 401, its challenge, the bare word, no Content-Type. */
  passportBearer401: {
    breaks: 'ENV-05',
    description: 'a refused token gets Passport\'s 401: the body "Unauthorized", WWW-Authenticate: Bearer realm="Users", no Content-Type, no envelope',
    hooks: {
      authenticate: (authorization, ctx) => {
        const principal = defaultHooks.authenticate(authorization, ctx);
        return principal instanceof ApiError ? passportUnauthorized() : principal;
      },
      wire: stackPages,
    },
  },
  /**
   * .NET: an exception middleware that writes its JSON through `new StreamWriter(body, Encoding.UTF8)`
   * starts it with the UTF-8 preamble (Encoding.UTF8 emits its BOM); RFC 8259 §8.1 says JSON senders
   * MUST NOT add one, and JSON.parse, Go's and Python's json.loads refuse it. Successes go through
   * the MVC formatter and have none.
   */
  errorBodiesWithBom: {
    breaks: 'ENV-05',
    description: 'error bodies start with a UTF-8 byte order mark (EF BB BF), as a .NET StreamWriter with Encoding.UTF8 writes it',
    hooks: { wire: (answer) => (answer.status < 400 ? answer : { ...answer, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), answer.body]) }) },
  },
});
