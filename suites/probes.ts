/**
 * Requests a test sends whatever the target answers, as data: the test sends them (each `shared`,
 * api.ts), and the runner may send them first. Under latency a run was one test after another on each
 * worker, each waiting for its own round trips; the workers take seconds to start, while the runner
 * waits. So once the create-and-wait phase is over, the runner sends the requests of the tests this
 * run selected (suites/selection.ts), in the order the tests come, and publishes the answers in the
 * run's folder (client/read-cache.ts): a test takes its answers there instead of sending them. The
 * target gets the same requests, each once; they are only sent earlier, and together.
 *
 * Each plan is a pure function of the run's configuration, profile and dataset, the same in the runner
 * and in the test: its bodies carry names derived from the run's prefix and the probe (probeName), not
 * random ones, so that both build the very same request. A test whose requests depend on earlier
 * answers (a walk, a model run, a follow-up of an accepted value) sends those itself, as before.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Exchange } from '../client/exchange';
import { flipCase } from '../client/redact';
import type { KitConfig, TokenRole } from '../config';
import type { OperationId } from './checks';
import { ahead, CONCURRENCY, inOrder, RawBody, type Api, type CallOptions } from './api';
import { listBody } from './list-body';
import {
  channelNamePart,
  confinedQuery,
  CREATING_ROLES,
  groupNamed,
  groupsOf,
  pagesOf,
  pollShared,
  roleGroupsQuery,
  VALUE_FILTERS,
  type Dataset,
  type ValueFilter,
} from './dataset';
import { nameMatchParts, withFilters, type Profile } from '../schemas/profile';
import { eachIdAlone, nthPage, type ListQuery } from './list-body';
import type { NameProbes } from './checks';

/** One request of a test, as data. */
export interface Probe {
  action: OperationId | string | null;
  body: unknown;
  options: CallOptions;
  /**
   * How a create goes: `create` through the retrying client (Api.create), `refused` as a create the
   * kit expects to be refused (Api.createRefused); both wait out a 429 or 503, which is never shared.
   */
  via?: 'create' | 'refused';
  /** Probes of one chain are sent one after another (VIS-02's rounds), each once the one before it has been answered. */
  chain?: string;
}

export interface ProbeContext {
  config: KitConfig;
  profile: Profile;
  dataset: Dataset;
}

/** How many of the runner's requests are under way at once: what the run's workers could have, while they are still starting. */
export const sendAheadLanes = (workers: number): number => CONCURRENCY * Math.max(1, workers);

/** A name of this run (its prefix) for one probe: the same in the runner and in the test, distinct per probe. */
export function probeName(config: Pick<KitConfig, 'namePrefix'>, label: string, ...parts: unknown[]): string {
  return `${config.namePrefix}${label}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 6)}`;
}

/** Sends one probe as a shared request: the runner's answer if it sent it first. */
export const sendProbe = (api: Api, probe: Probe): Promise<Exchange> => send(api, probe, true);

/** Sends one probe as this test's own request, never shared. */
export const sendOwn = (api: Api, probe: Probe): Promise<Exchange> => send(api, probe, false);

async function send(api: Api, probe: Probe, shared: boolean): Promise<Exchange> {
  const options = shared ? { ...probe.options, shared } : probe.options;
  if (probe.via === 'create') return (await api.create(probe.body as Record<string, unknown>, probe.options.as ?? 'primary', { shared })).exchange;
  if (probe.via === 'refused') return api.createRefused(probe.body, options);
  return api.call(probe.action, probe.body, options);
}

/** The probes' answers, sent a few at a time (client/concurrency.ts), each awaited in the order given. */
export async function probesAhead(api: Api, probes: Probe[]): Promise<Promise<Exchange>[]> {
  return ahead(probes.map((probe) => () => sendProbe(api, probe)));
}

export async function probesTogether(api: Api, probes: Probe[]): Promise<Exchange[]> {
  return inOrder(await probesAhead(api, probes));
}

// ---------------------------------------------------------------- AUTH

export const OPERATIONS: OperationId[] = ['CreateAssetGroup', 'ListAssetGroups'];

type Authorization = { value: string; shown: string };

/** An otherwise valid body for each operation, so that authentication is what answers. */
function validBody(config: KitConfig, operation: OperationId, ...label: unknown[]): Record<string, unknown> {
  return operation === 'CreateAssetGroup'
    ? { Name: probeName(config, 'auth', ...label), Title: 'Auth probe', Description: 'Must be refused', GroupType: 'AIGC', ProjectName: 'default' }
    : {};
}

/** A request the target must refuse; a create goes through createRefused, so a proxy's 429 before authentication is waited out, not judged. */
export function refusedProbe(config: KitConfig, op: OperationId, options: CallOptions, ...label: unknown[]): Probe {
  return { action: op, body: validBody(config, op, ...label), options, ...(op === 'CreateAssetGroup' ? { via: 'refused' as const } : {}) };
}

/**
 * A token the target never issued, the same for the whole run: AUTH-04 sends it, and AUTH-02, AUTH-03
 * and both AUTH-06 tests send the same list with it, so that one answer tells whether the target takes
 * any token at all, and how it refuses one it did not issue.
 */
const unknownToken = (runId: string) => `agc-unknown-${createHash('sha256').update(`agc unknown token ${runId}`).digest('hex').slice(0, 32)}`;
const unknownForm = (runId: string): Authorization => ({ value: `Bearer ${unknownToken(runId)}`, shown: 'Bearer <a random token the target never issued>' });
const unknownList = (config: KitConfig): Probe => ({ action: 'ListAssetGroups', body: {}, options: { authorization: unknownForm(config.runId) } });

