import fc from 'fast-check';
import { test, requirement, LISTED, type Api } from './fixtures';
import { checkProperty } from './property';
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
import { VALUE_FILTERS, type Dataset } from './dataset';
import {
  beyondBounds,
  createField,
  malformedBodies,
  notAString,
  notObjects,
  ODD_NAME_FILTER,
  ODD_TEXTS,
  plannedAhead,
  UNKNOWN_ACTIONS,
  UNSUPPORTED_VERSIONS,
  unusualUnicode,
  WRONG_TYPE_EXAMPLES,
  wrongListBodies,
} from './plans';
import { INPUT_01, INPUT_02, INPUT_03_CREATE, INPUT_03_LIST, INPUT_04, INPUT_05, INPUT_06, INPUT_07 } from './families/input';
import { recordNote, recordProfileMismatch } from '../facts/record';
import type { Exchange } from '../client/exchange';
import { isJsonText } from '../schemas/spec';
import { filterLabel } from '../schemas/profile';

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

/** Creates go through the retrying client: a 429 says nothing about how the body was judged. */
async function sendCreate(api: Api, body: unknown): Promise<Exchange> {
  return (await api.create(body as Record<string, unknown>)).exchange;
}

/** The next answer, in the order the requests were listed to ahead() (client/concurrency.ts). */
const inTurn =
  <T>(answers: Promise<T>[]) =>
  () =>
    answers.shift()!;

