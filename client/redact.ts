import { jsonAfterPrefix, type Exchange } from './exchange';

/**
 * A target may echo a token back ("invalid token abc…"), and not always as it was sent: inside a
 * JSON string with `\/` or `\u0041` escapes, URL-encoded, in base64 (a Basic header, a JWT-ish
 * blob), in a header's name. Evidence must never carry one in any form, so every secret is looked
 * for in each form the kit might write it, and the structured data is redacted before anything
 * keeps or serialises it; the reporters run the same patterns once more over each file they write.
 */
export const REDACTED = '<redacted token>';

/** Derived secrets shorter than this are not looked for: they would blot out ordinary text. */
const MIN_DERIVED = 8;

/** Every letter's case flipped: a near-miss AUTH-06 sends, so a form redaction must know. */
export const flipCase = (token: string) => [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/**
 * The configured tokens and the near misses the AUTH tests send (a near miss is nearly the token):
 * its case flipped, its last character cut, each half. Longest first, so a token is blotted out
 * whole before its prefix could be.
 */
export function secretsOf(tokens: readonly (string | undefined | null)[]): string[] {
  const out = new Set<string>();
  for (const raw of tokens) {
    const token = raw?.trim();
    if (!token || token.length < 4) continue;
    out.add(token);
    if (token.length >= MIN_DERIVED) {
      out.add(flipCase(token));
      out.add(token.slice(0, -1));
      // Header names come back lower-cased.
      out.add(token.toLowerCase());
      const middle = Math.floor(token.length / 2);
      for (const half of [token.slice(0, middle), token.slice(middle)]) if (half.length >= MIN_DERIVED) out.add(half);
    }
  }
  return [...out].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * Secrets this process learnt at run time rather than from its environment: every token fetched from a token command
 * or a token endpoint (client/token-source.ts), registered before any text that could hold it is written.
 */
const registered = new Set<string>();

export function registerSecret(secret: string): void {
  if (secret.trim()) registered.add(secret.trim());
}

/** The run-time secrets, for redactTokens and secretsFromEnv. */
export const registeredSecrets = (): string[] => [...registered];

/**
 * Every configured token of the environment the kit runs in (the target's, or the embedded server's), every client
 * secret of a token endpoint (AG_TOKEN…_CLIENT_SECRET) and the key of the run's token broker, and every token fetched in
 * this process.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const sourceSecrets = Object.keys(env).filter((name) => /^AG_TOKEN\w*_CLIENT_SECRET$/.test(name) || name === 'AG_TOKEN_BROKER_KEY');
  const names = [
    ...sourceSecrets,
    'AG_TOKEN',
    'AG_TOKEN_OTHER_USER',
    'AG_TOKEN_CHANNEL_A',
    'AG_TOKEN_CHANNEL_B',
    'AG_REF_TOKEN',
    'AG_REF_TOKEN_OTHER_USER',
    'AG_REF_TOKEN_CHANNEL_A',
    'AG_REF_TOKEN_CHANNEL_B',
  ];
  return secretsOf([...names.map((n) => env[n]), ...registered]);
}

const escapeRe = (c: string) => c.replace(/[.*+?^${}()|[\]\\\/-]/g, '\\$&');

/**
 * The part of a secret's base64 that does not depend on what surrounds it, at each of the three
 * byte alignments it can have inside a longer encoded value; and the same in base64url.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let k = 0; k < 3; k++) {
    const n = k + bytes.length;
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const start = Math.ceil((k * 8) / 6);
    const end = Math.floor(n / 3) * 4 + (n % 3 === 1 ? 1 : n % 3 === 2 ? 2 : 0);
    const stable = encoded.slice(start, end);
    if (stable.length < MIN_DERIVED) continue;
    forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** What finds the secrets: their raw and base64 forms as literals, searched in the text with its escapes undone. */
export interface Redactor {
  literals: RegExp;
  /** A `+` is read as a space (form encoding) only when a secret has a space. */
  plusIsSpace: boolean;
}

const redactors = new Map<string, Redactor | null>();

/** One matcher for every form of every secret; null when there is no secret to look for. */
export function secretPattern(secrets: readonly string[]): Redactor | null {
  const key = secrets.join('\u0000');
  if (redactors.has(key)) return redactors.get(key)!;
  const literals = new Set<string>();
  for (const secret of secrets) {
    literals.add(secret);
    for (const b64 of base64Forms(secret)) literals.add(b64);
  }
  const sorted = [...literals].sort((a, b) => b.length - a.length);
  const redactor = sorted.length ? { literals: new RegExp(sorted.map(escapeRe).join('|'), 'g'), plusIsSpace: secrets.some((s) => s.includes(' ')) } : null;
  redactors.set(key, redactor);
  return redactor;
}

/**
 * Escapes a writer may have put on any character: a JSON `\uXXXX` (any hex case, behind any number
 * of backslashes, since JSON inside JSON doubles them) or `\/`; percent-encoding; the HTML
 * entities the reports write. Undone before the search, so `\u0041BC` is found as `ABC`.
 */
const ESCAPES = /\\+u([0-9a-fA-F]{4})|\\+\/|%([0-7][0-9a-fA-F])|&(amp|lt|gt|quot|#39|#x27);/g;
const ESCAPES_PLUS = /\\+u([0-9a-fA-F]{4})|\\+\/|%([0-7][0-9a-fA-F])|&(amp|lt|gt|quot|#39|#x27);|\+/g;
const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
/** Whether the text holds any escape to undo (mostly not: JSON's own `\"` and `\n` are none). */
const ANY_ESCAPE = new RegExp(ESCAPES.source);
const ANY_ESCAPE_PLUS = new RegExp(ESCAPES_PLUS.source);

/** The ranges of the original text that hold a secret, merged. */
function secretRanges(text: string, redactor: Redactor): [number, number][] {
  const ranges: [number, number][] = [];
  const { literals } = redactor;
  if (!(redactor.plusIsSpace ? ANY_ESCAPE_PLUS : ANY_ESCAPE).test(text)) {
    literals.lastIndex = 0;
    for (let m = literals.exec(text); m; m = literals.exec(text)) ranges.push([m.index, m.index + m[0].length]);
    return ranges;
  }
  // The text with its escapes undone, in pieces: a run of the original as it stands, or the one character an escape
  // stands for. Where each piece starts in the decoded text and in the original, so that a match maps back (a text of
  // megabytes is mapped piece by piece, not character by character).
  const pieces: string[] = [];
  const starts: number[] = [];
  const origins: number[] = [];
  const decodedPiece: boolean[] = [];
  let length = 0;
  const piece = (value: string, origin: number, decoded: boolean) => {
    pieces.push(value);
    starts.push(length);
    origins.push(origin);
    decodedPiece.push(decoded);
    length += value.length;
  };
  let at = 0;
  const escapes = redactor.plusIsSpace ? ESCAPES_PLUS : ESCAPES;
  escapes.lastIndex = 0;
  for (let m = escapes.exec(text); m; m = escapes.exec(text)) {
    if (m.index > at) piece(text.slice(at, m.index), at, false);
    const decoded = m[1]
      ? String.fromCharCode(parseInt(m[1], 16))
      : m[2]
        ? String.fromCharCode(parseInt(m[2], 16))
        : m[3]
          ? ENTITY[m[3]]
          : m[0] === '+'
            ? ' '
            : '/';
    piece(decoded, m.index, true);
    at = m.index + m[0].length;
  }
  if (text.length > at) piece(text.slice(at), at, false);
  const normal = pieces.join('');
  // Where a character of the decoded text begins in the original; its end is where the next one begins.
  const originOf = (index: number): number => {
    if (index >= length) return text.length;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= index) low = middle;
      else high = middle - 1;
    }
    return decodedPiece[low] ? origins[low] : origins[low] + index - starts[low];
  };
  literals.lastIndex = 0;
  for (let m = literals.exec(normal); m; m = literals.exec(normal)) ranges.push([originOf(m.index), originOf(m.index + m[0].length)]);
  return ranges;
}

/** The text with every form of every secret replaced by `replacement`. */
export function redactText(text: string, redactor: Redactor | null, replacement = REDACTED): string {
  if (!redactor || !text) return text;
  const ranges = secretRanges(text, redactor);
  if (!ranges.length) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(start, at)) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

/** Whether some form of some secret is in the text. */
export function holdsSecret(text: string, redactor: Redactor | null): boolean {
  return !!redactor && !!text && secretRanges(text, redactor).length > 0;
}

/**
 * Redacts every string and every key of a JSON-like value, in place, without recursion: a target's
 * JSON may be nested thousands deep.
 */
export function redactDeep<T>(value: T, pattern: Redactor | null): T {
  if (!pattern) return value;
  if (typeof value === 'string') return redactText(value, pattern) as T;
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        if (typeof node[i] === 'string') node[i] = redactText(node[i], pattern);
        else if (node[i] && typeof node[i] === 'object') stack.push(node[i]);
      }
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      let entry = record[key];
      if (typeof entry === 'string') entry = record[key] = redactText(entry, pattern);
      else if (entry && typeof entry === 'object') stack.push(entry);
      const clean = redactText(key, pattern);
      if (clean !== key) {
        delete record[key];
        record[clean] = entry;
      }
    }
  }
  return value;
}

