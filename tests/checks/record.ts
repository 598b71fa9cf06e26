/**
 * Records the exchanges the checks' unit tests judge: `npx tsx tests/checks/record.ts` starts the
 * reference server, and one at a time the mutants named below, on 127.0.0.1, sends each session's
 * requests through the kit's own client (client/exchange.ts) and writes what came back, tokens
 * redacted, to tests/checks/exchanges/<session>.json. Run it again when the reference server or a
 * mutant below changes what it answers; the unit tests read Ids and values out of the recordings,
 * never a constant of one recording. Session names as arguments record those alone
 * (`npx tsx tests/checks/record.ts phpIso8601Offset`): a new mutant's session, the others left as they were.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { send, type Exchange } from '../../client/exchange';
import { redactTokens } from '../../client/redact';
import { referenceTokens, TOKEN_ROLES, type TokenRole } from '../../reference/config';
import { findMutant } from '../../reference/mutants';
import { startReferenceServer, type ReferenceOptions } from '../../reference/server';
import { SPEC_VERSION } from '../../schemas/spec';
import { NAME_PROBES, PADDED, PAGE_SIZE, SENT } from './sent';

const OUT = path.join(__dirname, 'exchanges');
/** The tokens of this recording (main sets them). */
let TOKENS: Record<TokenRole, string>;

interface Ask {
  action?: string | null;
  version?: string | null;
  body?: unknown;
  /** Sent as is rather than JSON-encoded. */
  raw?: string;
  /** A role's token; null: no Authorization header; a string: that header, shown as "<crafted>". */
  as?: TokenRole | null | string;
}

class Recorder {
  readonly kept: Record<string, Exchange> = {};
  /** When each request was sent and answered, by this machine's clock (epoch ms): what timestampsNearClock compares with. */
  readonly clock: Record<string, { sentAt: number; answeredAt: number }> = {};
  constructor(readonly url: string) {}

  async ask(key: string, ask: Ask): Promise<Exchange> {
    const as = ask.as === undefined ? 'primary' : ask.as;
    const role = as !== null && as in TOKENS ? (as as TokenRole) : undefined;
    const authorization = as === null ? null : role ? `Bearer ${TOKENS[role]}` : as;
    const sentAt = Date.now();
    const exchange = await send(this.url, {
      action: ask.action === undefined ? 'ListAssetGroups' : ask.action,
      version: ask.version === undefined ? SPEC_VERSION : ask.version,
      body: ask.raw ?? JSON.stringify(ask.body ?? {}),
      authorization,
      authorizationShown: role ? `Bearer <${role} token>` : '<crafted>',
      timeoutMs: 5_000,
    });
    this.clock[key] = { sentAt, answeredAt: Date.now() };
    redactTokens(exchange, Object.values(TOKENS));
    // What varies from run to run and no check reads: kept out so that a new recording differs only where an answer did.
    exchange.durationMs = 0;
    delete exchange.request.headers['user-agent'];
    delete exchange.response?.headers.date;
    this.kept[key] = exchange;
    return exchange;
  }

  list(key: string, body: unknown = {}, as: TokenRole | null | string = 'primary') {
    return this.ask(key, { body, as });
  }

  async create(key: string, body: unknown = SENT, as: TokenRole = 'primary'): Promise<string> {
    const ex = await this.ask(key, { action: 'CreateAssetGroup', body, as });
    return (ex.response?.json as { Result?: { Id?: string } } | undefined)?.Result?.Id ?? '';
  }

  /** Three groups of the primary user: alpha (SENT), beta and gamma. */
  async three(): Promise<string[]> {
    return [
      await this.create('create', SENT),
      await this.create('create2', { Name: 'unit beta', GroupType: 'AIGC' }),
      await this.create('create3', { Name: 'unit gamma', GroupType: 'AIGC' }),
    ];
  }
}

const byIds = (ids: string[], paging: Record<string, number> = {}) => ({ Filter: { GroupIds: ids }, ...paging });
const MALFORMED = '{"Name": ';

interface Session {
  /** The mutant's name, whose server answers the session; or a name of the reference server's sessions (REFERENCE). */
  name: string;
  options?: ReferenceOptions;
  run: (r: Recorder) => Promise<void>;
}

