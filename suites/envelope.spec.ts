import { test, requirement, groupsOf, type Verify } from './fixtures';
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
import type { Exchange } from '../client/exchange';

// The answers judged here were sent once, by the create-and-wait phase (suites/dataset.ts): the
// run's first create, the preflight's list with body {}, and the client mistakes it provoked.
// Reading them costs the target no request.

/** A valid request of each operation, with the requirement that owns its success. */
function successes(dataset: Dataset): { owner: string; exchange: Exchange }[] {
  return [
    { owner: 'CREATE-01', exchange: groupsOf(dataset, (g) => g.key === 'p0', { visible: false })[0].create },
    { owner: 'LIST-01', exchange: dataset.shared.emptyList },
  ];
}

/** Each valid call's answer, judged only once its owner's 200 holds. */
async function onSuccesses(dataset: Dataset, verify: Verify, own: (ex: Exchange) => Step[]): Promise<void> {
  for (const { owner, exchange } of successes(dataset)) await verify(exchange, [...succeeded(owner), JSON_ANSWER, ...own(exchange)]);
}

/** The answers to the provoked mistakes that are errors; whether each was refused is AUTH's and INPUT's. None at all: not assessable. */
function errors(dataset: Dataset): Exchange[] {
  const errored = dataset.shared.provoked.filter((ex) => (ex.response?.status ?? 0) >= 400);
  test.skip(errored.length === 0, 'not assessable: none of the provoked client mistakes was answered with an error');
  return errored;
}

test.describe('ENV envelope and content type', () => {
  test('ENV-01 A successful response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-01'), async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, () => [envelopePresent]);
    // Every create of the run answered 200 is a success to read too, whichever token sent it.
    for (const group of dataset.groups.filter((g) => g.create.response?.status === 200)) await verify(group.create, [JSON_ANSWER, envelopePresent]);
  });

  test('ENV-02 An error response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-02'), async ({ dataset, verify }) => {
    for (const ex of errors(dataset)) await verify(ex, [JSON_ANSWER, envelopePresent]);
  });

  test('ENV-03 ResponseMetadata.RequestId is a non-empty string', requirement('ENV-03'), async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, (ex) => [envelopeOf(ex), requestIdNonEmpty]);
    for (const ex of errors(dataset)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), requestIdNonEmpty]);
  });

  test('ENV-04 Distinct requests get distinct RequestIds', requirement('ENV-04'), async ({ dataset, judge }) => {
    // Every answer of the phase: the list, the creates of every token, the provoked errors. Those without a RequestId are ENV-03's.
    await judge([dataset.shared.emptyList, ...dataset.groups.map((g) => g.create), ...dataset.shared.provoked], distinctRequestIds);
  });

  test('ENV-05 Responses are JSON with a JSON content type', requirement('ENV-05'), async ({ dataset, verify }) => {
    for (const ex of [...successes(dataset).map((s) => s.exchange), ...dataset.shared.provoked]) await verify(ex, [jsonContentType]);
  });

  test('ENV-06 A successful response carries a Result object', requirement('ENV-06'), async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, () => [resultPresent]);
  });
});

test.describe('VER Version and Action echo', () => {
  test('VER-01 ResponseMetadata.Version echoes the Version of the request', requirement('VER-01'), async ({ dataset, verify }) => {
    await test.step('on successes', async () => onSuccesses(dataset, verify, (ex) => [envelopeOf(ex), echoesVersion]));
    await test.step('on errors', async () => {
      for (const ex of errors(dataset)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesVersion]);
    });
  });

  test('VER-02 ResponseMetadata.Action echoes the Action of the request', requirement('VER-02'), async ({ dataset, verify }) => {
    await test.step('on successes', async () => onSuccesses(dataset, verify, (ex) => [envelopeOf(ex), echoesAction]));
    await test.step('on errors', async () => {
      for (const ex of errors(dataset)) await verify(ex, [JSON_ANSWER, envelopeOf(ex), echoesAction]);
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
