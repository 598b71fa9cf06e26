/**
 * The recorded exchanges (tests/checks/record.ts wrote them) and variants built from them. A unit
 * test judges a recording as it is wherever one shows what it needs; where none does, it changes
 * one part of a recorded exchange (withResponse, withJson) rather than inventing an exchange's shape.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jsonAfterPrefix, type Exchange } from '../../client/exchange';

interface Recording {
  session: string;
  mutant: string | null;
  exchanges: Record<string, Exchange>;
  /** When each request was sent and answered, by the recording machine's clock (epoch ms). */
  clock: Record<string, { sentAt: number; answeredAt: number }>;
}

const DIR = path.join(__dirname, 'exchanges');
const loaded = new Map<string, Recording>();

function recording(session: string): Recording {
  const known = loaded.get(session);
  if (known) return known;
  const read = JSON.parse(readFileSync(path.join(DIR, `${session}.json`), 'utf8')) as Recording;
  loaded.set(session, read);
  return read;
}

/** A copy of the exchange `key` of the session `session` (the reference server's, or a mutant's by its name). */
export function recorded(session: string, key: string): Exchange {
  const exchange = recording(session).exchanges[key];
  if (!exchange) throw new Error(`no exchange ${key} in the recording ${session} (keys: ${Object.keys(recording(session).exchanges).join(', ')})`);
  return structuredClone(exchange);
}

/** The reference server's answer `key`. */
export const ref = (key: string): Exchange => recorded('reference', key);

/** A recorded exchange with parts of its response replaced; a new `json` also becomes the body, as the client would have read it. */
export function withResponse(
  exchange: Exchange,
  patch: { status?: number; json?: unknown; body?: string; headers?: Record<string, string | undefined> },
): Exchange {
  const copy = structuredClone(exchange);
  const response = copy.response;
  if (!response) throw new Error('withResponse needs a recorded exchange that has a response');
  if (patch.status !== undefined) response.status = patch.status;
  if ('json' in patch) {
    response.json = patch.json;
    response.body = patch.json === undefined ? '' : JSON.stringify(patch.json);
    delete response.jsonError;
  }
  if (patch.body !== undefined) response.body = patch.body;
  for (const [name, value] of Object.entries(patch.headers ?? {})) {
    if (value === undefined) delete response.headers[name];
    else response.headers[name] = value;
  }
  return copy;
}

/**
 * A recorded exchange answered with the text `body` instead, read as the client reads a body (client/exchange.ts): the
 * parsed JSON where it is JSON, else the parser's complaint and, where a JSON object follows a prefix, its offset.
 */
export function withBodyText(exchange: Exchange, body: string, patch: { status?: number; headers?: Record<string, string | undefined> } = {}): Exchange {
  const copy = withResponse(exchange, { ...patch, body });
  const response = copy.response!;
  delete response.json;
  delete response.jsonError;
  delete response.jsonAfter;
  try {
    response.json = JSON.parse(body);
  } catch (error) {
    response.jsonError = (error as Error).message;
    const at = jsonAfterPrefix(body);
    if (at !== undefined) response.jsonAfter = at;
  }
  return copy;
}

/** What PHP prints before a script's output with display_errors on (the warningBeforeJson mutant's prefix). */
export const PHP_WARNING = '\nDeprecated: Creation of dynamic property is deprecated in /var/www/api.php on line 12\n';

/** nginx's own page when the upstream timed out (proxy_read_timeout), as the gatewayHtml504OnThirdCreate mutant answers a create. */
export const NGINX_504 =
  '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** A recorded exchange with a PHP warning printed before its body, as the client reads it. */
export const afterWarning = (exchange: Exchange): Exchange => withBodyText(exchange, `${PHP_WARNING}${exchange.response!.body}`);

/** A recorded exchange answered instead by nginx's 504 page (text/html), as the client reads it. */
export const gatewayTimeout = (exchange: Exchange): Exchange => withBodyText(exchange, NGINX_504, { status: 504, headers: { 'content-type': 'text/html' } });

/** A recorded exchange whose parsed body `edit` changes in place (the body text follows). */
export function withJson(exchange: Exchange, edit: (json: any) => void): Exchange {
  const json = structuredClone(exchange.response?.json);
  edit(json);
  return withResponse(exchange, { json });
}

/** A recorded exchange with its request's body replaced (what a check reads of what was asked). */
export function withRequestBody(exchange: Exchange, body: unknown): Exchange {
  const copy = structuredClone(exchange);
  copy.request.body = JSON.stringify(body);
  return copy;
}

/** A recorded request that got no HTTP response at all, as the client reports a refused connection. */
export function unanswered(exchange: Exchange): Exchange {
  const { response: _dropped, ...rest } = structuredClone(exchange);
  return { ...rest, networkError: 'connect ECONNREFUSED 127.0.0.1:9' };
}

/** The Ids of a list answer's items, and of a create's Result. */
export const listedIds = (exchange: Exchange): string[] =>
  ((exchange.response?.json as { Result?: { Items?: { Id: string }[] } })?.Result?.Items ?? []).map((item) => item.Id);
export const createdId = (exchange: Exchange): string => (exchange.response?.json as { Result: { Id: string } }).Result.Id;

/** When the request `key` of a session was sent and answered, by the recording machine's clock. */
export function clockOf(session: string, key: string): { sentAt: number; answeredAt: number } {
  const at = recording(session).clock[key];
  if (!at) throw new Error(`no clock for ${key} in the recording ${session}`);
  return at;
}
