/** INPUT's planned requests: bodies, fields and values a target must refuse with a 4xx, never a 5xx. */
import fc from 'fast-check';
import type { KitConfig } from '../../config';
import type { OperationId } from '../checks';
import { RawBody } from '../api';
import { listBody } from '../list-body';
import { VALUE_FILTERS, type Dataset, type ValueFilter } from '../dataset';
import { withFilters, type Profile } from '../../schemas/profile';
import { type PlannedRequest, createBody, createRequest, listRequest, planName } from './plan';

/** Malformed JSON, each to both operations, in that order, then an empty create body. */
export function malformedBodies(config: KitConfig): { bodies: string[]; plannedRequests: PlannedRequest[] } {
  // A lenient parser creates what it could read (Go's json.Decoder, gin's binding: the first value, the rest
  // ignored): the Name carries the run's prefix, so even that group is the run's.
  const name = planName(config, 'input-malformed');
  const bodies = [`{"Name": "${name}",}`, `{'Name': '${name}'}`, `{"Name": "${name}"} trailing`, 'nul', `{"Name": "${name}\\x"}`, '\u00ff\u00fe{}'];
  // Trailing data after a create that is complete by itself: a decoder that reads the first value and ignores the rest
  // (Go's json.Decoder, Jackson's default FAIL_ON_TRAILING_TOKENS off) creates it, where a Name alone is refused for
  // a required field (a Jetty + Jackson server built blind from the spec requires GroupType) and hides that.
  const createOf = (body: string) =>
    body.endsWith(' trailing') ? `${JSON.stringify({ ...createBody(config, 'input-malformed'), Name: name })} trailing` : body;
  return {
    bodies,
    plannedRequests: [
      ...bodies.flatMap((body) => [createRequest(new RawBody(createOf(body))), listRequest(new RawBody(body))]),
      // The create body is required; an empty one is not JSON at all.
      createRequest(new RawBody('')),
    ],
  };
}

