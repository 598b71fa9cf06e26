/**
 * ENV: the envelope around every answer (Region, RequestId, Content-Type, Result), and what real
 * stacks answer by default instead: the frameworks' and proxies' own pages (reference/wire.ts) reach
 * the client through the `wire` step; everything else the application answers is the reference's.
 */
import { ApiError, defaultHooks, JSON_CONTENT_TYPE, SPEC_PATH, type ListResult, type Operation } from '../behaviour';
import {
  aspNetValidationProblem,
  expressErrorPage,
  goHttpError,
  nginxErrorPage,
  passportUnauthorized,
  springBootError,
  stackPages,
  werkzeugBadRequest,
} from '../wire';
import { family, isObject, nameSearchEnvelope, perServer, refusingOtherGroupTypes, syntaxError, utf8, withoutRegion, withoutRequestId } from './helpers';

/** Action or Version absent from the query (not empty: an empty parameter is still there). */
const missingParameter = (action: string | null, version: string | null) => (action === null ? 'Action' : version === null ? 'Version' : null);

let traceCounter = 0;

/** What PHP 8.2 prints, display_errors on and html_errors off, for a dynamic property: before anything the script echoes. */
const PHP_DEPRECATION = '\nDeprecated: Creation of dynamic property is deprecated in /var/www/api.php on line 12\n';