/** The run's unknown token on the list, then each Authorization form on each operation. */
export function refusedForms(config: KitConfig, forms: Authorization[], operations = OPERATIONS): Probe[] {
  return [
    unknownList(config),
    ...operations.flatMap((op) => forms.map((authorization) => refusedProbe(config, op, { authorization }, authorization.shown, op))),
  ];
}

export const bearerWithoutToken = (config: KitConfig): Probe[] =>
  refusedForms(
    config,
    ['Bearer ', 'Bearer'].map((value) => ({ value, shown: JSON.stringify(value) })),
  );

export function otherSchemes(config: KitConfig): Probe[] {
  const token = config.tokens.primary!;
  return refusedForms(config, [
    { value: `Basic ${token}`, shown: 'Basic <AG_TOKEN>' },
    { value: token, shown: '<AG_TOKEN> with no scheme' },
    { value: `Token ${token}`, shown: 'Token <AG_TOKEN>' },
  ]);
}

export const unknownTokenProbes = (config: KitConfig): Probe[] => [
  refusedProbe(config, 'CreateAssetGroup', { authorization: unknownForm(config.runId) }, 'unknown'),
  unknownList(config),
];

const withoutLast = (token: string): Authorization => ({ value: `Bearer ${token.slice(0, -1)}`, shown: 'Bearer <AG_TOKEN without its last character>' });

/** The run's unknown token, the near misses on the list, and on the create the two commonest slips. */
export function nearMisses(config: KitConfig): Probe[] {
  const token = config.tokens.primary!;
  const middle = Math.floor(token.length / 2);
  const last = token.at(-1) === 'x' ? 'y' : 'x';
  const forms: Authorization[] = [
    ...(flipCase(token) !== token ? [{ value: `Bearer ${flipCase(token)}`, shown: "Bearer <AG_TOKEN with its letters' case flipped>" }] : []),
    withoutLast(token),
    { value: `Bearer ${token}x`, shown: 'Bearer <AG_TOKEN>x' },
    { value: `Bearer x${token}`, shown: 'Bearer x<AG_TOKEN>' },
    { value: `Bearer ${token.slice(0, -1)}${last}`, shown: 'Bearer <AG_TOKEN with its last character changed>' },
    { value: `Bearer ${token.slice(0, middle)} ${token.slice(middle)}`, shown: 'Bearer <AG_TOKEN with a space in the middle>' },
    { value: `Bearer ${token} ${token}`, shown: 'Bearer <AG_TOKEN> <AG_TOKEN>' },
    ...(config.tokens.otherUser ? [{ value: `Bearer ${config.tokens.otherUser}-${token}`, shown: 'Bearer <AG_TOKEN_OTHER_USER>-<AG_TOKEN>' }] : []),
  ];
  const creates = forms.filter((f) => /without its last|>x$/.test(f.shown));
  return [
    unknownList(config),
    ...forms.map((authorization): Probe => ({ action: 'ListAssetGroups', body: {}, options: { authorization } })),
    ...creates.map((authorization) => refusedProbe(config, 'CreateAssetGroup', { authorization }, authorization.shown)),
  ];
}

/** The run's unknown token first, then the near miss without its last character with the kit's User-Agent (the other test's too) and with none. */
export const nearMissAgents = (config: KitConfig): Probe[] => [
  unknownList(config),
  ...[undefined, null].map((userAgent): Probe => ({
    action: 'ListAssetGroups',
    body: {},
    options: { authorization: withoutLast(config.tokens.primary!), userAgent },
  })),
];

/** An otherwise valid request of each operation without a token and without a User-Agent. */
export const anonymousWithoutAgent = (config: KitConfig): Probe[] =>
  OPERATIONS.map((op) => refusedProbe(config, op, { as: null, userAgent: null }, 'no agent'));

// ---------------------------------------------------------------- INPUT

/** A valid create body, to which one mistake is then added. */
const createBody = (config: KitConfig, label: string, ...parts: unknown[]) => ({
  Name: probeName(config, label, ...parts),
  Title: 'Input probe',
  Description: 'Created by the conformance kit',
  GroupType: 'AIGC',
  ProjectName: 'default',
});

/** A create through the retrying client: a 429 says nothing about how the body was judged. */
const createProbe = (body: unknown): Probe => ({ action: 'CreateAssetGroup', body, options: {}, via: 'create' });
const listProbe = (body: unknown, options: CallOptions = {}): Probe => ({ action: 'ListAssetGroups', body, options });

/** Malformed JSON, each to both operations, in that order, then an empty create body. */
export function malformedBodies(config: KitConfig): { bodies: string[]; probes: Probe[] } {
  // A lenient parser creates what it could read (Go's json.Decoder, gin's binding: the first value, the rest
  // ignored): the Name carries the run's prefix, so even that group is the run's.
  const name = probeName(config, 'input-malformed');
  const bodies = [`{"Name": "${name}",}`, `{'Name': '${name}'}`, `{"Name": "${name}"} trailing`, 'nul', `{"Name": "${name}\\x"}`, '\u00ff\u00fe{}'];
  // Trailing data after a create that is complete by itself: a decoder that reads the first value and ignores the rest
  // (Go's json.Decoder, Jackson's default FAIL_ON_TRAILING_TOKENS off) creates it, where a Name alone is refused for
  // a required field (a Jetty + Jackson server built blind from the spec requires GroupType) and hides that.
  const createOf = (body: string) =>
    body.endsWith(' trailing') ? `${JSON.stringify({ ...createBody(config, 'input-malformed'), Name: name })} trailing` : body;
  return {
    bodies,
    probes: [
      ...bodies.flatMap((body) => [createProbe(new RawBody(createOf(body))), listProbe(new RawBody(body))]),
      // The create body is required; an empty one is not JSON at all.
      createProbe(new RawBody('')),
    ],
  };
}

