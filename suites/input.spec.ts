import fc from 'fast-check';
import { test, requirement, listBody, LISTED, RawBody, type Api } from './fixtures';
import { checkProperty, sentAhead } from './property';
import {
  ERROR_BODY,
  JSON_ANSWER,
  NOT_AS_SUCCESS,
  clientError,
  ERROR_ENVELOPE,
  errorKindReadable,
  errorWith,
  noServerError,
  owned,
  retryAfterHeader,
  type Step,
} from './checks';
import { VALUE_FILTERS, type Dataset, type ValueFilter } from './dataset';
import { recordNote, recordProfileMismatch } from '../facts/record';
import type { Exchange } from '../client/exchange';
import { ahead } from './api';
import { isJsonText } from '../schemas/spec';
import { filterLabel, withFilters } from '../schemas/profile';

/** A 4xx: neither a 5xx, nor a dropped connection, nor acceptance. The error's envelope and body are ENV-02's and ERR's. */
const refused: Step[] = [NOT_AS_SUCCESS, clientError];

/**
 * A 4xx whose body is still this API's answer: "ResponseMetadata | object | Present on every response."
 * A framework's own HTML or text page for a request it routes nowhere is ENV-05's finding, a JSON body
 * without the envelope ENV-02's, one without a readable error kind ERR-01's.
 */
const refusedWithEnvelope: Step[] = [NOT_AS_SUCCESS, clientError, JSON_ANSWER, ...ERROR_ENVELOPE, owned('ERR-01', errorKindReadable)];

const isJson = isJsonText;

/** The client mistakes the create-and-wait phase provoked with a token (suites/dataset-setup.ts): malformed JSON, or JSON that is not an object. */
const provokedWithToken = (dataset: Dataset, malformed: boolean) =>
  dataset.shared.provoked.filter((ex) => ex.request.headers.authorization !== undefined && isJson(ex.request.body) !== malformed);

/** A valid create body, to which one mistake is then added. */
const createBody = (api: Api, label: string) => ({
  Name: api.uniqueName(label),
  Title: 'Input probe',
  Description: 'Created by the conformance kit',
  GroupType: 'AIGC',
  ProjectName: 'default',
});

/** Creates go through the retrying client: a 429 says nothing about how the body was judged. */
async function sendCreate(api: Api, body: unknown): Promise<Exchange> {
  return (await api.create(body as Record<string, unknown>)).exchange;
}

/** The next answer, in the order the requests were listed to ahead() (client/concurrency.ts). */
const inTurn =
  <T>(answers: Promise<T>[]) =>
  () =>
    answers.shift()!;

/** Values of every JSON type but string, for fields the spec types as strings. */
const notAString = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