/** What the reference server answers: the passing exchange of nearly every check, and the base of hand-made variants. */
async function reference(r: Recorder): Promise<void> {
  const ids = await r.three();
  await r.create('createPadded', PADDED);
  await r.create('createBad', { Name: 42 });
  await r.list('all');
  await r.list('byIds', byIds(ids));
  await r.list('page1', byIds(ids, { PageNumber: 1, PageSize: PAGE_SIZE }));
  await r.list('page2', byIds(ids, { PageNumber: 2, PageSize: PAGE_SIZE }));
  await r.list('pastEnd', byIds(ids, { PageNumber: 3, PageSize: PAGE_SIZE }));
  await r.list('pageSize0', byIds(ids, { PageSize: 0 }));
  await r.list('pageSizeAboveMax', byIds(ids, { PageSize: 101 }));
  await r.list('noSuchSpace', { Filter: { AssetSpaceId: 'no-such-space' } });
  await r.list('byType', { Filter: { GroupType: 'AIGC' } });
  await r.list('wildcard', { Filter: { Name: '%' } });
  for (const [key, name] of Object.entries(NAME_PROBES)) await r.list(`name.${key}`, { Filter: { Name: name } });
  await r.list('otherUser', byIds(ids), 'otherUser');
  await r.list('otherUserAll', {}, 'otherUser');
  await r.list('noToken', {}, null);
  await r.list('unknownToken', {}, 'Bearer not-a-token-the-server-issued');
  await r.ask('malformed', { raw: MALFORMED });
  await r.ask('unknownAction', { action: 'NoSuchAction' });
  await r.ask('otherVersion', { version: '1999-01-01' });
}

const plainList = async (r: Recorder) => void (await r.list('all'));
const noToken = async (r: Recorder) => void (await r.list('noToken', {}, null));

/** What a token bound to channel A answers, of a group created through channel B: its list, and a read of it by Id. */
async function channels(r: Recorder): Promise<void> {
  await r.create('createA', SENT, 'channelA');
  const b = await r.create('createB', { Name: 'unit channel b', GroupType: 'AIGC' }, 'channelB');
  await r.list('channelAll', {}, 'channelA');
  await r.list('channelById', byIds([b]), 'channelA');
}

/** The sessions the reference server answers; every other session is named after the mutant that answers it. */
const REFERENCE = ['reference', 'rateLimited', 'channels'];