/** JSON bodies that are not an object, each to the operations it is sent to. */
export function notObjects(config: KitConfig): { op: OperationId; body: unknown; probe: Probe }[] {
  // An array holding a valid body too: a server that reads the first element of an array accepts it. The
  // create-and-wait phase sent that array to CreateAssetGroup and a string to ListAssetGroups.
  const bodies: { create: boolean; list: boolean; body: unknown }[] = [
    { create: true, list: true, body: [] },
    { create: true, list: true, body: [{}] },
    { create: false, list: true, body: [createBody(config, 'input-array')] },
    { create: true, list: false, body: 'ListAssetGroups' },
    { create: true, list: true, body: 42 },
    { create: true, list: true, body: null },
    { create: true, list: true, body: true },
  ];
  return bodies.flatMap(({ create, list, body }) => [
    ...(create ? [{ op: 'CreateAssetGroup' as const, body, probe: createProbe(body) }] : []),
    ...(list ? [{ op: 'ListAssetGroups' as const, body, probe: listProbe(body) }] : []),
  ]);
}

/** Values of every JSON type but string, for fields the spec types as strings. */
export const notAString = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

export const createField = fc.constantFrom('Name', 'Title', 'Description', 'GroupType', 'ProjectName');

/**
 * Every run also tries an integer too large for 64 bits, written as digits (36893488147419103000): Mojo::JSON
 * decodes such a literal as a string, so a Mojolicious server built blind from the spec took it as a Name.
 * The generated doubles reach that range only by chance.
 */
export const WRONG_TYPE_EXAMPLES: [string, unknown][] = [['Name', 2 ** 65]];

/** A create with one field of another type. A Name of another type carries no prefix: the Title does then, so a target that coerces it still files the group under this run. */
export const wrongTypeCreate = (config: KitConfig, name: string, value: unknown): Probe =>
  createProbe({
    ...createBody(config, 'input-type', name, value),
    ...(name === 'Name' ? { Title: probeName(config, 'no-name', value) } : {}),
    [name]: value,
  });

/** What INPUT-03's list property can draw on this target: the filters it reads, and bodies with one of them of the wrong type. */
export function wrongListBodies(
  profile: Profile,
  dataset: Dataset,
): { unread: ValueFilter[]; idFilterKnown: boolean; wrongBody?: fc.Arbitrary<Record<string, unknown>> } {
  const { list } = profile;
  const { filterField, filters } = list;
  // A filter the target ignores, or reads under another name, says nothing by what it makes of a wrong type there:
  // an ignored filter is its owner's finding (LIST-0x), another name a profile mismatch.
  const unread = (Object.keys(VALUE_FILTERS) as ValueFilter[]).filter(
    (key) => dataset.ignoredFilters?.includes(key) || dataset.profileMismatch?.filters?.[key],
  );
  const read = (Object.keys(VALUE_FILTERS) as ValueFilter[]).filter((key) => !unread.includes(key)).map((key) => filters[key]);
  // Built only over filters read: fast-check refuses a constantFrom of nothing.
  const wrongFilter = read.length
    ? [fc.record({ key: fc.constantFrom(...read), value: notAString }).map(({ key, value }) => withFilters(list, { [key]: value }))]
    : [];
  // Not a string: "All fields are strings unless noted", and a single Id is a legitimate Id filter beside a list of them.
  const wrongIds = fc
    .oneof(
      fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 1 })), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.integer(),
    )
    .map((value) => withFilters(list, { [filters.groupIds]: value }));
  // Not an empty array: PHP's json_decode($body, true), behind Slim, Laravel and Symfony, reads [] and {} as one empty
  // array, and a filter object is the profile's (the spec names no filter fields), so that one carries nothing to refuse.
  const wrongFilterObject = fc
    .oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.array(fc.integer(), { minLength: 1, maxLength: 2 }), fc.boolean())
    .map((value) => ({ [filterField]: value }));
  // Paging values of the wrong type are PAGE-07's (invalid paging values), so they are not drawn here.
  // The same for the Id filter: ignored (LIST-04's finding), or read under another name.
  const idFilterKnown = !dataset.profileMismatch?.idFilter && !dataset.idFilterLeaked;
  // A filter object of the wrong type, only where the target showed it reads filters from one.
  const objectRead = filterField !== '' && (idFilterKnown || read.length > 0);
  const arbitraries = [...wrongFilter, ...(idFilterKnown ? [wrongIds] : []), ...(objectRead ? [wrongFilterObject] : [])];
  return { unread, idFilterKnown, ...(arbitraries.length ? { wrongBody: fc.oneof(...arbitraries) } : {}) };
}

/** INPUT-04's cases: each required field missing, the Name empty, each field one past its bound (with that bound). */
export function beyondBounds(
  config: KitConfig,
  profile: Profile,
): { what: string; body: Record<string, unknown>; bound?: { field: string; max: number }; probe: Probe }[] {
  const { maxLength, requiredFields } = profile.create;
  const cases: { what: string; body: Record<string, unknown>; bound?: { field: string; max: number } }[] = [];
  // Where the Name is what is tested, the Title carries the run's prefix: a target that accepts it still files the group under this run.
  const titled = (body: Record<string, unknown>, what: string) => ({ ...body, Title: probeName(config, 'no-name', what) });
  for (const field of requiredFields) {
    const what = `${field} missing`;
    const { [field]: _dropped, ...without } = createBody(config, 'input-missing', field) as Record<string, unknown>;
    cases.push({ what, body: field === 'Name' ? titled(without, what) : without });
  }
  if (requiredFields.includes('Name')) cases.push({ what: 'Name empty', body: titled({ ...createBody(config, 'x'), Name: '' }, 'Name empty') });
  for (const [field, max] of Object.entries(maxLength)) {
    const base = createBody(config, 'input-long', field) as Record<string, unknown>;
    // The Name keeps the run prefix so that a target that wrongly accepts it still files it under this run.
    const value = field === 'Name' ? `${base.Name}`.padEnd(max + 1, 'x') : 'x'.repeat(max + 1);
    cases.push({ what: `${field} of ${max + 1} characters`, body: { ...base, [field]: value }, bound: { field, max } });
  }
  return cases.map((c) => ({ ...c, probe: createProbe(c.body) }));
}

