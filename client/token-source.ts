/**
 * Where a token comes from when it is not given as is: a command that prints it, or an OAuth 2.0 token endpoint
 * (client credentials, RFC 6749 §4.4). Staging tokens expire; each fetch says when, so that the run renews a token
 * before a target refuses it (client/token-broker.ts). Every token is registered for redaction (client/redact.ts)
 * before it is handed to anyone, and every error names the variable to fix, never a token or a client secret.
 */
import { execFile } from 'node:child_process';
import { send } from './exchange';
import { redactText, registerSecret, secretPattern, secretsFromEnv } from './redact';
import { oneLine } from './safe-text';

export type TokenSource =
  | { kind: 'command'; /** e.g. AG_TOKEN_COMMAND */ variable: string; argv: string[] }
  | {
      kind: 'clientCredentials';
      /** e.g. AG_TOKEN_CLIENT_ID: what an error names. */
      variable: string;
      url: string;
      clientId: string;
      /** The variable holding the client secret: read when fetching, so that the secret is never part of a configuration object. */
      secretVariable: string;
      scope?: string;
      audience?: string;
      /** RFC 6749 §2.3.1: HTTP Basic, which every server must take, or the secret in the form body. */
      clientAuth: 'basic' | 'post';
    };

/** A token as fetched: when it expires, if its source says (expires_in, or a JWT's exp). */
export interface Fetched {
  token: string;
  obtainedAt: number;
  expiresAt?: number;
}

/** A token could not be fetched: a configuration error of the run, its message safe to print. */
export class TokenSourceError extends Error {}

/** Output of a token command beyond this is not a token. */
const MAX_COMMAND_OUTPUT = 64 * 1024;

