/** AUTH: the Authorization header, its scheme and its token. */
import { ApiError, defaultHooks, type HookContext, type Principal } from '../behaviour';
import { randomUUID } from 'node:crypto';
import { family, onRefusedBearer } from './helpers';

/** The first unbound token of the directory (the primary user's): the "default user" of lax servers. */
function primaryPrincipal(ctx: HookContext): Principal {
  const first = [...ctx.tokens.values()].find((p) => p.channel === null);
  if (!first) throw new Error('no unbound token configured');
  return first;
}

/** The token after "Bearer ", looked up after `normalise`: each mutant forgives one kind of near miss (AUTH-06). */
function authenticateNormalising(normalise: (token: string, known: string) => boolean) {
  return (authorization: string | undefined, ctx: HookContext): Principal | ApiError => {
    const result = defaultHooks.authenticate(authorization, ctx);
    if (!(result instanceof ApiError) || authorization === undefined || !/^bearer ./i.test(authorization)) return result;
    const sent = authorization.slice(7);
    const match = [...ctx.tokens.entries()].find(([known]) => normalise(sent, known));
    return match ? match[1] : result;
  };
}

/** Sessions handed out by `cookieAuthAccepted`, per server process: session id -> nothing, only that it was issued. */
const guestSessions = new Set<string>();
const SESSION_COOKIE = 'ref_session';

function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  const text = Array.isArray(header) ? header.join('; ') : (header ?? '');
  return text
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];
}

export const AUTH = family({
  /** A missing header is treated as a malformed request (400) rather than an authentication failure. */
  missingAuthorizationIs400: {
    breaks: 'AUTH-01',
    description: 'a request without Authorization gets 400 AssetBadRequest instead of 401',
    hooks: {
      authenticate: (authorization, ctx) => {
        if (authorization === undefined) return new ApiError(400, 'AssetBadRequest', 'Authorization header is required');
        return defaultHooks.authenticate(authorization, ctx);
      },
    },
  },
  /** `Bearer ` with nothing after it falls through to the default user. (Node's parser trims the trailing space.) */
  emptyBearerAccepted: {
    breaks: 'AUTH-02',
    description: '"Bearer " with no token is served as the default user',
    hooks: {
      authenticate: (authorization, ctx) =>
        authorization?.trim().toLowerCase() === 'bearer' ? primaryPrincipal(ctx) : defaultHooks.authenticate(authorization, ctx),
    },
  },
  /** Takes the last word of the header as the token, whatever the scheme (or none). */
  anySchemeAccepted: {
    breaks: 'AUTH-03',
    description: "the token is the header's last word, whatever the scheme (Basic, Token, none)",
    hooks: {
      authenticate: (authorization, ctx) => {
        if (authorization === undefined) return defaultHooks.authenticate(authorization, ctx);
        const token = authorization.split(' ').pop() ?? '';
        return ctx.tokens.get(token) ?? defaultHooks.authenticate(authorization, ctx);
      },
    },
  },
  /** Any well-formed bearer token is accepted as the default user: the signature is never verified. */
  unknownTokenAccepted: {
    breaks: 'AUTH-04',
    description: 'any well-formed Bearer token is accepted as the default user',
    hooks: { authenticate: onRefusedBearer((_refused, ctx) => primaryPrincipal(ctx)) },
  },
  /**
   * 401 and 403 confused: a header that is there but does not authenticate is answered 403 Forbidden, as
   * if the caller were known and denied (a C server built blind from the spec, changed to do this, failed AUTH-02,
   * AUTH-03 and AUTH-04 for it). One deviation: AUTH-04's, seen again by every test that sends a bad token.
   */
  badTokenIs403: {
    breaks: 'AUTH-04',
    description: 'any Authorization header that does not authenticate gets 403 AssetError instead of 401',
    hooks: {
      authenticate: (authorization, ctx) => {
        const result = defaultHooks.authenticate(authorization, ctx);
        return result instanceof ApiError && authorization !== undefined ? new ApiError(403, 'AssetError', 'access denied') : result;
      },
    },
  },
  tokenCaseInsensitive: {
    breaks: 'AUTH-06',
    description: 'tokens are compared without regard to case',
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.toLowerCase() === known.toLowerCase()) },
  },
  tokenTruncationAccepted: {
    breaks: 'AUTH-06',
    description: 'a token missing its last characters is accepted (prefix comparison)',
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.length >= 8 && known.startsWith(sent)) },
  },
  tokenExtensionAccepted: {
    breaks: 'AUTH-06',
    description: 'a token with characters appended is accepted (only the issued length is compared)',
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.startsWith(known)) },
  },
  tokenSuffixAccepted: {
    breaks: 'AUTH-06',
    description: "any value ending in a valid token is accepted, another user's token with one appended included",
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.endsWith(known)) },
  },
  tokenWhitespaceStripped: {
    breaks: 'AUTH-06',
    description: 'whitespace inside the token is removed before the lookup',
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.replace(/\s+/g, '') === known) },
  },
  tokenFirstWordOnly: {
    breaks: 'AUTH-06',
    description: 'only the first word after Bearer is read as the token',
    hooks: { authenticate: authenticateNormalising((sent, known) => sent.split(' ')[0] === known && sent.includes(' ')) },
  },
  /** A list with an empty body is taken as an anonymous call and refused 401, though the token is valid. */
  emptyListBodyUnauthenticated: {
    breaks: 'AUTH-05',
    description: 'a list with body {} is refused 401 as anonymous, though the token is valid',
    hooks: {
      validateList: (body, ctx) => {
        if (Object.keys(body).length === 0) return new ApiError(401, 'TokenAuthError', 'no credentials in the request');
        return defaultHooks.validateList(body, ctx);
      },
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
  /**
   * Every refusal sets a session cookie, and a request carrying an issued one is served as the
   * default user without any token: a login session leaking into the API. Only a client that
   * replays cookies notices.
   */
  cookieAuthAccepted: {
    breaks: 'AUTH-01',
    description: 'a refused request gets a session cookie, and a request with that cookie and no token is served as the default user',
    hooks: {
      authenticate: (authorization, ctx, headers) => {
        const session = cookieValue(headers?.cookie, SESSION_COOKIE);
        if (authorization === undefined && session && guestSessions.has(session)) return primaryPrincipal(ctx);
        const result = defaultHooks.authenticate(authorization, ctx);
        if (!(result instanceof ApiError)) return result;
        const id = randomUUID();
        guestSessions.add(id);
        return new ApiError(result.status, result.code, result.message, { ...result.headers, 'Set-Cookie': `${SESSION_COOKIE}=${id}; Path=/; HttpOnly` });
      },
    },
  },
  /** Clients that send no User-Agent (health checks, scripts) are let in as the default user, whatever their Authorization. */
  authWaivedWithoutUserAgent: {
    breaks: 'AUTH-01',
    description: 'a request without a User-Agent header is served as the default user, with no token or a wrong one',
    hooks: {
      authenticate: (authorization, ctx, headers) =>
        headers && headers['user-agent'] === undefined ? primaryPrincipal(ctx) : defaultHooks.authenticate(authorization, ctx),
    },
  },
});