/** INPUT-07's texts: JSON lets them through, and RFC 8259 leaves their meaning open. */
export const ODD_TEXTS = ['\ud800', '\udfff x', 'a\u0000b', '\u202e\u2066rtl\u2069', '\ufeffbom', 'e\u0301\u0301\u0301', '\u{10ffff}'];

const leadingBom = (text: string): boolean => text.startsWith('\ufeff');

/**
 * All seven texts in one Name filter, spaces between them (so no two surrogates pair up), the BOM's text first so that it
 * leads the value as it does alone: a target that answers it with a 2xx took every text without a 5xx, in one list instead of seven.
 */
export const ODD_NAME_FILTER = [...ODD_TEXTS.filter(leadingBom), ...ODD_TEXTS.filter((text) => !leadingBom(text))].join(' ');

/**
 * Four texts a create, one in each free text field (the Name keeps the run's prefix): two groups, not seven; then all of them
 * in one Name filter, and each in a Name filter of its own (`oneByOne`) where that one was not answered with a 2xx: a text
 * refused with a 4xx (Django REST framework refuses NUL and lone surrogates) must not hide another text's 5xx.
 */
export function unusualUnicode(config: KitConfig, profile: Profile): { creates: Record<string, unknown>[]; probes: Probe[]; oneByOne: Probe[] } {
  const creates = [ODD_TEXTS.slice(0, 4), ODD_TEXTS.slice(4)].map(([name, title, description, project], i) => ({
    ...createBody(config, 'unicode', i),
    ...(name !== undefined ? { Name: `${probeName(config, 'unicode', i, 'name')}-${name}` } : {}),
    ...(title !== undefined ? { Title: title } : {}),
    ...(description !== undefined ? { Description: description } : {}),
    ...(project !== undefined ? { ProjectName: project } : {}),
  }));
  return {
    creates,
    probes: [...creates.map(createProbe), listProbe(listBody(profile, { name: ODD_NAME_FILTER }))],
    oneByOne: ODD_TEXTS.map((text) => listProbe(listBody(profile, { name: text }))),
  };
}

export const UNKNOWN_ACTIONS = ['NoSuchAction', 'listassetgroups', null];
export const actionProbes = (): Probe[] => UNKNOWN_ACTIONS.map((action) => ({ action, body: {}, options: {} }));

export const UNSUPPORTED_VERSIONS = ['1999-01-01', '2024-1-1', null];
export const versionProbes = (): Probe[] => UNSUPPORTED_VERSIONS.map((version) => listProbe({}, { version }));

// ---------------------------------------------------------------- PAGE

/** PAGE-07's edges of each paging field, each a list of its own. */
export function invalidPagings(profile: Profile): { what: string; number: unknown; size: unknown; probe: Probe }[] {
  const { pageNumber, pageSize } = profile.list;
  const invalid: [string, unknown, unknown][] = [
    [`${pageNumber.field} below its minimum`, pageNumber.minimum - 1, undefined],
    [`negative ${pageNumber.field}`, -1, undefined],
    [`fractional ${pageNumber.field}`, 1.5, undefined],
    [`${pageSize.field} below its minimum`, undefined, pageSize.minimum - 1],
    [`${pageSize.field} above its maximum`, undefined, pageSize.maximum + 1],
  ];
  // No numeral strings ("1"): "All fields are strings unless noted", and the paging fields' types are not shown.
  return invalid.map(([what, number, size]) => ({ what, number, size, probe: pagingProbe(profile, { pageNumber: number, pageSize: size }) }));
}

/** A list of nothing but paging values: shared by PAGE-07's two tests, which often draw the same edges (0, -1). */
export const pagingProbe = (profile: Profile, paging: { pageNumber?: unknown; pageSize?: unknown }): Probe => listProbe(listBody(profile, paging));

