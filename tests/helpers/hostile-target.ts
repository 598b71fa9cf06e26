/**
 * A hostile target: a small node:http proxy on 127.0.0.1 in front of the reference server,
 * rewriting its answers (or the requests it forwards) in one of the ways a server the kit must not
 * trust could. Used by tests/hostile.test.ts; each mode is one attack of issue 19.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { referenceUsers, TOKEN_ROLES } from '../../reference/config';
import { startReferenceServer } from '../../reference/server';

export type HostileMode = 'echo' | 'deep' | 'huge' | 'cookie' | 'noUserAgent' | 'commands';

export interface HostileTarget {
  url: string;
  /** The tokens the target accepts, by the kit's variable (AG_TOKEN, …). Distinct per target. */
  tokenEnv: Record<string, string>;
  /** What the kit sent, as the proxy saw it. */
  seen: { requests: number; withCookie: number; withoutUserAgent: number; userAgents: Set<string> };
  close(): Promise<void>;
}

/** How deep `deep` nests its extra member. */
export const DEEP_LEVELS = 20_000;
/** Size of `huge`'s error body: just under the 4 MiB the kit reads, so it is parsed, and kept. */
export const HUGE_BYTES = 4 * 1024 * 1024 - 4096;

/** Text holding workflow commands of GitHub Actions and Azure Pipelines, ANSI escapes and newlines. */
export const COMMANDS =
  '\n::error::pwned-by-target\n::add-mask::kit\n::group::target-group\n##[error]azure-pwned\n##vso[task.setvariable variable=PWNED]1\n\u001b[31mred\u001b[0m\u001b]0;title\u0007\r::warning::after-cr';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
