/**
 * INPUT: malformed and unusual input. The family's declared tests and the plans of their requests that need no earlier
 * answer.
 */
import fc from 'fast-check';
import { test } from '@playwright/test';
import type { Api } from '../api';
import { checkProperty } from '../property';
import {
  ERROR_BODY,
  JSON_ANSWER,
  LISTED,
  NOT_AS_SUCCESS,
  clientError,
  ERROR_ENVELOPE,
  errorKindReadable,
  errorWith,
  noServerError,
  owned,
  retryAfterHeader,
  type Step,
} from '../checks';
import { VALUE_FILTERS, type Dataset } from '../dataset';
import { declareTest, type TestGroup } from '../declare';
import { declarePlan, declareProperty, listRequest, ODD_NAME_FILTER, ODD_TEXTS, plannedAhead, UNKNOWN_ACTIONS, UNSUPPORTED_VERSIONS } from '../plans';
import {
  WRONG_TYPE_EXAMPLES,
  unknownActionRequests,
  beyondBounds,
  createField,
  malformedBodies,
  notAString,
  notObjects,
  unusualUnicode,
  unsupportedVersionRequests,
  wrongListBodies,
  wrongTypeCreate,
} from '../plans/input';
import { recordNote, recordProfileMismatch } from '../../facts/record';
import type { Exchange } from '../../client/exchange';
import { isJsonText } from '../../schemas/spec';
import { filterLabel } from '../../schemas/profile';

export const INPUT_01 = declarePlan('INPUT-01', ({ config }) => malformedBodies(config).plannedRequests);
export const INPUT_02 = declarePlan('INPUT-02', ({ config }) => notObjects(config).map(({ planned }) => planned));
export const INPUT_03_CREATE = declareProperty('INPUT-03 create', ({ config }) => ({
  arbitraries: [createField, notAString],
  examples: WRONG_TYPE_EXAMPLES,
  request: (name: string, value: unknown) => wrongTypeCreate(config, name, value),
}));
export const INPUT_03_LIST = declareProperty('INPUT-03 list', ({ profile, dataset }) => {
  const { wrongBody, examples } = wrongListBodies(profile, dataset);
  return wrongBody && { arbitraries: [wrongBody], examples, request: (body: unknown) => listRequest(body) };
});
export const INPUT_04 = declarePlan('INPUT-04', ({ config, profile }) => beyondBounds(config, profile).map(({ planned }) => planned));
export const INPUT_05 = declarePlan('INPUT-05', () => unknownActionRequests());
export const INPUT_06 = declarePlan('INPUT-06', () => unsupportedVersionRequests());
export const INPUT_07 = declarePlan('INPUT-07', ({ config, profile }) => unusualUnicode(config, profile).plannedRequests);

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

export const INPUT_01_TEST = declareTest({
  id: 'INPUT-01',
  plans: [INPUT_01],
  judge: ([answers], { config, dataset }) => {
    // Truncated JSON was sent to each operation by the create-and-wait phase (judged below with the rest).
    const { bodies: malformed } = malformedBodies(config);
    return [
      ...malformed.flatMap((body, i) => [
        { answer: answers[2 * i], step: `CreateAssetGroup ${JSON.stringify(body)}`, steps: refused },
        { answer: answers[2 * i + 1], step: `ListAssetGroups ${JSON.stringify(body)}`, steps: refused },
      ]),
      { answer: answers[2 * malformed.length], steps: refused },
      // The same mistakes sent once beside the run's creates: every provoked bad request is judged, whatever it got.
      ...provokedWithToken(dataset, true).map((answer) => ({ answer, steps: refused })),
    ];
  },
});

export const INPUT_02_TEST = declareTest({
  id: 'INPUT-02',
  plans: [INPUT_02],
  // An array holding a valid body too, and the create-and-wait phase's two (judged below): see notObjects.
  judge: ([answers], { config, dataset }) => [
    ...notObjects(config).map(({ op, body }, i) => {
      const answer = answers[i];
      // null is JSON's "no value": a list that reads it as no body (Go's encoding/json leaves the request struct
      // empty) answers what {} gets, which the spec calls valid. A create read so has no Name and is refused anyway.
      const readAsEmpty = op === 'ListAssetGroups' && body === null && answer.response?.status === 200;
      return { answer, step: `${op} ${JSON.stringify(body)}`, steps: readAsEmpty ? LISTED : refused };
    }),
    ...provokedWithToken(dataset, false).map((answer) => ({ answer, steps: refused })),
  ],
});

export const INPUT_03_CREATE_TEST = declareTest({
  id: 'INPUT-03',
  aside: '(create, property)',
  plans: [INPUT_03_CREATE],
  groups: false,
  run: async ({ plan, verify, kit, testInfo }) => {
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
});

export const INPUT_03_LIST_TEST = declareTest({
  id: 'INPUT-03',
  aside: '(list, property)',
  plans: [INPUT_03_LIST],
  run: async ({ plan, dataset, verify, kit, profile, testInfo }) => {
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
});

// Its own follow-up (a value far beyond the bound) is sent once an answer accepted a value one past it, before that
// answer is judged: it sends as it judges.
export const INPUT_04_TEST = declareTest({
  id: 'INPUT-04',
  plans: [INPUT_04],
  groups: false,
  run: async ({ api, plan, verify, profile, kit, testInfo }) => {
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
});

export const INPUT_05_TEST = declareTest({
  id: 'INPUT-05',
  plans: [INPUT_05],
  groups: false,
  judge: ([answers]) =>
    UNKNOWN_ACTIONS.map((action, i) => {
      const answer = answers[i];
      // The spec names the operations, not the case of their names: ASP.NET Core binds an enum ignoring case, so
      // listassetgroups may select ListAssetGroups. Refused, or answered as that list; never anything else.
      const servedAsList = action === 'listassetgroups' && (answer.response?.status ?? 0) < 300;
      return { answer, step: `Action ${JSON.stringify(action)}`, steps: servedAsList ? LISTED : refusedWithEnvelope };
    }),
});

export const INPUT_06_TEST = declareTest({
  id: 'INPUT-06',
  plans: [INPUT_06],
  groups: false,
  judge: ([answers]) =>
    UNSUPPORTED_VERSIONS.map((version, i) => ({ answer: answers[i], step: `Version ${JSON.stringify(version)}`, steps: refusedWithEnvelope })),
});

// Each text alone is sent only where the filter of them all was not taken, and only once the creates were judged.
export const INPUT_07_TEST = declareTest({
  id: 'INPUT-07',
  plans: [INPUT_07],
  groups: false,
  run: async ({ api, plan, verify, profile, kit }) => {
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
  },
});

export const INPUT_08_TEST = declareTest({
  id: 'INPUT-08',
  needs: ({ dataset }) => test.skip(dataset.rateLimited.length === 0, 'the target answered no 429 during the run, so there was nothing to observe'),
  // A 429 is an error answer like any other: its body is this API's (a rate limiter's own page is ENV-05's finding), its kind the table's.
  judge: (_, { dataset }) => dataset.rateLimited.map((answer) => ({ answer, steps: [...ERROR_BODY, retryAfterHeader] })),
});

export const INPUT: readonly TestGroup[] = [
  {
    describe: 'INPUT handling of bad input',
    tests: [INPUT_01_TEST, INPUT_02_TEST, INPUT_03_CREATE_TEST, INPUT_03_LIST_TEST, INPUT_04_TEST, INPUT_05_TEST, INPUT_06_TEST, INPUT_07_TEST, INPUT_08_TEST],
  },
];