export const ENV = family({
  /** The auth middleware answers 401 with an envelope of its own, without Region. */
  authEnvelopeWithoutRegion: {
    breaks: 'ENV-02',
    description: '401 answers carry an envelope without Region (the auth layer builds its own)',
    hooks: { errorBody: (meta, error, ctx) => defaultHooks.errorBody(error.status === 401 ? withoutRegion(meta) : meta, error, ctx) },
  },
  emptyRequestId: {
    breaks: 'ENV-03',
    description: 'ResponseMetadata.RequestId is an empty string',
    hooks: { newRequestId: () => '' },
  },
  /**
   * The request id is sent as the X-Request-Id header alone, never in ResponseMetadata. An Express server built blind
   * from the spec, changed to do this, failed ENV-01 and ENV-02: one gap of the envelope everywhere, ENV-01's.
   */
  requestIdHeaderOnly: {
    breaks: 'ENV-01',
    description: 'ResponseMetadata never carries RequestId (the id is sent as a header only)',
    hooks: {
      successBody: (meta, result, ctx) => defaultHooks.successBody(withoutRequestId(meta), result, ctx),
      errorBody: (meta, error, ctx) => defaultHooks.errorBody(withoutRequestId(meta), error, ctx),
    },
  },
  constantRequestId: {
    breaks: 'ENV-04',
    description: 'every response has the same RequestId',
    hooks: { newRequestId: () => 'req-00000000' },
  },
  /** The JSON body parser's own 400 is the bare words "Bad Request" under the API's JSON content type. */
  malformedJsonPlainText: {
    breaks: 'ENV-05',
    description: 'malformed JSON gets 400 with the bare words "Bad Request" under a JSON content type',
    hooks: {
      encodeResponse: (payload, status) => {
        // The reference server always writes the reference profile's error body: ResponseMetadata.Error.Message.
        const message = (payload as { ResponseMetadata?: { Error?: { Message?: unknown } } } | undefined)?.ResponseMetadata?.Error?.Message;
        const parseError = status === 400 && typeof message === 'string' && message.includes('not valid JSON');
        return parseError ? { contentType: JSON_CONTENT_TYPE, text: 'Bad Request' } : defaultHooks.encodeResponse(payload, status);
      },
    },
  },
  /** Serialises JSON but labels it text/plain, as `res.end(JSON.stringify(x))` without a header does. */
  textPlainContentType: {
    breaks: 'ENV-05',
    description: 'JSON bodies are sent as Content-Type text/plain',
    hooks: { encodeResponse: (payload) => ({ contentType: 'text/plain; charset=utf-8', text: JSON.stringify(payload) }) },
  },
  /** An unfiltered, unpaged list comes back from the query layer as undefined; the envelope then has no Result. */
  resultOmittedWhenUnfiltered: {
    breaks: 'ENV-06',
    description: 'an unfiltered, unpaged list ({}) answers 200 with no Result',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const { pageNumber, pageSize } = ctx.profile.list;
        const unfiltered = Object.keys(query.filter).length === 0 && query.pageNumber === pageNumber.default && query.pageSize === pageSize.default;
        return unfiltered ? (undefined as unknown as ListResult) : defaultHooks.listGroups(principal, query, ctx);
      },
    },
  },
  /**
   * The create's Id beside the envelope instead of in Result: `{ ResponseMetadata, Id }`, the handler's own object
   * spread into the body (a Python server built blind from the spec, changed to do this, failed CREATE-01 and
   * CREATE-05 while ENV-06, the one deviation, was left blocked).
   */
  createIdOutsideResult: {
    breaks: 'ENV-06',
    description: 'a create answers { ResponseMetadata, Id }, without Result',
    hooks: {
      successBody: (meta, result, ctx) => {
        const body = defaultHooks.successBody(meta, result, ctx);
        return meta.Action === 'CreateAssetGroup' && isObject(body) ? { ResponseMetadata: body.ResponseMetadata, ...(result as object) } : body;
      },
    },
  },
  /** Creates through a channel-bound token are answered by the channel gateway, whose envelope has no Region. */
  channelCreateWithoutRegion: {
    breaks: 'ENV-01',
    description: 'creates through a channel-bound token answer an envelope without Region',
    hooks: {
      successBody: (meta, result, ctx) => {
        const id = isObject(result) ? result.Id : undefined;
        const viaChannel = typeof id === 'string' && ctx.store.all().some((g) => g.Id === id && g.channel !== null);
        return defaultHooks.successBody(viaChannel ? withoutRegion(meta) : meta, result, ctx);
      },
    },
  },
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
        return complaint === null
          ? parsed
          : expressErrorPage(
              400,
              `SyntaxError: ${complaint}\n    at JSON.parse (<anonymous>)\n    at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)`,
            );
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
    description: "a request without Action or Version gets Spring Boot's default error JSON {timestamp, status, error, path} with no ResponseMetadata",
    hooks: {
      selectOperation: (action, version) =>
        missingParameter(action, version) ? springBootError(400, 'Bad Request', SPEC_PATH) : defaultHooks.selectOperation(action, version),
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
    description:
      "a create body that does not bind (not JSON, not an object) gets ASP.NET's ValidationProblemDetails (application/problem+json, no ResponseMetadata)",
    hooks: {
      parseBody: (raw, op: Operation) => {
        const parsed = defaultHooks.parseBody(raw, op);
        if (!(parsed instanceof ApiError) || op !== 'CreateAssetGroup') return parsed;
        const trace = `00-${(++traceCounter).toString(16).padStart(32, '0')}-${'0'.repeat(15)}1-00`;
        return aspNetValidationProblem(
          {
            $: [`The JSON value could not be converted to CreateAssetGroupRequest. Path: $ | LineNumber: 0 | BytePositionInLine: 0.`],
            request: ['The request field is required.'],
          },
          trace,
        );
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
  /** An API gateway answers the requests it refuses itself (no token) and writes its own name as the Service. */
  gatewayServiceOnAuthErrors: {
    breaks: 'ENV-07',
    description: 'the 401 answers, written by the gateway in front, name the gateway as ResponseMetadata.Service',
    hooks: { errorBody: (meta, error, ctx) => defaultHooks.errorBody(error.status === 401 ? { ...meta, Service: 'api-gateway' } : meta, error, ctx) },
  },
  /**
   * Flask: a validation step that calls abort(400) for a GroupType it does not know answers Werkzeug's own HTML page. The
   * list tests accept any 4xx for an unknown type (refusedOrEmpty): only the run-wide oracle reads the body (suites/oracle.ts).
   */
  unknownGroupTypeHtml400: {
    breaks: 'ENV-05',
    description: "a list filtered by a GroupType other than AIGC is refused with Werkzeug's HTML 400 page",
    hooks: {
      authorizeList: refusingOtherGroupTypes(werkzeugBadRequest()),
      wire: stackPages,
    },
  },
  /**
   * PHP with display_errors on (its default in development images) prints a deprecation before the output of every
   * request, under the JSON content type the script set: the envelope follows, intact, after the warning's lines.
   */
  warningBeforeJson: {
    breaks: 'ENV-05',
    description: 'every answer starts with a PHP "Deprecated: ..." line before its JSON, as display_errors=On prints it',
    hooks: {
      encodeResponse: (payload, status) => {
        const { contentType, text } = defaultHooks.encodeResponse(payload, status);
        return { contentType, text: `${PHP_DEPRECATION}${text}` };
      },
    },
  },
  /**
   * nginx in front of a slow upstream: past proxy_read_timeout it answers the client itself, 504 with its own HTML page,
   * and the application's answer never reaches it. Here the third valid create a server gets times out so, before the
   * group is stored; every other request is answered by the reference. The create's own requirement cannot read an Id
   * there: it is blocked by ENV-05, not failed.
   */
  gatewayHtml504OnThirdCreate: {
    breaks: 'ENV-05',
    description: "the third valid create gets nginx's 504 Gateway Time-out page: text/html, no envelope, the group not created",
    hooks: {
      limitCreate: (() => {
        const count = perServer(() => ({ creates: 0 }));
        return (principal, ctx) => {
          const seen = count(ctx);
          seen.creates++;
          return seen.creates === 3 ? nginxErrorPage(504, 'Gateway Time-out') : defaultHooks.limitCreate(principal, ctx);
        };
      })(),
      wire: stackPages,
    },
  },
  /** The search by name as a later handler whose envelope leaves the Region out. */
  nameSearchWithoutRegion: {
    breaks: 'ENV-01',
    description: 'answers to a list filtered by name carry no ResponseMetadata.Region',
    hooks: nameSearchEnvelope(withoutRegion),
  },
});
