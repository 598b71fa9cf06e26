/**
 * A tiny identity provider for the token tests (tests/tokens.test.ts): an OAuth 2.0 token endpoint (client credentials,
 * RFC 6749 §4.4) on 127.0.0.1 whose tokens expire after a few seconds, and the reference server's authentication in
 * front of it: a token it issued stands for one of the reference server's roles until it expires or is revoked.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { ApiError, defaultHooks, type ReferenceHooks } from '../../reference/server';
import type { TokenRole } from '../../reference/config';

export interface Issued {
  role: TokenRole;
  expiresAt: number;
  revoked: boolean;
  uses: number;
}

export interface TokenServer {
  url: string;
  /** Every token issued, by its value. */
  issued: Map<string, Issued>;
  /** Requests the reference server refused because their issued token had expired, or had been revoked. */
  expiredUses: number;
  revokedUses: number;
  /** The reference server's authentication: issued tokens as their roles' reference tokens, and an echo of what was sent. */
  hooks: Partial<ReferenceHooks>;
  close(): Promise<void>;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `clients`: client id → its secret (null: a client of the token command, which shows none) and role. `lifeMs`: each
 * token's life. `revokeAfter`: the first token of the primary role is revoked on this use, as an identity provider may
 * revoke a token before it expires. A client's own `lifeMs` overrides the default.
 */
export async function startTokenServer(options: {
  clients: Record<string, { secret: string | null; role: TokenRole; lifeMs?: number }>;
  referenceTokens: Record<TokenRole, string>;
  lifeMs: number;
  revokeAfter?: number;
}): Promise<TokenServer> {
  const issued = new Map<string, Issued>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(json));
      };
      const form = new URLSearchParams(body);
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64')
            .toString('utf8')
            .split(':')
            .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')))
        : [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
      const client = options.clients[id];
      // An identity provider that echoes what it was given: the kit must not pass it on.
      if (!client || (client.secret !== null && client.secret !== secret))
        return answer(401, { error: 'invalid_client', error_description: `client ${id} with secret ${secret} is not known` });
      if (form.get('grant_type') !== 'client_credentials') return answer(400, { error: 'unsupported_grant_type' });
      const lifeMs = client.lifeMs ?? options.lifeMs;
      const expiresAt = Date.now() + lifeMs;
      // JWT-shaped, so that a token command's output says when it expires (exp, in whole seconds: rounded down).
      const token = `${base64url({ alg: 'none' })}.${base64url({ sub: client.role, exp: Math.floor(expiresAt / 1000) })}.${randomBytes(12).toString('hex')}`;
      issued.set(token, { role: client.role, expiresAt: Math.floor(expiresAt / 1000) * 1000, revoked: false, uses: 0 });
      answer(200, { access_token: token, token_type: 'Bearer', expires_in: Math.floor(lifeMs / 1000), scope: form.get('scope') ?? '' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  let firstPrimary: string | undefined;
  const state: TokenServer = {
    url: `http://127.0.0.1:${port}/oauth/token`,
    issued,
    expiredUses: 0,
    revokedUses: 0,
    hooks: {
      authenticate(authorization, ctx) {
        const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
        const held = token ? issued.get(token) : undefined;
        if (!held) return defaultHooks.authenticate(authorization, ctx);
        if (held.role === 'primary') firstPrimary ??= token;
        held.uses++;
        if (token === firstPrimary && options.revokeAfter !== undefined && held.uses >= options.revokeAfter) held.revoked = true;
        if (held.revoked) return (state.revokedUses++, new ApiError(401, 'TokenAuthError', `token revoked: ${authorization}`));
        if (Date.now() >= held.expiresAt) return (state.expiredUses++, new ApiError(401, 'TokenAuthError', `token expired: ${authorization}`));
        return defaultHooks.authenticate(`Bearer ${options.referenceTokens[held.role]}`, ctx);
      },
      // Every answer echoes the caller's Authorization, as is, in base64 and URL-encoded: what the kit keeps of any
      // answer (the run's folder, evidence) must hold none of them.
      wire(answer, request) {
        const sent = request.headers.authorization ?? '';
        const echo = `${sent}; b64=${Buffer.from(sent).toString('base64')}; url=${encodeURIComponent(sent)}`;
        return { ...answer, headers: { ...answer.headers, 'X-Echo-Authorization': echo } };
      },
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return state;
}
