import { test, requirement, RawBody, groupsOf, type Api, type Verify } from './fixtures';
import type { Dataset } from './dataset';
import {
  JSON_ANSWER,
  distinctRequestIds,
  echoesAction,
  echoesVersion,
  envelopeOf,
  envelopePresent,
  jsonContentType,
  requestIdNonEmpty,
  resultPresent,
  succeeded,
  type Step,
} from './checks';
import type { Exchange } from './exchange';
import { together } from './api';

/**
 * One valid request of each operation, each with the requirement that owns its success. The create
 * is the run's first, from the shared create phase: another create here would only add load.
 */
function validCalls(api: Api, dataset: Dataset): { owner: string; call: () => Promise<Exchange> }[] {
  return [
    { owner: 'CREATE-01', call: async () => groupsOf(dataset, (g) => g.key === 'p0', { visible: false })[0].create },
    { owner: 'LIST-01', call: () => api.call('ListAssetGroups', {}) },
  ];
}

/**
 * Answers the kit provokes on purpose: client mistakes the spec documents an error for (no token,
 * a malformed body). Whether they are refused is AUTH's and INPUT's to judge; here only the
 * answers that are errors are read.
 */
function errorCalls(api: Api): (() => Promise<Exchange>)[] {
  return [
    () => api.call('CreateAssetGroup', { Name: api.uniqueName('env-noauth'), GroupType: 'AIGC' }, { as: null }),
    () => api.call('ListAssetGroups', {}, { as: null }),
    () => api.call('ListAssetGroups', new RawBody('{"unterminated": ')),
  ];
}

/** The valid calls' answers, each judged only once its owner's 200 holds. */
async function successes(api: Api, dataset: Dataset, verify: Verify, own: (ex: Exchange) => Step[]): Promise<void> {
  const calls = validCalls(api, dataset);
  const answers = await together(calls.map((c) => c.call));
  for (const [i, ex] of answers.entries()) await verify(ex, [...succeeded(calls[i].owner), JSON_ANSWER, ...own(ex)]);
}

/** The error answers among the provoked ones; none at all leaves nothing to judge, which is not a pass. */
async function errors(api: Api): Promise<Exchange[]> {
  const answers = (await together(errorCalls(api))).filter((ex) => (ex.response?.status ?? 0) >= 400);
  test.skip(answers.length === 0, 'not assessable: none of the provoked client mistakes was answered with an error');
  return answers;
}

test.describe('ENV envelope and content type', () => {
  test('ENV-01 A successful response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-01'), async ({ api, dataset, verify }) => {
    await successes(api, dataset, verify, () => [envelopePresent]);
    // Every create of the run answered 200 is a success to read too, whichever token sent it: no request needed.
    for (const group of dataset.groups.filter((g) => g.create.response?.status === 200)) await verify(group.create, [JSON_ANSWER, envelopePresent]);
  });

  test('ENV-02 An error response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-02'), async ({ api, verify }) => {
    for (const ex of await errors(api)) await verify(ex, [JSON_ANSWER, envelopePresent]);
  });

  test('ENV-03 ResponseMetadata.RequestId is a non-empty string', requirement('ENV-03'), async ({ api, dataset, verify }) => {
    await successes(api, dataset, verify, (ex) => [envelopeOf(ex), requestIdNonEmpty]);
    for (const ex of await errors(api)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), requestIdNonEmpty]);
  });

  test('ENV-04 Distinct requests get distinct RequestIds', requirement('ENV-04'), async ({ api, judge }) => {
    // Answers without a RequestId are ENV-03's finding; only those that have one are compared.
    const answers = await together([...errorCalls(api), ...[0, 1, 2, 3].map(() => () => api.call('ListAssetGroups', {}))]);
    await judge(answers, distinctRequestIds);
  });

  test('ENV-05 Responses are JSON with a JSON content type', requirement('ENV-05'), async ({ api, dataset, verify }) => {
    const answers = await together([...validCalls(api, dataset).map((c) => c.call), ...errorCalls(api)]);
    for (const ex of answers) await verify(ex, [jsonContentType]);
  });

  test('ENV-06 A successful response carries a Result object', requirement('ENV-06'), async ({ api, dataset, verify }) => {
    await successes(api, dataset, verify, () => [resultPresent]);
  });
});

test.describe('VER Version and Action echo', () => {
  test('VER-01 ResponseMetadata.Version echoes the Version of the request', requirement('VER-01'), async ({ api, dataset, verify }) => {
    await test.step('on successes', async () => successes(api, dataset, verify, (ex) => [envelopeOf(ex), echoesVersion]));
    await test.step('on errors', async () => {
      for (const ex of await errors(api)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesVersion]);
    });
  });

  test('VER-02 ResponseMetadata.Action echoes the Action of the request', requirement('VER-02'), async ({ api, dataset, verify }) => {
    await test.step('on successes', async () => successes(api, dataset, verify, (ex) => [envelopeOf(ex), echoesAction]));
    await test.step('on errors', async () => {
      for (const ex of await errors(api)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesAction]);
    });
  });

  test('VER-03 An answer to an unsupported Version echoes the Version that was sent', requirement('VER-03'), async ({ api, verify }) => {
    // Any status is acceptable here (behaviour with other Versions is not shown); only the echo is judged.
    const ex = await api.call('ListAssetGroups', {}, { version: '1999-01-01' });
    await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesVersion]);
  });

  test('VER-04 An answer to an unknown Action echoes the Action that was sent', requirement('VER-04'), async ({ api, verify }) => {
    const ex = await api.call('NoSuchAction', {});
    await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesAction]);
  });
});