/** The smallest double above a positive n: a fraction that prints as n with 15 significant digits (Perl's). */
function nextAbove(n: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

type Paging = { pageNumber: unknown } | { pageSize: unknown };

/** PAGE-07's property: a list with one paging value out of its bounds, and the examples every run tries. */
export function invalidPaging(profile: Profile): { body: fc.Arbitrary<Paging>; examples: [Paging][] } {
  const { pageNumber, pageSize } = profile.list;
  const badNumber = fc.oneof(
    fc.integer({ min: -1_000, max: pageNumber.minimum - 1 }),
    fc.double({ min: pageNumber.minimum, max: 1_000, noNaN: true, noInteger: true }),
  );
  // Above the maximum is not invalid where the profile clamps: PAGE-07's own test judges that case.
  const badSize = fc.oneof(
    fc.integer({ min: -1_000, max: pageSize.minimum - 1 }),
    ...(pageSize.aboveMaximum === 'refuse' ? [fc.integer({ min: pageSize.maximum + 1, max: 1_000_000 })] : []),
    fc.double({ min: pageSize.minimum, max: pageSize.maximum, noNaN: true, noInteger: true }),
  );
  const body = fc.oneof(
    badNumber.map((n): Paging => ({ pageNumber: n as unknown })),
    badSize.map((s): Paging => ({ pageSize: s as unknown })),
  );
  // Every run also tries the fraction just above a valid PageSize and PageNumber (1.0000000000000002): Perl prints it as 1, so a
  // Dancer2 server built blind from the spec served that PageSize as 1 and, the PageNumber passed to SQLite's OFFSET,
  // answered 500. The generated doubles come that close only by chance. The size first: another profile's choice, which
  // must not hide the 500 (mismatchesLast).
  const justAbove = (n: number) => nextAbove(Math.max(1, n));
  const size = justAbove(pageSize.minimum);
  const examples: [Paging][] = [[{ pageNumber: justAbove(pageNumber.minimum) }]];
  if (size < pageSize.maximum) examples.unshift([{ pageSize: size }]);
  // The edges PAGE-07's own test sends (invalidPagings) are in the property's domain: runs of it too, each answer sent
  // once and judged by both. fast-check counts examples among numRuns, so it draws that many fewer (cost to the target).
  for (const { number, size: bad } of invalidPagings(profile))
    if (number !== undefined) examples.push([{ pageNumber: number }]);
    else if (pageSize.aboveMaximum === 'refuse' || (bad as number) <= pageSize.maximum) examples.push([{ pageSize: bad }]);
  return { body, examples };
}

/** PAGE-02's property: pages within the run's groups (a page past the end is PAGE-06's, list.pageNumber.pastEnd), and the list of each. */
export function echoedPaging(
  profile: Profile,
  dataset: Dataset,
): {
  paging: fc.Arbitrary<{ number: number; size: number }>;
  probe: (p: { number: number; size: number }) => Probe;
  examples: [{ number: number; size: number }][];
} {
  const { pageNumber, pageSize } = profile.list;
  const { ids, query } = pagesOf(profile, dataset);
  // Page n of size s is within while (n-1)*s < the groups.
  const lastWithin = (size: number) => Math.max(pageNumber.minimum, Math.ceil(ids.length / size) - 1 + pageNumber.minimum);
  const paging = fc
    .integer({ min: pageSize.minimum, max: pageSize.maximum })
    .chain((size) => fc.record({ number: fc.integer({ min: pageNumber.minimum, max: lastWithin(size) }), size: fc.constant(size) }));
  // The pages PAGE-01, PAGE-02 and PAGE-04 read of the same query are in the property's domain: runs of it too, each
  // answer sent once and judged by all. fast-check counts examples among numRuns, so it draws that many fewer.
  const fixed = [...firstPagesOfSizes(profile, dataset), ...pagesWithin(profile, dataset), ...twoPages(profile, dataset)]
    .map(({ pageNumber: number, pageSize: size }) => ({ number, size }))
    .filter(({ number, size }) => size >= pageSize.minimum && size <= pageSize.maximum && number <= lastWithin(size));
  const examples = [...new Map(fixed.map((p) => [JSON.stringify(p), [p] as [typeof p]])).values()];
  return { paging, examples, probe: ({ number, size }) => listProbe(listBody(profile, { ...query, pageNumber: number, pageSize: size })) };
}

// ---------------------------------------------------------------- reads of the run's groups (CHAN, SCOPE, LIST, PAGE)

type Role = NonNullable<CallOptions['as']>;
const read = (profile: Profile, query: ListQuery, as?: Role): Probe => listProbe(listBody(profile, query), as === undefined ? {} : { as });
const firstPages = (profile: Profile, query: ListQuery): ListQuery => ({ ...query, pageSize: profile.list.pageSize.maximum });

/**
 * CHAN-02's reads: each channel's token asks for the other channel's groups by Id (and by the run's prefix, where the
 * Name filter matches a part), then both channels' groups one a page, pages 1 and 2.
 */
export function otherChannelReads(config: KitConfig, profile: Profile, dataset: Dataset): { others: string[]; query: ListQuery; probe: Probe }[] {
  const roles = ['channelA', 'channelB'] as const;
  if (!roles.every((role) => config.tokens[role])) return [];
  // The run's prefix finds its groups under every setting but exact matching.
  const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
  const othersOf = (role: Role) => groupsOf(dataset, (g) => g.via !== role && g.via !== 'primary').map((g) => g.id);
  const reads = roles.flatMap((role) => {
    const others = othersOf(role);
    const queries: ListQuery[] = [...eachIdAlone(profile, { groupIds: others }), ...(substring ? [{ name: dataset.prefix }] : [])];
    return queries.map((query) => ({ others, query, probe: read(profile, firstPages(profile, query), role) }));
  });
  // Both channels' groups by Id, one a page: scoping must hold on every page, not only the first. Under a one-Id filter
  // (list.idFilterTakes: one), by the Name part the two alone share, where the Name filter matches a part.
  const channels = groupsOf(dataset, (g) => g.via === 'channelA' || g.via === 'channelB').map((g) => g.id);
  const walked = confinedQuery(profile, channels, channelNamePart(dataset));
  const walks = roles.flatMap((role) =>
    !walked
      ? []
      : [1, 2].map((n) => ({ others: othersOf(role), query: walked, probe: read(profile, { ...walked, pageNumber: nthPage(profile, n), pageSize: 1 }, role) })),
  );
  return [...reads, ...walks];
}

/** SCOPE-01's reads as the second user: the plain first page, and (where the Name filter matches a part) the run's prefix. */
export function otherUserFirstPages(config: KitConfig, profile: Profile, dataset: Dataset): Probe[] {
  if (!config.tokens.otherUser) return [];
  const substring = nameMatchParts(profile.list.nameMatch).mode !== 'exact';
  return [
    read(profile, firstPages(profile, {}), 'otherUser'),
    ...(substring ? [read(profile, firstPages(profile, { name: dataset.prefix }), 'otherUser')] : []),
  ];
}

/**
 * SCOPE-02's: the primary user's groups by Id as the second user, the first page and a later one (scoping must not stop at
 * page 1); under a one-Id filter (list.idFilterTakes: one) each Id alone, whose only page is the first.
 */
export function otherUserByIds(config: KitConfig, profile: Profile, dataset: Dataset): { query: ListQuery; probe: Probe }[] {
  if (!config.tokens.otherUser) return [];
  const mine = groupsOf(dataset, () => true).map((g) => g.id);
  const queries: ListQuery[] =
    profile.list.idFilterTakes === 'one'
      ? eachIdAlone(profile, { groupIds: mine })
      : [{}, { pageNumber: nthPage(profile, 2), pageSize: 1 }].map((paging) => ({ groupIds: mine, ...paging }));
  return queries.map((query) => ({ query, probe: read(profile, query, 'otherUser') }));
}

/** SCOPE-03's: two of the primary user's groups by their exact Names, as the second user. */
export function otherUserByNames(config: KitConfig, profile: Profile, dataset: Dataset): { name: string; probe: Probe }[] {
  if (!config.tokens.otherUser) return [];
  return groupsOf(dataset, () => true)
    .slice(0, 2)
    .map((group) => ({ name: group.sent.Name, probe: read(profile, { name: group.sent.Name }, 'otherUser') }));
}

/** LIST-05's: the mixed-case group by its full Name, then wildcards a filter built on LIKE, glob or regex without escaping would widen. */
export function nameAndWildcards(profile: Profile, dataset: Dataset): { name: string; wildcards: string[]; probes: Probe[] } {
  const name = groupNamed(dataset, 'mixedCaseName').sent.Name;
  const wildcards = [`${dataset.prefix}%`, `${name.slice(0, -2)}_${name.slice(-1)}`, `${dataset.prefix}.*`];
  // The full Name is also LIST-07's first probe: one answer for both.
  return { name, wildcards, probes: [name, ...wildcards].map((query) => read(profile, firstPages(profile, { name: query }))) };
}

/**
 * LIST-07's: the mixed-case group's Name is agc-<run>-ds-p2-MixedCase-<salt>: a leading part, an inner part and the whole,
 * each as written and in upper case, tell exact from prefix from substring, and whether case matters.
 */
export function nameParts(profile: Profile, dataset: Dataset): { probes: NameProbes; keys: (keyof NameProbes)[]; reads: Probe[] } {
  const name = groupNamed(dataset, 'mixedCaseName').sent.Name;
  const leading = name.slice(0, -3);
  const inner = name.slice(dataset.prefix.length, -3);
  const probes: NameProbes = {
    whole: name,
    leading,
    inner,
    wholeUpper: name.toUpperCase(),
    leadingUpper: leading.toUpperCase(),
    innerUpper: inner.toUpperCase(),
  };
  const keys = Object.keys(probes) as (keyof NameProbes)[];
  return { probes, keys, reads: keys.map((key) => read(profile, firstPages(profile, { name: probes[key] }))) };
}

/** roleGroupsRead's reads of one role's groups (CREATE-02's, and the AssetSpaceId of a group: spaceOf), where the role has any. */
function roleReads(config: KitConfig, profile: Profile, dataset: Dataset, role: TokenRole, options: { bounds?: boolean } = {}): Probe[] {
  const query = roleGroupsQuery(profile, dataset, role, options);
  if (!config.tokens[role] || !query.groupIds?.length) return [];
  return eachIdAlone(profile, query).map((q) => read(profile, q, role));
}

/** everyGroupListed's first read (LIST-02's and CHAN-03's): every group of the run by its Ids, on one page. */
function everyGroupRead(profile: Profile, dataset: Dataset): Probe[] {
  const all = groupsOf(dataset, () => true).map((g) => g.id);
  return eachIdAlone(profile, { groupIds: all, pageSize: profile.list.pageSize.maximum }).map((q) => read(profile, q));
}

/** LIST-03's: the run's primary groups of type AIGC. */
function aigcReads(profile: Profile, dataset: Dataset): { query: ListQuery; probe: Probe }[] {
  const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
  return eachIdAlone(profile, { groupType: 'AIGC', groupIds: ids }).map((query) => ({ query, probe: read(profile, query) }));
}

/** VIS-02's reads in a row: this many rounds, each a read of every creating token's groups by their Ids. */
export const VISIBILITY_ROUNDS = 3;

/**
 * One round of VIS-02's reads: each creating role's groups by their Ids (one read, or one per Id under a one-Id filter), as that role.
 * The first round is the suites' plain read of them (CREATE-02's), sent after the phase, unless that read is a phase's poll,
 * which saw them first: then every round is a read of VIS-02's own, so that each is read again that many times.
 */
export function visibilityRound(profile: Profile, dataset: Dataset, round: number): { role: TokenRole; query: ListQuery; probe: Probe }[] {
  return CREATING_ROLES.flatMap((role) => {
    const groups = groupsOf(dataset, (g) => g.via === role);
    if (!groups.length) return [];
    return eachIdAlone(profile, { groupIds: groups.map((g) => g.id), pageSize: profile.list.pageSize.maximum }).map((query) => {
      const plain = round === 1 && !dataset.sharedPolls.includes(pollShared(role, listBody(profile, query)));
      return {
        role,
        query,
        probe: {
          ...read(profile, query, role),
          options: plain ? { as: role } : { as: role, round },
          chain: `VIS-02 ${role} ${JSON.stringify(query.groupIds)}`,
        },
      };
    });
  });
}

/** The run's primary groups, paged two at a time: enough for three pages, the last one short. */
export const PAGE_SIZE = 2;

/** A page of the run's groups (pagesOf) and its request. */
type Page = { pageNumber: number; pageSize: number; probe: Probe };

/** These pages of the run's groups (pagesOf), each [n-th page, page size]. */
function pagesOfRun(profile: Profile, dataset: Dataset, pagings: [n: number, pageSize: number][]): Page[] {
  const { query } = pagesOf(profile, dataset);
  return pagings.map(([n, pageSize]) => {
    const pageNumber = nthPage(profile, n);
    return { pageNumber, pageSize, probe: read(profile, { ...query, pageNumber, pageSize }) };
  });
}

/** PAGE-01's: the first page of the run's groups (pagesOf) of size 1 and of PAGE_SIZE. */
export const firstPagesOfSizes = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [1, 1],
    [1, PAGE_SIZE],
  ]);