test.describe('INPUT handling of bad input', () => {
  test('INPUT-01 Malformed JSON gets a 4xx, never a 5xx', requirement('INPUT-01'), async ({ api, dataset, verify }) => {
    // Truncated JSON was sent to each operation by the create-and-wait phase (judged below with the rest).
    // A lenient parser creates what it could read (Go's json.Decoder, gin's binding: the first value, the rest
    // ignored): the Name carries the run's prefix, so even that group is the run's.
    const name = api.uniqueName('input-malformed');
    const malformed = [`{"Name": "${name}",}`, `{'Name': '${name}'}`, `{"Name": "${name}"} trailing`, 'nul', `{"Name": "${name}\\x"}`, '\u00ff\u00fe{}'];
    // Trailing data after a create that is complete by itself: a decoder that reads the first value and ignores the rest
    // (Go's json.Decoder, Jackson's default FAIL_ON_TRAILING_TOKENS off) creates it, where a Name alone is refused for
    // a required field (a Jetty + Jackson server built blind from the spec requires GroupType) and hides that.
    const createOf = (body: string) =>
      body.endsWith(' trailing') ? `${JSON.stringify({ ...createBody(api, 'input-malformed'), Name: name })} trailing` : body;
    const next = inTurn(
      await ahead([
        ...malformed.flatMap((body) => [() => sendCreate(api, new RawBody(createOf(body))), () => api.call('ListAssetGroups', new RawBody(body))]),
        // The create body is required; an empty one is not JSON at all.
        () => sendCreate(api, new RawBody('')),
      ]),
    );
    for (const body of malformed) {
      await test.step(`CreateAssetGroup ${JSON.stringify(body)}`, async () => verify(await next(), refused));
      await test.step(`ListAssetGroups ${JSON.stringify(body)}`, async () => verify(await next(), refused));
    }
    await verify(await next(), refused);
    // The same mistakes sent once beside the run's creates: every provoked bad request is judged, whatever it got.
    for (const ex of provokedWithToken(dataset, true)) await verify(ex, refused);
  });

  test('INPUT-02 A JSON body that is not an object gets a 4xx, never a 5xx', requirement('INPUT-02'), async ({ api, dataset, verify }) => {
    // An array holding a valid body too: a server that reads the first element of an array accepts it. The
    // create-and-wait phase sent that array to CreateAssetGroup and a string to ListAssetGroups (judged below).
    const bodies: { create: boolean; list: boolean; body: unknown }[] = [
      { create: true, list: true, body: [] },
      { create: true, list: true, body: [{}] },
      { create: false, list: true, body: [createBody(api, 'input-array')] },
      { create: true, list: false, body: 'ListAssetGroups' },
      { create: true, list: true, body: 42 },
      { create: true, list: true, body: null },
      { create: true, list: true, body: true },
    ];
    const sends = bodies.flatMap(({ create, list, body }) => [
      ...(create ? [{ op: 'CreateAssetGroup', send: () => sendCreate(api, body), body }] : []),
      ...(list ? [{ op: 'ListAssetGroups', send: () => api.call('ListAssetGroups', body), body }] : []),
    ]);
    const next = inTurn(await ahead(sends.map(({ send }) => send)));
    for (const { op, body } of sends)
      await test.step(`${op} ${JSON.stringify(body)}`, async () => {
        const answer = await next();
        // null is JSON's "no value": a list that reads it as no body (Go's encoding/json leaves the request struct
        // empty) answers what {} gets, which the spec calls valid. A create read so has no Name and is refused anyway.
        const readAsEmpty = op === 'ListAssetGroups' && body === null && answer.response?.status === 200;
        return verify(answer, readAsEmpty ? LISTED : refused);
      });
    for (const ex of provokedWithToken(dataset, false)) await verify(ex, refused);
  });

  test('INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (create, property)', requirement('INPUT-03'), async ({ api, verify, kit }, testInfo) => {
    const field = fc.constantFrom('Name', 'Title', 'Description', 'GroupType', 'ProjectName');
    // Every run also tries an integer too large for 64 bits, written as digits (36893488147419103000): Mojo::JSON
    // decodes such a literal as a string, so a Mojolicious server built blind from the spec took it as a Name.
    // The generated doubles reach that range only by chance.
    const examples: [string, unknown][] = [['Name', 2 ** 65]];
    // A Name of another type carries no prefix: the Title does then, so a target that coerces it still files the group under this run.
    const answer = await sentAhead(
      kit.config,
      [field, notAString],
      (name, value) => sendCreate(api, { ...createBody(api, 'input-type'), ...(name === 'Name' ? { Title: api.uniqueName('no-name') } : {}), [name]: value }),
      examples,
    );
    await checkProperty(
      testInfo,
      kit.config,
      fc.asyncProperty(field, notAString, async (name, value) => {
        await verify(await answer(name, value), refused);
      }),
      { examples },
    );
  });

  test(
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (list, property)',
    requirement('INPUT-03'),
    async ({ api, dataset, verify, kit, profile }, testInfo) => {
      const { list } = profile;
      const { filterField, filters } = list;
      // A filter the target ignores, or reads under another name, says nothing by what it makes of a wrong type there:
      // an ignored filter is its owner's finding (LIST-0x), another name a profile mismatch.
      const unread = (Object.keys(VALUE_FILTERS) as ValueFilter[]).filter(
        (key) => dataset.ignoredFilters?.includes(key) || dataset.profileMismatch?.filters?.[key],
      );
      for (const key of unread)
        recordNote(
          testInfo,
          'notAssessedHere',
          `${filterLabel(list, filters[key])}: ${dataset.profileMismatch?.filters?.[key] ?? `ignored (${VALUE_FILTERS[key]})`}`,
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
      if (!idFilterKnown)
        recordNote(testInfo, 'notAssessedHere', `${filterLabel(list, filters.groupIds)}: ${dataset.profileMismatch?.idFilter ?? 'ignored (LIST-04)'}`);
      // A filter object of the wrong type, only where the target showed it reads filters from one.
      const objectRead = filterField !== '' && (idFilterKnown || read.length > 0);
      const arbitraries = [...wrongFilter, ...(idFilterKnown ? [wrongIds] : []), ...(objectRead ? [wrongFilterObject] : [])];
      test.skip(arbitraries.length === 0, 'not assessable: the target showed it reads none of the list filters the profile names');
      const wrongBody = fc.oneof(...arbitraries);
      const answer = await sentAhead(kit.config, [wrongBody], (body) => api.call('ListAssetGroups', body));
      await checkProperty(
        testInfo,
        kit.config,
        fc.asyncProperty(wrongBody, async (body) => {
          await verify(await answer(body), refused);
        }),
      );
    },
  );

  test("INPUT-04 Create fields beyond the profile's bounds get 400 AssetError", requirement('INPUT-04'), async ({ api, verify, profile, kit }, testInfo) => {
    const { maxLength, requiredFields } = profile.create;
    const cases: [string, Record<string, unknown>, { field: string; max: number }?][] = [];
    // Where the Name is what is tested, the Title carries the run's prefix: a target that accepts it still files the group under this run.
    const titled = (body: Record<string, unknown>) => ({ ...body, Title: api.uniqueName('no-name') });
    for (const field of requiredFields) {
      const { [field]: _dropped, ...without } = createBody(api, 'input-missing') as Record<string, unknown>;
      cases.push([`${field} missing`, field === 'Name' ? titled(without) : without]);
    }
    if (requiredFields.includes('Name')) cases.push(['Name empty', titled({ ...createBody(api, 'x'), Name: '' })]);
    for (const [field, max] of Object.entries(maxLength)) {
      const base = createBody(api, 'input-long') as Record<string, unknown>;
      // The Name keeps the run prefix so that a target that wrongly accepts it still files it under this run.
      const value = field === 'Name' ? `${base.Name}`.padEnd(max + 1, 'x') : 'x'.repeat(max + 1);
      cases.push([`${field} of ${max + 1} characters`, { ...base, [field]: value }, { field, max }]);
    }
    const rejects = errorWith(400);
    const next = inTurn(
      await ahead(
        cases.map(
          ([, body]) =>
            () =>
              sendCreate(api, body),
        ),
      ),
    );
    for (const [what, body, bound] of cases) {
      await test.step(what, async () => {
        const answer = await next();
        // One past the profile's bound accepted: a target with a larger bound of its own refuses a value far beyond
        // it (a profile mismatch). One that accepts that too has no bound near the profile's: the spec shows none
        // ("Length bounds ... not shown"), so only a bound the target's own profile states (AG_PROFILE) is a failure.
        // A required field left out, or Name empty, accepted: which fields are required is not shown, so the target
        // made another choice (an optional Name), not a mistake; the profile's requiredFields say otherwise.
        if (!bound && answer.response?.status === 200) {
          const field = what.split(' ')[0];
          const hint = `a create with ${what} was accepted: the target does not require ${field}; set create.requiredFields without ${field}`;
          recordProfileMismatch(testInfo, hint);
        }
        if (bound && answer.response?.status === 200) {
          const far = await sendCreate(api, { ...body, [bound.field]: `${body[bound.field]}`.padEnd(bound.max * 16 + 1, 'y') });
          if ((far.response?.status ?? 0) >= 400 && (far.response?.status ?? 0) < 500) {
            const hint = `${bound.field} of ${bound.max + 1} characters was accepted and one of ${bound.max * 16 + 1} refused: the target's bound lies between; set create.maxLength.${bound.field}`;
            recordProfileMismatch(testInfo, hint);
          }
          if (far.response?.status === 200 && !kit.config.profilePath) {
            const hint = `${bound.field} of ${bound.max + 1} and of ${bound.max * 16 + 1} characters were accepted: the target has no bound near the reference profile's ${bound.max}, and the spec shows none; set create.maxLength.${bound.field} to its bound, or null for none`;
            recordProfileMismatch(testInfo, hint);
          }
        }
        await verify(answer, rejects);
      });
    }
  });

  test('INPUT-05 An unknown Action gets a 4xx', requirement('INPUT-05'), async ({ api, verify }) => {
    const actions = ['NoSuchAction', 'listassetgroups', null];
    const next = inTurn(await ahead(actions.map((action) => () => api.call(action, {}, { shared: true }))));
    for (const action of actions) {
      await test.step(`Action ${JSON.stringify(action)}`, async () => {
        const answer = await next();
        // The spec names the operations, not the case of their names: ASP.NET Core binds an enum ignoring case, so
        // listassetgroups may select ListAssetGroups. Refused, or answered as that list; never anything else.
        const servedAsList = action === 'listassetgroups' && (answer.response?.status ?? 0) < 300;
        await verify(answer, servedAsList ? LISTED : refusedWithEnvelope);
      });
    }
  });

  test('INPUT-06 An unsupported Version gets a 4xx', requirement('INPUT-06'), async ({ api, verify }) => {
    const versions = ['1999-01-01', '2024-1-1', null];
    const next = inTurn(await ahead(versions.map((version) => () => api.call('ListAssetGroups', {}, { version, shared: true }))));
    for (const version of versions) {
      await test.step(`Version ${JSON.stringify(version)}`, async () => {
        const answer = await next();
        await verify(answer, refusedWithEnvelope);
      });
    }
  });

  test('INPUT-07 Unusual Unicode in string fields never gets a 5xx', requirement('INPUT-07'), async ({ api, verify, profile }) => {
    // JSON lets these through; RFC 8259 leaves their meaning open, so only the absence of a 5xx is
    // judged. Well-formed text of every plane must round-trip: that is CREATE-02's and CREATE-05's.
    const odd = ['\ud800', '\udfff x', 'a\u0000b', '\u202e\u2066rtl\u2069', '\ufeffbom', 'e\u0301\u0301\u0301', '\u{10ffff}'];
    // Four texts a create, one in each free text field (the Name keeps the run's prefix): two groups, not seven.
    const creates = [odd.slice(0, 4), odd.slice(4)].map(([name, title, description, project]) => ({
      ...createBody(api, 'unicode'),
      ...(name !== undefined ? { Name: `${createBody(api, 'unicode').Name}-${name}` } : {}),
      ...(title !== undefined ? { Title: title } : {}),
      ...(description !== undefined ? { Description: description } : {}),
      ...(project !== undefined ? { ProjectName: project } : {}),
    }));
    const answers = await ahead([
      ...creates.map((body) => () => sendCreate(api, body)),
      ...odd.map((text) => () => api.call('ListAssetGroups', listBody(profile, { name: text }))),
    ]);
    for (const [i, body] of creates.entries())
      await test.step(`CreateAssetGroup ${JSON.stringify(body)}`, async () => verify(await answers[i], [noServerError]));
    for (const [i, text] of odd.entries())
      await test.step(`Name filter ${JSON.stringify(text)}`, async () => verify(await answers[creates.length + i], [noServerError]));
  });

  test('INPUT-08 A 429 answer carries a Retry-After header', requirement('INPUT-08'), async ({ dataset, verify }) => {
    test.skip(dataset.rateLimited.length === 0, 'the target answered no 429 during the run, so there was nothing to observe');
    // A 429 is an error answer like any other: its body is this API's (a rate limiter's own page is ENV-05's finding), its kind the table's.
    for (const exchange of dataset.rateLimited) await verify(exchange, [...ERROR_BODY, retryAfterHeader]);
  });
});