const redactHeaders = (headers: Record<string, string>, pattern: Redactor) => {
  for (const key of Object.keys(headers)) {
    const value = redactText(headers[key], pattern);
    const name = redactText(key, pattern);
    if (name !== key) delete headers[key];
    headers[name] = value;
  }
};

/**
 * Blots every form of every secret (the tokens and their near misses) out of an exchange, in place:
 * both sides, bodies, parsed JSON, header names and values, error texts.
 */
export function redactTokens(exchange: Exchange, tokens: readonly (string | undefined | null)[]): void {
  const pattern = secretPattern(secretsOf([...tokens, ...registered]));
  if (!pattern) return;
  const { request, response } = exchange;
  request.url = redactText(request.url, pattern);
  request.body = redactText(request.body, pattern);
  redactHeaders(request.headers, pattern);
  if (exchange.networkError) exchange.networkError = redactText(exchange.networkError, pattern);
  if (!response) return;
  const body = response.body;
  response.body = redactText(body, pattern);
  // A secret blotted out of what was printed before the JSON moves where the JSON starts.
  if (response.jsonAfter !== undefined && response.body !== body) response.jsonAfter = jsonAfterPrefix(response.body);
  redactHeaders(response.headers, pattern);
  if (response.jsonError) response.jsonError = redactText(response.jsonError, pattern);
  if (response.cookies) response.cookies = response.cookies.map((c) => redactText(c, pattern));
  if (response.json !== undefined) response.json = redactDeep(response.json, pattern);
}
