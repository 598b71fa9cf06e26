/** What a test asks the Api for: the options of a call, a body sent as is, and a read of groups by Id with its query. */
import { TOKEN_VARIABLES, type KitConfig, type TokenRole } from '../config';
import { USER_AGENT, type SendOptions } from '../client/exchange';
import { ReadCache } from '../client/read-cache';
import { filterPointer, readPointer, type Profile } from '../schemas/profile';
import { idsAsked, type OperationId } from './checks';
import type { Exchange } from '../client/exchange';
import type { ListQuery } from './list-body';
import { SPEC_PATH, SPEC_VERSION } from '../schemas/spec';
import { currentToken } from '../config/tokens';

/** The Version every request of the kit sends. */
export const VERSION = SPEC_VERSION;

/** A body to send as is (malformed JSON, odd encodings) rather than JSON-encoded. */
export class RawBody {
  constructor(readonly text: string) {}
}

export interface CallOptions {
  /** Which configured token to send as `Bearer <token>`; null sends no Authorization header. */
  as?: TokenRole | null;
  /** Sends this exact Authorization header; `shown` is what evidence records instead of it. */
  authorization?: { value: string; shown: string };
  version?: string | null;
  contentType?: string | null;
  /** undefined: the kit's User-Agent (exchange.ts USER_AGENT); null: no User-Agent header at all. */
  userAgent?: string | null;
  /** Cookies to send (`name=value` pairs): only AUTH-01's replay of what the target set. The kit has no cookie jar. */
  cookies?: string[];
  /** Sent even when the same settled read was answered before (see shareSettledReads): what VIS-02 asks is whether a later read still shows it. */
  fresh?: boolean;
  /**
   * A shared request asked again on purpose (VIS-02's reads in a row): each round is a request of its own, not the
   * answer to the same one. Part of what tells shared requests apart, never sent.
   */
  round?: number;
  /**
   * The same request, whatever it is answered, is sent by another test too (an unknown Action: VER-04
   * and INPUT-05): sent once per run, each test judging the one answer for what it asks. Requests are
   * told apart by what evidence shows of their Authorization header (`shown`), never by its value.
   */
  shared?: boolean;
}

/** One answer of a list by Ids, with the query it answers (Api.listByIds). */
export interface Read {
  query: ListQuery;
  exchange: Exchange;
}

/** What tells requests apart for sharing (client/read-cache.ts): the Authorization header as evidence shows it, never its value. */
export function requestKey(action: OperationId | string | null, body: unknown, options: CallOptions): string {
  const role = options.as === undefined ? 'primary' : options.as;
  const agent = options.userAgent === undefined ? 'kit' : options.userAgent;
  const text = body instanceof RawBody ? body.text : JSON.stringify(body);
  // The Authorization header as evidence shows it, never its value: even a hash of a token stays out of the run's folder.
  return ReadCache.key([
    role,
    options.authorization?.shown ?? null,
    agent,
    action,
    options.version ?? VERSION,
    text,
    ...(options.round ? [options.round] : []),
  ]);
}

/** Whether a list body asks only for groups some token was shown before (`listedBefore`): a read whose right answer is settled. */
export function settledRead(
  profile: Profile,
  listedBefore: (id: string) => boolean,
  /** Name parts only the run's groups carry (dataset-queries.ts runNameParts), with the groups that carry each. */
  runNames: ReadonlyMap<string, readonly string[]> = new Map(),
): (body: unknown) => boolean {
  const idsAt = filterPointer(profile.list, profile.list.filters.groupIds);
  const nameAt = filterPointer(profile.list, profile.list.filters.name);
  return (body) => {
    const ids = idsAsked(profile.list, body);
    if (ids) return ids.length > 0 && ids.every((id) => typeof id === 'string' && listedBefore(id));
    // A page of the run's groups by a Name part only they carry (a one-Id filter's walks): settled once every one was listed.
    const name = readPointer(body, nameAt);
    const carriers = typeof name === 'string' ? runNames.get(name) : undefined;
    return readPointer(body, idsAt) === undefined && !!carriers?.length && carriers.every(listedBefore);
  };
}

/**
 * The call that sends an exchange's request again, where it is a plain list read of a configured token (Api.again);
 * undefined for anything else.
 */
/** The configured token a request was sent with, as evidence shows it (`Bearer <AG_TOKEN>`); null for none, or a crafted header. */
export function roleOf(exchange: Exchange): TokenRole | null {
  const shown = exchange.request.headers.authorization;
  return (Object.keys(TOKEN_VARIABLES) as TokenRole[]).find((r) => shown === `Bearer <${TOKEN_VARIABLES[r]}>`) ?? null;
}

export function plainReadOf(exchange: Exchange): { body: RawBody; options: CallOptions } | undefined {
  const { action, version, headers, body, method, url } = exchange.request;
  const role = roleOf(exchange);
  const plain =
    method === 'POST' &&
    new URL(url).pathname.endsWith(SPEC_PATH) &&
    headers.cookie === undefined &&
    headers['user-agent'] === USER_AGENT &&
    headers['content-type'] === 'application/json';
  if (action !== 'ListAssetGroups' || version !== VERSION || !role || !plain) return undefined;
  return { body: new RawBody(body), options: { as: role, fresh: true } };
}

/** The Service and Region an answer's envelope names, if it names a Service. */
export function identityOf(exchange: Exchange): { Service: string; Region: unknown } | undefined {
  const meta = (exchange.response?.json as { ResponseMetadata?: { Service?: unknown; Region?: unknown } } | undefined)?.ResponseMetadata;
  return typeof meta?.Service === 'string' ? { Service: meta.Service, Region: meta.Region } : undefined;
}

/** The plain list that tells whether the target still answers (client/liveness.ts). */
export function livenessRequest(config: KitConfig): SendOptions {
  return {
    action: 'ListAssetGroups',
    version: VERSION,
    body: '{}',
    authorization: `Bearer ${currentToken(config, 'primary') ?? config.tokens.primary}`,
    authorizationShown: 'Bearer <AG_TOKEN>',
    timeoutMs: config.requestTimeoutMs,
  };
}