const SESSIONS: Session[] = [
  { name: 'reference', options: { createRate: null }, run: reference },
  { name: 'channels', run: channels },
  { name: 'channelIgnored', run: channels },
  { name: 'totalCountIgnoresChannel', run: channels },
  { name: 'rateLimited', options: { createRate: { perSecond: 0.001, burst: 1 } }, run: async (r) => void (await r.three()) },
  { name: 'malformedJsonPlainText', run: async (r) => void (await r.ask('malformed', { raw: MALFORMED })) },
  { name: 'textPlainContentType', run: plainList },
  { name: 'authEnvelopeWithoutRegion', run: noToken },
  { name: 'requestIdHeaderOnly', run: async (r) => (await plainList(r), await noToken(r)) },
  { name: 'emptyRequestId', run: plainList },
  { name: 'constantRequestId', run: async (r) => (await plainList(r), await noToken(r)) },
  { name: 'resultOmittedWhenUnfiltered', run: plainList },
  { name: 'gatewayServiceOnAuthErrors', run: async (r) => (await plainList(r), await noToken(r)) },
  { name: 'actionWithResponseSuffix', run: plainList },
  { name: 'authErrorsWithoutVersion', run: noToken },
  { name: 'emptyListBodyUnauthenticated', run: plainList },
  { name: 'badTokenIs403', run: async (r) => void (await r.list('unknownToken', {}, 'Bearer not-a-token-the-server-issued')) },
  { name: 'errorKindOmittedOn400', run: async (r) => void (await r.ask('malformed', { raw: MALFORMED })) },
  { name: 'errorsAnsweredOk', run: async (r) => void (await r.list('unknownToken', {}, 'Bearer not-a-token-the-server-issued')) },
  { name: 'listBadRequestAsAssetError', run: async (r) => void (await r.list('pageSize0', { PageSize: 0 })) },
  { name: 'badBody422', run: async (r) => void (await r.ask('arrayBody', { action: 'CreateAssetGroup', raw: '[]' })) },
  { name: 'createdWith201', run: async (r) => void (await r.create('create')) },
  { name: 'createIdOutsideResult', run: async (r) => void (await r.create('create')) },
  { name: 'emptyListBodyRefused', run: plainList },
  {
    name: 'channelSequenceIds',
    run: async (r) => {
      await r.create('createA', SENT, 'channelA');
      await r.create('createB', SENT, 'channelB');
    },
  },
  { name: 'projectNameIgnored', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds([await r.create('create')]))) },
  {
    name: 'trimsWhitespace',
    options: { lagMs: 0 },
    run: async (r) => void (await r.list('byIds', byIds([await r.create('createPadded', PADDED)]))),
  },
  { name: 'idFilterFirstOnly', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'groupIdsFilterIgnored', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds((await r.three()).slice(0, 1)))) },
  {
    name: 'assetSpaceFilterIgnored',
    options: { lagMs: 0 },
    run: async (r) => (await r.three(), void (await r.list('noSuchSpace', { Filter: { AssetSpaceId: 'no-such-space' } }))),
  },
  {
    name: 'groupTypeFilterIgnored',
    options: { lagMs: 0 },
    run: async (r) => (await r.three(), void (await r.list('byType', { Filter: { GroupType: 'OTHER' } }))),
  },
  { name: 'nameFilterLikeWildcards', options: { lagMs: 0 }, run: async (r) => (await r.three(), void (await r.list('wildcard', { Filter: { Name: '%' } }))) },
  {
    name: 'nameFilterLowercasesStoredOnly',
    options: { lagMs: 0 },
    run: async (r) => {
      await r.three();
      for (const [key, name] of Object.entries(NAME_PROBES)) await r.list(`name.${key}`, { Filter: { Name: name } });
    },
  },
  {
    name: 'pageOneTooMany',
    options: { lagMs: 0 },
    run: async (r) => void (await r.list('page1', byIds(await r.three(), { PageNumber: 1, PageSize: PAGE_SIZE }))),
  },
  { name: 'pagingEchoesZeroWhenOmitted', run: plainList },
  {
    name: 'totalCountOfPage',
    options: { lagMs: 0 },
    run: async (r) => void (await r.list('page1', byIds(await r.three(), { PageNumber: 1, PageSize: PAGE_SIZE }))),
  },
  { name: 'totalCountPlusOne', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  {
    name: 'pagesOverlapByOne',
    options: { lagMs: 0 },
    run: async (r) => {
      const ids = await r.three();
      await r.list('page1', byIds(ids, { PageNumber: 1, PageSize: PAGE_SIZE }));
      await r.list('page2', byIds(ids, { PageNumber: 2, PageSize: PAGE_SIZE }));
    },
  },
  {
    name: 'pastEndShowsLastPage',
    options: { lagMs: 0 },
    run: async (r) => void (await r.list('pastEnd', byIds(await r.three(), { PageNumber: 3, PageSize: PAGE_SIZE }))),
  },
  { name: 'pagingNotValidated', options: { lagMs: 0 }, run: async (r) => void (await r.list('pageSize0', byIds(await r.three(), { PageSize: 0 }))) },
  {
    name: 'pagesShortByOne',
    options: { lagMs: 0 },
    run: async (r) => void (await r.list('page1', byIds(await r.three(), { PageNumber: 1, PageSize: PAGE_SIZE }))),
  },
  { name: 'offsetTimesPageSize', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  {
    name: 'unfilteredListIgnoresUser',
    options: { lagMs: 0 },
    run: async (r) => (await r.three(), void (await r.list('otherUserAll', {}, 'otherUser'))),
  },
  { name: 'totalCountUnscoped', options: { lagMs: 0 }, run: async (r) => void (await r.list('otherUser', byIds(await r.three()), 'otherUser')) },
  { name: 'goNilItems', run: async (r) => void (await r.list('noSuchSpace', { Filter: { AssetSpaceId: 'no-such-space' } })) },
  { name: 'totalCountAsString', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'emptyStringsOmitted', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'createReturnsWholeGroup', run: async (r) => void (await r.create('create')) },
  { name: 'localTimeTimestamps', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'zeroOffsetNotZ', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'localTimeLabelledZ', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'updateBeforeCreate', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'phpIso8601Offset', options: { lagMs: 0 }, run: async (r) => void (await r.list('byIds', byIds(await r.three()))) },
  { name: 'badEscapeCrashes', run: async (r) => void (await r.ask('badEscape', { action: 'CreateAssetGroup', raw: '{"Name": "a\\qb"}' })) },
  { name: 'rateLimitWithoutRetryAfter', run: async (r) => void (await r.create('create')) },
];

async function record(session: Session): Promise<void> {
  const mutant = REFERENCE.includes(session.name) ? undefined : session.name;
  const hooks = mutant ? findMutant(mutant)?.hooks : undefined;
  if (mutant && !hooks) throw new Error(`no mutant ${mutant}`);
  const server = await startReferenceServer({ lagMs: 0, ...session.options, hooks, host: '127.0.0.1' });
  try {
    const r = new Recorder(server.url);
    await session.run(r);
    const file = { session: session.name, mutant: mutant ?? null, exchanges: r.kept, clock: r.clock };
    writeFileSync(path.join(OUT, `${session.name}.json`), `${JSON.stringify(file, null, 1)}\n`);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  // Tokens of this recording alone, never the well-known defaults: redaction is proved on values no file may hold.
  for (const { serverEnv } of TOKEN_ROLES) process.env[serverEnv] = `rec-${randomBytes(12).toString('hex')}`;
  TOKENS = referenceTokens();
  mkdirSync(OUT, { recursive: true });
  const named = process.argv.slice(2);
  const unknown = named.filter((name) => !SESSIONS.some((session) => session.name === name));
  if (unknown.length) throw new Error(`no session ${unknown.join(', ')}`);
  const sessions = named.length ? SESSIONS.filter((session) => named.includes(session.name)) : SESSIONS;
  for (const session of sessions) await record(session);
  console.log(`recorded ${sessions.length} sessions into ${path.relative(process.cwd(), OUT)}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