/** JSON bodies that are not an object, each to the operations it is sent to. */
export function notObjects(config: KitConfig): { op: OperationId; body: unknown; planned: PlannedRequest }[] {
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
    ...(create ? [{ op: 'CreateAssetGroup' as const, body, planned: createRequest(body) }] : []),
    ...(list ? [{ op: 'ListAssetGroups' as const, body, planned: listRequest(body) }] : []),
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
export const WRONG_TYPE_EXAMPLES: [string, unknown][] = [
  ['Name', 2 ** 65],
  // And one of each other kind the catalogue names (INPUT-03's sends: numbers, objects, arrays, booleans), every run,
  // whatever the draws: tests/sends.test.ts holds the catalogue to it. fast-check counts them among the runs.
  ['Title', true],
  ['Description', ['x']],
  ['ProjectName', { value: 'x' }],
];

/** A create with one field of another type. A Name of another type carries no prefix: the Title does then, so a target that coerces it still files the group under this run. */
export const wrongTypeCreate = (config: KitConfig, name: string, value: unknown): PlannedRequest =>
  createRequest({
    ...createBody(config, 'input-type', name, value),
    ...(name === 'Name' ? { Title: planName(config, 'no-name', value) } : {}),
    [name]: value,
  });

/** What INPUT-03's list property can draw on this target: the filters it reads, and bodies with one of them of the wrong type. */
export function wrongListBodies(
  profile: Profile,
  dataset: Dataset,
): { unread: ValueFilter[]; idFilterKnown: boolean; examples: [Record<string, unknown>][]; wrongBody?: fc.Arbitrary<Record<string, unknown>> } {
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
  // One of each kind the catalogue names, every run, in the filters read (the first of them, in turn): see WRONG_TYPE_EXAMPLES.
  const examples: [Record<string, unknown>][] = read.length
    ? [7, true, ['x'], { value: 'x' }].map((value, i) => [withFilters(list, { [read[i % read.length]]: value })])
    : [];
  return { unread, idFilterKnown, examples, ...(arbitraries.length ? { wrongBody: fc.oneof(...arbitraries) } : {}) };
}

/** INPUT-04's cases: each required field missing, the Name empty, each field one past its bound (with that bound). */
export function beyondBounds(
  config: KitConfig,
  profile: Profile,
): { what: string; body: Record<string, unknown>; bound?: { field: string; max: number }; planned: PlannedRequest }[] {
  const { maxLength, requiredFields } = profile.create;
  const cases: { what: string; body: Record<string, unknown>; bound?: { field: string; max: number } }[] = [];
  // Where the Name is what is tested, the Title carries the run's prefix: a target that accepts it still files the group under this run.
  const titled = (body: Record<string, unknown>, what: string) => ({ ...body, Title: planName(config, 'no-name', what) });
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
  return cases.map((c) => ({ ...c, planned: createRequest(c.body) }));
}

/** INPUT-07's texts: JSON lets them through, and RFC 8259 leaves their meaning open. */
export const ODD_TEXTS = ['\ud800', '\udfff x', 'a\u0000b', '\u202e\u2066rtl\u2069', '\ufeffbom', 'e\u0301\u0301\u0301', '\u{10ffff}'];

const leadingBom = (text: string): boolean => text.startsWith('\ufeff');

/**
 * All seven texts in one Name filter, spaces between them (so no two surrogates pair up), the BOM's text first so that it
 * leads the value as it does alone: a target that answers it with a 2xx took every text without a 5xx, in one list instead of seven.
 */
export const ODD_NAME_FILTER = [...ODD_TEXTS.filter(leadingBom), ...ODD_TEXTS.filter((text) => !leadingBom(text))].join(' ');

/** INPUT-07's texts, four a create (below). */
const ODD_TEXT_CREATES = [ODD_TEXTS.slice(0, 4), ODD_TEXTS.slice(4)];

/** The groups INPUT-07 leaves on the target where its creates are accepted: what the model's budget leaves room for (page-model.ts). */
export const UNUSUAL_UNICODE_CREATES = ODD_TEXT_CREATES.length;

/**
 * Four texts a create, one in each free text field (the Name keeps the run's prefix): two groups, not seven; then all of them
 * in one Name filter, and each in a Name filter of its own (`oneByOne`) where that one was not answered with a 2xx: a text
 * refused with a 4xx (Django REST framework refuses NUL and lone surrogates) must not hide another text's 5xx.
 */
export function unusualUnicode(
  config: KitConfig,
  profile: Profile,
): { creates: Record<string, unknown>[]; plannedRequests: PlannedRequest[]; oneByOne: PlannedRequest[] } {
  const creates = ODD_TEXT_CREATES.map(([name, title, description, project], i) => ({
    ...createBody(config, 'unicode', i),
    ...(name !== undefined ? { Name: `${planName(config, 'unicode', i, 'name')}-${name}` } : {}),
    ...(title !== undefined ? { Title: title } : {}),
    ...(description !== undefined ? { Description: description } : {}),
    ...(project !== undefined ? { ProjectName: project } : {}),
  }));
  return {
    creates,
    plannedRequests: [...creates.map(createRequest), listRequest(listBody(profile, { name: ODD_NAME_FILTER }))],
    oneByOne: ODD_TEXTS.map((text) => listRequest(listBody(profile, { name: text }))),
  };
}

export const UNKNOWN_ACTIONS = ['NoSuchAction', 'listassetgroups', null];
export const unknownActionRequests = (): PlannedRequest[] => UNKNOWN_ACTIONS.map((action) => ({ action, body: {}, options: {} }));

export const UNSUPPORTED_VERSIONS = ['1999-01-01', '2024-1-1', null];
export const unsupportedVersionRequests = (): PlannedRequest[] => UNSUPPORTED_VERSIONS.map((version) => listRequest({}, { version }));