/** Characters a shell would act on: without a shell they would reach the program as words, which is never what was meant. */
const SHELL_OPERATORS = /[|&;<>()$`*?]/;

/**
 * A command line split into words without a shell: a JSON array of strings as is; otherwise words separated by
 * whitespace, where '…' keeps everything, "…" keeps everything but \" and \\, and \ outside quotes keeps the next
 * character. Nothing is expanded; an unquoted shell operator is refused.
 */
export function parseCommand(text: string, variable: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let words: unknown;
    try {
      words = JSON.parse(trimmed);
    } catch {
      throw new TokenSourceError(`${variable} starts with [ but is not a JSON array of strings`);
    }
    if (!Array.isArray(words) || !words.length || !words.every((w) => typeof w === 'string') || !words[0])
      throw new TokenSourceError(`${variable} must be a non-empty JSON array of strings, the program first`);
    return words as string[];
  }
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      const end = c === "'" ? trimmed.indexOf("'", i + 1) : closingDoubleQuote(trimmed, i + 1);
      if (end < 0) throw new TokenSourceError(`${variable} has an unclosed ${c}`);
      const inside = trimmed.slice(i + 1, end);
      word = (word ?? '') + (c === "'" ? inside : inside.replace(/\\(["\\])/g, '$1'));
      i = end;
    } else if (c === '\\' && i + 1 < trimmed.length) {
      word = (word ?? '') + trimmed[++i];
    } else if (SHELL_OPERATORS.test(c)) {
      throw new TokenSourceError(
        `${variable} is run without a shell, so ${JSON.stringify(c)} would reach the program as is: quote it, or put the pipeline in a script and name the script`,
      );
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  if (!words.length || !words[0]) throw new TokenSourceError(`${variable} is empty`);
  return words;
}

function closingDoubleQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** A JWT's `exp`, read without verifying anything: only to know when to ask for another. */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * When to ask for the next token: 30 s before it expires; a token that lives less than 150 s at 80 % of its life, yet
 * never later than 1 s before it expires (or half its life, if shorter), the time a request takes on a busy machine to
 * reach the target. Never, if it does not say when it expires: then only a 401 renews it.
 */
export function refreshAtOf(fetched: Fetched): number {
  if (fetched.expiresAt === undefined) return Infinity;
  const life = Math.max(0, fetched.expiresAt - fetched.obtainedAt);
  return fetched.expiresAt - Math.min(30_000, Math.max(life * 0.2, Math.min(1_000, life / 2)));
}

/** Text a source gave back, made safe for an error message: one line, bounded, every known secret and `also` blotted out. */
function safe(text: string, also: string[] = []): string {
  const pattern = secretPattern([...secretsFromEnv(), ...also.filter((s) => s.trim().length >= 4)].sort((a, b) => b.length - a.length));
  return oneLine(redactText(text, pattern), 200);
}

/** An OAuth token response, or a command's output in that shape: the token and its lifetime. */
function tokenResponse(json: unknown, obtainedAt: number, where: string): Fetched {
  const body = json as { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
  if (typeof body?.access_token !== 'string' || !body.access_token.trim()) throw new TokenSourceError(`${where} gave no access_token`);
  if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
    throw new TokenSourceError(`${where} gave a token of type ${safe(body.token_type, [body.access_token])}, not Bearer`);
  const token = body.access_token.trim();
  registerSecret(token);
  const seconds = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
  const expiresAt = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? obtainedAt + seconds * 1000 : jwtExpiry(token);
  return { token, obtainedAt, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/**
 * Runs a token command (no shell) and takes what it prints, trimmed: one token, or an OAuth token response as JSON.
 * A non-zero exit, a timeout or an unusable output is a TokenSourceError naming the variable.
 */
export function runTokenCommand(source: Extract<TokenSource, { kind: 'command' }>, role: string, timeoutMs: number): Promise<Fetched> {
  const where = `${source.variable} (the ${role} token)`;
  const obtainedAt = Date.now();
  return new Promise((resolve, reject) => {
    const [program, ...args] = source.argv;
    execFile(
      program,
      args,
      { shell: false, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: MAX_COMMAND_OUTPUT, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const output = String(stdout ?? '').trim();
        // Whatever it printed may be a token, even when it failed: blotted out of anything said about it.
        if (output) registerSecret(output);
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        if (failure) {
          const why =
            failure.code === 'ENOENT'
              ? `the program ${JSON.stringify(safe(program))} was not found`
              : failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
                ? `it printed more than ${MAX_COMMAND_OUTPUT} bytes`
                : failure.killed
                  ? `it did not finish within ${timeoutMs} ms`
                  : `it exited with status ${failure.code ?? 'unknown'}`;
          const said = String(stderr ?? '')
            .trim()
            .split('\n')
            .pop();
          return reject(new TokenSourceError(`${where}: ${why}${said ? `; it said: ${safe(said, [output])}` : ''}`));
        }
        if (!output) return reject(new TokenSourceError(`${where}: it printed no token`));
        if (output.startsWith('{')) {
          try {
            return resolve(tokenResponse(JSON.parse(output), obtainedAt, where));
          } catch (parse) {
            if (parse instanceof TokenSourceError) return reject(parse);
            return reject(new TokenSourceError(`${where}: it printed text starting with { that is not JSON`));
          }
        }
        if (/\s/.test(output)) return reject(new TokenSourceError(`${where}: it printed more than one word; a token is one (its output is not shown)`));
        const expiresAt = jwtExpiry(output);
        resolve({ token: output, obtainedAt, ...(expiresAt !== undefined ? { expiresAt } : {}) });
      },
    );
  });
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they are joined for Basic. */
const formEncode = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

/**
 * Asks a token endpoint for a token with the client credentials grant, through the kit's bounded client (a deadline on
 * the whole exchange, a bound on the answer). An error says the status and the endpoint's `error` and
 * `error_description` (RFC 6749 §5.2), redacted; never its body otherwise.
 */
export async function fetchClientCredentials(
  source: Extract<TokenSource, { kind: 'clientCredentials' }>,
  role: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Fetched> {
  const where = `the token endpoint of ${source.variable} (the ${role} token)`;
  const secret = env[source.secretVariable] ?? '';
  if (!secret.trim()) throw new TokenSourceError(`${source.secretVariable} is required with ${source.variable}`);
  registerSecret(secret);
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (source.scope) form.set('scope', source.scope);
  if (source.audience) form.set('audience', source.audience);
  if (source.clientAuth === 'post') {
    form.set('client_id', source.clientId);
    form.set('client_secret', secret);
  }
  const url = new URL(source.url);
  const obtainedAt = Date.now();
  const exchange = await send(url.origin, {
    action: null,
    version: null,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    contentType: 'application/x-www-form-urlencoded',
    body: form.toString(),
    authorization: source.clientAuth === 'basic' ? `Basic ${Buffer.from(`${formEncode(source.clientId)}:${formEncode(secret)}`).toString('base64')}` : null,
    authorizationShown: 'Basic <client credentials>',
    timeoutMs,
    isolated: true,
  });
  if (!exchange.response) throw new TokenSourceError(`${where}: no answer from ${safe(source.url)}: ${safe(exchange.networkError ?? 'unknown error')}`);
  const { status, json, headers } = exchange.response;
  if (status < 200 || status > 299) {
    const body = json as { error?: unknown; error_description?: unknown } | undefined;
    const said = [body?.error, body?.error_description].filter((part): part is string => typeof part === 'string').join(': ');
    throw new TokenSourceError(
      `${where}: HTTP ${status} from ${safe(source.url)}${said ? `: ${safe(said)}` : ` (${safe(headers['content-type'] ?? 'no Content-Type')}; its body is not shown)`}`,
    );
  }
  if (json === undefined) throw new TokenSourceError(`${where}: HTTP ${status}, but its answer is not JSON (not shown)`);
  return tokenResponse(json, obtainedAt, where);
}

/** A token from its source. */
export function fetchToken(source: TokenSource, role: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Fetched> {
  return source.kind === 'command' ? runTokenCommand(source, role, Math.max(timeoutMs, 30_000)) : fetchClientCredentials(source, role, timeoutMs, env);
}