/** PAGE-02's: pages within the result (what a page past the end says is PAGE-06's, the profile's list.pageNumber.pastEnd). */
export const pagesWithin = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [2, PAGE_SIZE],
    [1, profile.list.pageSize.maximum],
    [2, 3],
  ]);

/** PAGE-03's: the run's groups with no paging values, where a query lists them alone (else the preflight's {} is judged). */
function withoutPaging(profile: Profile, dataset: Dataset): Probe[] {
  const { query, confined } = pagesOf(profile, dataset);
  return confined ? [read(profile, query)] : [];
}

/** PAGE-06's page past the end of the run's groups, where a query lists them alone (pagedGroups' namesakes otherwise: the test's own). */
export function pastEnd(profile: Profile, dataset: Dataset): Probe[] {
  const { ids, query, confined } = pagesOf(profile, dataset);
  return confined ? [read(profile, { ...query, pageNumber: nthPage(profile, Math.ceil(ids.length / PAGE_SIZE)) + 1, pageSize: PAGE_SIZE })] : [];
}

/** PAGE-04's: pages 1 and 2 of PAGE_SIZE. */
export const twoPages = (profile: Profile, dataset: Dataset): Page[] =>
  pagesOfRun(profile, dataset, [
    [1, PAGE_SIZE],
    [2, PAGE_SIZE],
  ]);

