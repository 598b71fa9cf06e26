/**
 * A recorded request as a command a server developer can paste into bash: the same method, URL,
 * headers and body bytes, with every token taken from the environment by its variable (AG_TOKEN,
 * AG_TOKEN_OTHER_USER, AG_TOKEN_CHANNEL_A, AG_TOKEN_CHANNEL_B), never a value. Evidence stores the
 * Authorization header as a description of its form ("Bearer <AG_TOKEN>", "Bearer <AG_TOKEN without
 * its last character>"); `authorizationForm` reads that description once, for the curl line and for
 * `agc replay`, which must send the very same header.
 */
import { flipCase } from './redact';

/** The variables the kit reads the tokens from; evidence names a token only by one of them. */
export const TOKEN_VARIABLE_NAMES = ['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B'] as const;

/**
 * A token the target never issued. The run's own one (suites/plans/auth.ts) is derived from its run id; any
 * other never-issued token reproduces the same refusal.
 */
export const NEVER_ISSUED = 'agc-never-issued-token';

type Piece = { literal: string } | { bash: string; value: (env: NodeJS.ProcessEnv) => string | undefined };

const variable = (name: string): Piece => ({ bash: `\${${name}}`, value: (env) => env[name] });
const fromToken = (bash: string, derive: (token: string) => string): Piece => ({
  bash,
  value: (env) => (env.AG_TOKEN ? derive(env.AG_TOKEN) : undefined),
});

/** What each `<…>` of a described Authorization header stands for, in bash and as a value (suites/plans/auth.ts writes them). */
const PLACEHOLDERS: Record<string, Piece> = {
  ...Object.fromEntries(TOKEN_VARIABLE_NAMES.map((name) => [name, variable(name)])),
  'AG_TOKEN without its last character': fromToken('${AG_TOKEN%?}', (t) => t.slice(0, -1)),
  // `~~` flips the case of every letter (bash 4 and later), as flipCase does.
  "AG_TOKEN with its letters' case flipped": fromToken('${AG_TOKEN~~}', flipCase),
  'AG_TOKEN with its last character changed': fromToken(
    '${AG_TOKEN%?}$([ "${AG_TOKEN: -1}" = x ] && echo y || echo x)',
    (t) => `${t.slice(0, -1)}${t.at(-1) === 'x' ? 'y' : 'x'}`,
  ),
  'AG_TOKEN with a space in the middle': fromToken('${AG_TOKEN:0:${#AG_TOKEN}/2} ${AG_TOKEN:${#AG_TOKEN}/2}', (t) => {
    const middle = Math.floor(t.length / 2);
    return `${t.slice(0, middle)} ${t.slice(middle)}`;
  }),
  'a random token the target never issued': { literal: NEVER_ISSUED },
};

/**
 * The pieces of a described Authorization header, or undefined where the description names something
 * the kit cannot rebuild (a cookie the target set, a form it does not know).
 */
export function authorizationForm(shown: string): Piece[] | undefined {
  if (/^"/.test(shown)) {
    // A value with no token in it, shown as a JSON string ("Bearer ").
    try {
      const literal = JSON.parse(shown);
      return typeof literal === 'string' ? [{ literal }] : undefined;
    } catch {
      return undefined;
    }
  }
  const text = shown.replace(/^(<AG_TOKEN>) with no scheme$/, '$1');
  const pieces: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(/<([^<>]*)>/g)) {
    const piece = PLACEHOLDERS[m[1]];
    if (!piece) return undefined;
    if (m.index! > at) pieces.push({ literal: text.slice(at, m.index) });
    pieces.push(piece);
    at = m.index! + m[0].length;
  }
  if (at < text.length) pieces.push({ literal: text.slice(at) });
  return pieces;
}

/** The Authorization header's value, from the tokens of `env`; undefined when a token it needs is not set. */
export function authorizationValue(shown: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const pieces = authorizationForm(shown);
  if (!pieces) return undefined;
  let out = '';
  for (const piece of pieces) {
    const value = 'literal' in piece ? piece.literal : piece.value(env);
    if (value === undefined || value === '') return undefined;
    out += value;
  }
  return out;
}

/** The variables a described Authorization header reads. */
export function variablesOf(shown: string): string[] {
  return [...new Set([...shown.matchAll(/<(AG_TOKEN(?:_OTHER_USER|_CHANNEL_A|_CHANNEL_B)?)\b/g)].map((m) => m[1]))];
}

const PLAIN = /^[\x20-\x7e]*$/;

/**
 * One bash word that is exactly `text` as UTF-8: single quotes where they suffice, ANSI-C `$'…'` quoting with
 * `\xHH` bytes otherwise. A NUL cannot be in an argument at all: such text goes through `printfWord`.
 */