test.describe('INPUT handling of bad input', () => {
  test('INPUT-01 Malformed JSON gets a 4xx, never a 5xx', requirement('INPUT-01', INPUT_01), async ({ plan, dataset, verify, kit }) => {
    // Truncated JSON was sent to each operation by the create-and-wait phase (judged below with the rest).
    const { bodies: malformed } = malformedBodies(kit.config);
    const next = inTurn(await plan.ahead(INPUT_01));
    for (const body of malformed) {
      await test.step(`CreateAssetGroup ${JSON.stringify(body)}`, async () => verify(await next(), refused));
      await test.step(`ListAssetGroups ${JSON.stringify(body)}`, async () => verify(await next(), refused));
    }
    await verify(await next(), refused);
    // The same mistakes sent once beside the run's creates: every provoked bad request is judged, whatever it got.
    for (const ex of provokedWithToken(dataset, true)) await verify(ex, refused);
  });

  test('INPUT-02 A JSON body that is not an object gets a 4xx, never a 5xx', requirement('INPUT-02', INPUT_02), async ({ plan, dataset, verify, kit }) => {
    // An array holding a valid body too, and the create-and-wait phase's two (judged below): see notObjects.
    const sends = notObjects(kit.config);
    const next = inTurn(await plan.ahead(INPUT_02));
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

  test(
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (create, property)',
    requirement('INPUT-03', INPUT_03_CREATE),
    async ({ plan, verify, kit }, testInfo) => {
      // Every run also tries an integer too large for 64 bits (WRONG_TYPE_EXAMPLES).
      const examples = WRONG_TYPE_EXAMPLES;
      const answer = (await plan.property(INPUT_03_CREATE))!;
      await checkProperty(
        testInfo,
        kit.config,
        fc.asyncProperty(createField, notAString, async (name, value) => {
          await verify(await answer(name, value), refused);
        }),
        { examples },
      );
    },
  );

  test(
    'INPUT-03 Fields of the wrong type get a 4xx, never a 5xx (list, property)',
    requirement('INPUT-03', INPUT_03_LIST),
    async ({ plan, dataset, verify, kit, profile }, testInfo) => {
      const { list } = profile;
      const { unread, idFilterKnown, wrongBody, examples } = wrongListBodies(profile, dataset);
      for (const key of unread)
        recordNote(
          testInfo,
          'notAssessedHere',
          `${filterLabel(list, list.filters[key])}: ${dataset.profileMismatch?.filters?.[key] ?? `ignored (${VALUE_FILTERS[key]})`}`,
        );
      if (!idFilterKnown)
        recordNote(testInfo, 'notAssessedHere', `${filterLabel(list, list.filters.groupIds)}: ${dataset.profileMismatch?.idFilter ?? 'ignored (LIST-04)'}`);
      test.skip(!wrongBody, 'not assessable: the target showed it reads none of the list filters the profile names');
      const answer = (await plan.property(INPUT_03_LIST))!;
      await checkProperty(
        testInfo,
        kit.config,
        fc.asyncProperty(wrongBody!, async (body) => {
          await verify(await answer(body), refused);
        }),
        { examples },
      );
    },
  );

  test(
    "INPUT-04 Create fields beyond the profile's bounds get 400 AssetError",
    requirement('INPUT-04', INPUT_04),
    async ({ api, plan, verify, profile, kit }, testInfo) => {
      const cases = beyondBounds(kit.config, profile);
      const rejects = errorWith(400);
      const next = inTurn(await plan.ahead(INPUT_04));
      for (const { what, body, bound } of cases) {
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
    },
  );

  test('INPUT-05 An unknown Action gets a 4xx', requirement('INPUT-05', INPUT_05), async ({ plan, verify }) => {
    const next = inTurn(await plan.ahead(INPUT_05));
    for (const action of UNKNOWN_ACTIONS) {
      await test.step(`Action ${JSON.stringify(action)}`, async () => {
        const answer = await next();
        // The spec names the operations, not the case of their names: ASP.NET Core binds an enum ignoring case, so
        // listassetgroups may select ListAssetGroups. Refused, or answered as that list; never anything else.
        const servedAsList = action === 'listassetgroups' && (answer.response?.status ?? 0) < 300;
        await verify(answer, servedAsList ? LISTED : refusedWithEnvelope);
      });
    }
  });

  test('INPUT-06 An unsupported Version gets a 4xx', requirement('INPUT-06', INPUT_06), async ({ plan, verify }) => {
    const next = inTurn(await plan.ahead(INPUT_06));
    for (const version of UNSUPPORTED_VERSIONS) {
      await test.step(`Version ${JSON.stringify(version)}`, async () => {
        const answer = await next();
        await verify(answer, refusedWithEnvelope);
      });
    }
  });

  test('INPUT-07 Unusual Unicode in string fields never gets a 5xx', requirement('INPUT-07', INPUT_07), async ({ api, plan, verify, profile, kit }) => {
    // JSON lets these through; RFC 8259 leaves their meaning open, so only the absence of a 5xx is
    // judged. Well-formed text of every plane must round-trip: that is CREATE-02's and CREATE-05's.
    const { creates, oneByOne } = unusualUnicode(kit.config, profile);
    const answers = await plan.ahead(INPUT_07);
    for (const [i, body] of creates.entries())
      await test.step(`CreateAssetGroup ${JSON.stringify(body)}`, async () => verify(await answers[i], [noServerError]));
    const together = await answers[creates.length];
    const status = together.response?.status ?? 0;
    // Not taken whole: each text alone too, so that one refused does not hide another's 5xx, and a 5xx names its text.
    if (status < 200 || status >= 300) {
      const alone = await plannedAhead(api, oneByOne);
      for (const [i, text] of ODD_TEXTS.entries()) await test.step(`Name filter ${JSON.stringify(text)}`, async () => verify(await alone[i], [noServerError]));
    }
    await test.step(`Name filter ${JSON.stringify(ODD_NAME_FILTER)}`, async () => verify(together, [noServerError]));
  });

  test('INPUT-08 A 429 answer carries a Retry-After header', requirement('INPUT-08'), async ({ dataset, verify }) => {
    test.skip(dataset.rateLimited.length === 0, 'the target answered no 429 during the run, so there was nothing to observe');
    // A 429 is an error answer like any other: its body is this API's (a rate limiter's own page is ENV-05's finding), its kind the table's.
    for (const exchange of dataset.rateLimited) await verify(exchange, [...ERROR_BODY, retryAfterHeader]);
  });
});