// ---------------------------------------------------------------- properties

/**
 * The values of a property's runs, as fc.check (suites/property.ts) is about to draw them: its examples,
 * then fc.sample of a tuple of the same arbitraries, with the same seed, numRuns and replay path, which
 * yields that very sequence (sampling the property object would not: fast-check biases it differently).
 * Runs that drew the same values (as JSON, which is what is sent) are one: the same request twice only loads the target.
 */
export function drawnRuns<Ts extends unknown[]>(config: KitConfig, arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, examples: Ts[] = []): Ts[] {
  const drawn = [
    ...examples,
    // fast-check counts the examples among numRuns: it draws that many fewer.
    ...(config.numRuns > examples.length
      ? fc.sample(fc.tuple<Ts>(...arbitraries), { seed: config.seed, numRuns: config.numRuns - examples.length, path: process.env.AG_FC_PATH || undefined })
      : []),
  ];
  return [...new Map(drawn.map((values) => [JSON.stringify(values), values])).values()];
}

// ---------------------------------------------------------------- what the runner sends ahead

/**
 * The tests whose requests the runner sends ahead, by their titles (tests/probes.test.ts checks each is a test of
 * the suites), in the order they run, each with its requests. Plans return nothing where their test is skipped.
 */
export const SENT_AHEAD: [title: string, plan: (ctx: ProbeContext) => Probe[]][] = [
  ['AUTH-02 A Bearer header with no token gets 401 TokenAuthError', ({ config }) => bearerWithoutToken(config)],
  ['AUTH-03 A valid token under another scheme gets 401 TokenAuthError', ({ config }) => otherSchemes(config)],
  ['AUTH-04 An unknown token gets 401 TokenAuthError', ({ config }) => unknownTokenProbes(config)],
  ['AUTH-06 A near-miss of a valid token gets 401 TokenAuthError', ({ config }) => nearMisses(config)],
  [
    "AUTH-01 A request without an Authorization header gets 401 TokenAuthError (with the kit's User-Agent and with none)",
    ({ config }) => anonymousWithoutAgent(config),
  ],
  ["AUTH-06 A near-miss of a valid token gets 401 TokenAuthError (with the kit's User-Agent and with none)", ({ config }) => nearMissAgents(config)],
  ['INPUT-01 Malformed JSON gets a 4xx, never a 5xx', ({ config }) => malformedBodies(config).probes],
  ['INPUT-02 A JSON body that is not an object gets a 4xx, never a 5xx', ({ config }) => notObjects(config).map(({ probe }) => probe)],
  [
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (create, property)',
    ({ config }) => drawnRuns(config, [createField, notAString], WRONG_TYPE_EXAMPLES).map(([name, value]) => wrongTypeCreate(config, name, value)),
  ],
  [
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (list, property)',
    ({ config, profile, dataset }) => {
      const { wrongBody } = wrongListBodies(profile, dataset);
      return wrongBody ? drawnRuns(config, [wrongBody]).map(([body]) => listProbe(body)) : [];
    },
  ],
  [
    'CREATE-02 Every field sent to CreateAssetGroup comes back unchanged in the list item of that Id',
    ({ config, profile, dataset }) => CREATING_ROLES.flatMap((role) => roleReads(config, profile, dataset, role)),
  ],
  [
    "CREATE-05 Values at the profile's bounds are accepted and come back unchanged",
    ({ config, profile, dataset }) => roleReads(config, profile, dataset, 'primary', { bounds: true }),
  ],
  [
    'CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none',
    ({ config, profile, dataset }) => (['channelA', 'channelB'] as const).flatMap((role) => roleReads(config, profile, dataset, role)),
  ],
  [
    "SCOPE-04 Another user finds none of the primary user's groups through the asset-space or group-type filter, alone or combined",
    ({ config, profile, dataset }) => (config.tokens.otherUser ? roleReads(config, profile, dataset, 'primary') : []),
  ],
  [
    "CHAN-02 A channel-bound token never lists another channel's groups",
    ({ config, profile, dataset }) => otherChannelReads(config, profile, dataset).map(({ probe }) => probe),
  ],
  ["INPUT-04 Create fields beyond the profile's bounds get 400 AssetError", ({ config, profile }) => beyondBounds(config, profile).map(({ probe }) => probe)],
  ['INPUT-07 Unusual Unicode in string fields never gets a 5xx', ({ config, profile }) => unusualUnicode(config, profile).probes],
  [
    'CHAN-03 An unbound token of the same user lists the groups of every channel',
    ({ config, profile, dataset }) => (config.tokens.channelA && config.tokens.channelB ? everyGroupRead(profile, dataset) : []),
  ],
  [
    'LIST-02 The asset-space filter returns the matching groups and only those',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.assetSpaceId ? [] : everyGroupRead(profile, dataset)),
  ],
  [
    'LIST-03 The group-type filter returns the matching groups and only those',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.groupType ? [] : aigcReads(profile, dataset).map(({ probe }) => probe)),
  ],
  [
    "PAGE-03 Omitted paging values take the profile's defaults",
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : withoutPaging(profile, dataset)),
  ],
  ['PAGE-06 A page past the end is answered as the profile says', ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : pastEnd(profile, dataset))],
  ['INPUT-05 An unknown Action gets a 4xx', () => actionProbes()],
  ['INPUT-06 An unsupported Version gets a 4xx', () => versionProbes()],
  [
    'LIST-05 The name filter finds a group by its full Name, and only groups whose Name contains what was asked',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameAndWildcards(profile, dataset).probes),
  ],
  [
    'LIST-07 The name filter matches as the profile says',
    ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameParts(profile, dataset).reads),
  ],
  [
    'PAGE-01 A page holds at most PageSize items',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : firstPagesOfSizes(profile, dataset).map(({ probe }) => probe)),
  ],
  [
    'PAGE-02 PageNumber and PageSize echo what was asked',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : pagesWithin(profile, dataset).map(({ probe }) => probe)),
  ],
  [
    'PAGE-04 TotalCount is the number of matching groups, not the size of the page',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : twoPages(profile, dataset).map(({ probe }) => probe)),
  ],
  [
    'PAGE-07 Invalid paging values get 400 AssetBadRequest',
    ({ profile, dataset }) => (dataset.profileMismatch?.paging ? [] : invalidPagings(profile).map(({ probe }) => probe)),
  ],
  [
    'PAGE-07 Invalid paging values get 400 AssetBadRequest (property)',
    ({ config, profile, dataset }) => {
      if (dataset.profileMismatch?.paging) return [];
      const { body, examples } = invalidPaging(profile);
      return drawnRuns(config, [body], examples).map(([paging]) => pagingProbe(profile, paging));
    },
  ],
  [
    'PAGE-02 PageNumber and PageSize echo what was asked (property)',
    ({ config, profile, dataset }) => {
      if (dataset.profileMismatch?.paging) return [];
      const { paging, probe, examples } = echoedPaging(profile, dataset);
      return drawnRuns(config, [paging], examples).map(([p]) => probe(p));
    },
  ],
  [
    'VIS-02 A group that became visible stays visible',
    ({ profile, dataset }) => Array.from({ length: VISIBILITY_ROUNDS }, (_, i) => visibilityRound(profile, dataset, i + 1).map(({ probe }) => probe)).flat(),
  ],
  ["SCOPE-01 The second user's list never shows the primary user's groups", ({ config, profile, dataset }) => otherUserFirstPages(config, profile, dataset)],
  [
    "SCOPE-02 Filtering by another user's group Id finds nothing",
    ({ config, profile, dataset }) => otherUserByIds(config, profile, dataset).map(({ probe }) => probe),
  ],
  [
    "SCOPE-03 Filtering by another user's exact group Name finds nothing",
    ({ config, profile, dataset }) => otherUserByNames(config, profile, dataset).map(({ probe }) => probe),
  ],
];

/** Tests whose plan is their first read alone: what they send next depends on its answer (an AssetSpaceId, a group's space). */
export const FIRST_READ_ONLY = new Set([
  'CHAN-04 A channel-bound token finds no group of another channel through any filter, and counts none',
  'LIST-02 The asset-space filter returns the matching groups and only those',
  "SCOPE-04 Another user finds none of the primary user's groups through the asset-space or group-type filter, alone or combined",
]);

/** The requests of the selected tests that the runner sends ahead, in the tests' order. */
export function sentAheadFor(titles: string[], ctx: ProbeContext): Probe[] {
  const plans = new Map(SENT_AHEAD);
  return titles.flatMap((title) => {
    try {
      return plans.get(title)?.(ctx) ?? [];
    } catch {
      // The run's groups are not all there (the dataset's helpers skip or block the test that needs them): that test,
      // when it runs, says why, and sends what it still can itself.
      return [];
    }
  });
}