export function shellWord(text: string): string {
  if (PLAIN.test(text) && !text.includes("'")) return `'${text}'`;
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x27) out += "\\'";
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `$'${out}'`;
}

/** A `printf '%b'` argument that writes exactly these bytes (NUL included): every byte but plain ASCII as `\0ooo`. */
export function printfWord(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    if (byte >= 0x20 && byte < 0x7f && byte !== 0x5c && byte !== 0x27) out += String.fromCharCode(byte);
    else out += `\\0${byte.toString(8).padStart(3, '0')}`;
  }
  return `'${out}'`;
}

/** A header as a double-quoted bash word, its tokens expanded from their variables; undefined if it cannot be written. */
function headerWord(name: string, pieces: Piece[]): string {
  let out = `${name}: `;
  for (const [i, piece] of pieces.entries()) {
    if ('bash' in piece) {
      const next = pieces[i + 1];
      // `$AG_TOKEN` reads as the brief form where no name character follows it.
      const bare = /^\$\{(\w+)\}$/.exec(piece.bash);
      out += bare && !(next && 'literal' in next && /^\w/.test(next.literal)) ? `$${bare[1]}` : piece.bash;
    } else out += [...piece.literal].map((c) => (c === '!' ? `"'!'"` : /["$`\\]/.test(c) ? `\\${c}` : PLAIN.test(c) ? c : `"${shellWord(c)}"`)).join('');
  }
  return `"${out}"`;
}

/** What a curl line needs of a recorded request (exchange.ts `Exchange.request`, as evidence keeps it). */
export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Curl {
  /** The command, one line for bash. */
  command: string;
  /** Set when the command does not send exactly what the kit sent, saying what differs. */
  note?: string;
}

/** Header names curl writes unless told not to, and how the kit's request is told apart. */
const CURL_DEFAULTS = ['content-type', 'user-agent', 'accept'];
const NAMES: Record<string, string> = {
  'content-type': 'Content-Type',
  'user-agent': 'User-Agent',
  accept: 'Accept',
  authorization: 'Authorization',
  cookie: 'Cookie',
};
const headerName = (name: string) => NAMES[name] ?? name;

/**
 * The curl command that sends `request` again: `-sS`, the method, the URL, each header as sent (the
 * defaults curl adds and the kit did not send removed with `-H 'Name:'`; Content-Length left to curl, which
 * counts the same bytes), the Authorization header from the token variables, and the body's exact bytes.
 * A body that a shell or curl would change (NUL, other control characters, non-ASCII, quotes, a leading
 * `@`) is written by `printf '%b'` to curl's standard input.
 */
export function curlOf(request: CurlRequest): Curl {
  const notes: string[] = [];
  const args = ['curl', '-sS', '-X', /^[A-Z]+$/.test(request.method) ? request.method : shellWord(request.method), shellWord(request.url)];
  const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-length' || name === 'host') continue;
    if (name === 'authorization') {
      const pieces = authorizationForm(value);
      if (pieces) args.push('-H', headerWord('Authorization', pieces));
      else notes.push(`the Authorization header (${value}) cannot be rebuilt from the token variables: add it yourself`);
      continue;
    }
    if (name === 'cookie') {
      notes.push(`the Cookie header (${value}) held cookies the target set during the run: not sent`);
      continue;
    }
    // `Name;` sends a header with an empty value; `Name: ` would remove it.
    args.push('-H', shellWord(value === '' ? `${headerName(name)};` : `${headerName(name)}: ${value}`));
  }
  for (const name of CURL_DEFAULTS) if (!(name in headers)) args.push('-H', shellWord(`${headerName(name)}:`));
  const bytes = Buffer.from(request.body ?? '', 'utf8');
  const body = request.body ?? '';
  if (PLAIN.test(body) && !body.includes("'") && !body.startsWith('@')) {
    args.push('--data-binary', shellWord(body));
    return { command: args.join(' '), ...(notes.length ? { note: notes.join('; ') } : {}) };
  }
  args.push('--data-binary', '@-');
  return { command: `printf '%b' ${printfWord(bytes)} | ${args.join(' ')}`, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * The command with the run's base URL replaced by `"${AG_BASE_URL%/}"`: the embedded reference server's
 * port was the run's own, so whoever pastes the line names the server they started.
 */
export function rebased(command: string, url: string, baseURL: string): string {
  const base = baseURL.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/`)) return command;
  const word = shellWord(url);
  return command.includes(` ${word}`) ? command.replace(` ${word}`, ` "\${AG_BASE_URL%/}"${shellWord(url.slice(base.length))}`) : command;
}