/** Every character as a JSON \uXXXX escape, hex case alternating, so a case-sensitive matcher misses half. */
const unicodeEscaped = (text: string) =>
  [...text].map((c, i) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[i % 2 ? 'toUpperCase' : 'toLowerCase']()}`).join('');
const slashEscaped = (text: string) => text.replace(/\//g, '\\/');

/** Tokens with a slash (so `\/` can be tried) and upper-case letters (so header names lower-case them). */
function hostileTokens(): Record<string, string> {
  return Object.fromEntries(TOKEN_ROLES.map((info) => [info.serverEnv, `Hx/${info.role}/${randomBytes(12).toString('hex')}Q`]));
}

export async function startHostileTarget(mode: HostileMode): Promise<HostileTarget> {
  const serverEnv = hostileTokens();
  const reference = await startReferenceServer({ users: referenceUsers(serverEnv), lagMs: 25, createRate: null, port: 0 });
  const upstream = new URL(reference.url);
  const primary = serverEnv.AG_REF_TOKEN;
  const tokenEnv = Object.fromEntries(TOKEN_ROLES.map((info) => [info.clientEnv, serverEnv[info.serverEnv]]));
  const seen = { requests: 0, withCookie: 0, withoutUserAgent: 0, userAgents: new Set<string>() };
  const sessions = new Set<string>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  // Encoded once: each answer would otherwise build, measure and encode 4 MiB of text again (CPU of the self-test, not of the kit).
  const huge =
    mode === 'huge'
      ? Buffer.from(
          `{"ResponseMetadata":{"RequestId":"hostile","Action":"","Version":"2024-01-01","Service":"media_assets","Region":"ref-local-1","Error":{"Code":"AssetError","Message":"${'x'.repeat(HUGE_BYTES)}"}}}`,
        )
      : undefined;
  const deep = mode === 'deep' ? `${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}` : '';

  const forward = (req: http.IncomingMessage, body: Buffer, headers: http.OutgoingHttpHeaders) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });

  /** Adds members to a JSON object's text as raw text, escapes and all. */
  const withMembers = (text: string, members: string[]) => (text.trimStart().startsWith('{') ? text.replace('{', `{${members.join(',')},`) : text);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    seen.requests++;
    if (req.headers.cookie) seen.withCookie++;
    if (req.headers['user-agent'] === undefined) seen.withoutUserAgent++;
    else seen.userAgents.add(req.headers['user-agent']);
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
    delete headers.connection;
    // The two authentication bypasses: a cookie the target set stands for the token; no User-Agent waives it.
    const session = /(?:^|;\s*)hostile_sid=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (mode === 'cookie' && !req.headers.authorization && session && sessions.has(session)) headers.authorization = `Bearer ${primary}`;
    if (mode === 'noUserAgent' && req.headers['user-agent'] === undefined) headers.authorization = `Bearer ${primary}`;
    const answer = await forward(req, body, headers);
    let text = answer.body;
    let status = answer.status;
    const out: Record<string, string | string[]> = { 'content-type': String(answer.headers['content-type'] ?? 'application/json') };
    const sent = req.headers.authorization ?? '';
    /** An answer already encoded (`huge`), sent instead of `text`. */
    let bytes: Buffer | undefined;
    switch (mode) {
      case 'echo': {
        // The token the kit sent (or the primary one, for anonymous requests), in every form a server could echo it.
        const token = sent.replace(/^\S+ /, '') || primary;
        // Echoed where a check quotes it too (the envelope's Action), so failures carry it into messages and the console.
        try {
          const json = JSON.parse(text);
          if (json?.ResponseMetadata) json.ResponseMetadata.Action = `${json.ResponseMetadata.Action} (token ${token})`;
          text = JSON.stringify(json);
        } catch {
          // not JSON: echoed below as it is
        }
        text = withMembers(text, [
          `"EchoRaw":${JSON.stringify(`invalid token ${token}`)}`,
          `"EchoSlash":"${slashEscaped(token)}"`,
          `"EchoUnicode":"${unicodeEscaped(token)}"`,
          `"EchoUrl":"${encodeURIComponent(token)}"`,
          `"EchoBase64":"${b64(`user:${token}`)}"`,
          `"EchoBase64Url":"${b64url(`xy${token}`)}"`,
          `"EchoAuthorization":${JSON.stringify(sent)}`,
          `"EchoPrimary":"${unicodeEscaped(primary)}"`,
        ]);
        Object.assign(out, {
          'x-echo-raw': token,
          'x-echo-url': encodeURIComponent(token),
          'x-echo-base64': b64(token),
          'x-echo-authorization': sent,
          // A header name holding a token (percent-encoded: a name cannot hold a slash); the kit reads names lower-cased.
          [`x-${encodeURIComponent(serverEnv.AG_REF_TOKEN_OTHER_USER)}`]: 'a header named after a token',
          'www-authenticate': `Bearer error="invalid_token", token="${token}"`,
          'set-cookie': [`echo=${b64(token)}; Path=/`],
        });
        break;
      }
      case 'deep':
        // Where checks look (the envelope's Action), so that failures quote it and carry it as evidence, and beside it.
        text = withMembers(text.replace(/"Action":"[^"]*"/, `"Action":${deep}`), [`"Deep":${deep}`]);
        break;
      case 'huge':
        status = 500;
        bytes = huge;
        break;
      case 'cookie': {
        const id = randomBytes(8).toString('hex');
        sessions.add(id);
        out['set-cookie'] = [`hostile_sid=${id}; Path=/; HttpOnly`];
        break;
      }
      case 'commands': {
        try {
          const json = JSON.parse(text);
          if (json?.ResponseMetadata) {
            json.ResponseMetadata.Action = `${json.ResponseMetadata.Action}${COMMANDS}`;
            if (json.ResponseMetadata.Error) json.ResponseMetadata.Error.Message = COMMANDS;
          }
          json.Note = COMMANDS;
          text = JSON.stringify(json);
        } catch {
          text = COMMANDS;
        }
        Object.assign(out, { 'x-note': '::error::in-a-header', 'x-azure': '##[error]in-a-header ##vso[task.complete result=Failed]' });
        break;
      }
      default:
        break;
    }
    const sending = bytes ?? text;
    out['content-length'] = String(Buffer.byteLength(sending));
    res.writeHead(status, out);
    res.end(sending);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokenEnv,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
      await reference.close();
    },
  };
}
