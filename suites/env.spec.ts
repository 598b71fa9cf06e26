import { test, requirement } from './fixtures';
import { onSuccesses, provokedErrors, successes } from './dataset-needs';
import {
  ERROR_ENVELOPE,
  JSON_ANSWER,
  distinctRequestIds,
  envelopeOf,
  envelopePresent,
  jsonContentType,
  requestIdNonEmpty,
  resultPresent,
  sameService,
} from './checks';

// The answers judged here were sent once, by the create-and-wait phase (suites/dataset-setup.ts): the
// run's first create, the preflight's list with body {}, and the client mistakes it provoked.
// Reading them costs the target no request.

test.describe('ENV envelope and content type', () => {
  test(
    'ENV-01 A successful response carries ResponseMetadata with RequestId, Action, Version, Service and Region',
    requirement('ENV-01'),
    async ({ dataset, verify }) => {
      await onSuccesses(dataset, verify, () => [envelopePresent]);
      // Every create of the run answered 200 is a success to read too, whichever token sent it.
      for (const group of dataset.groups.filter((g) => g.create.response?.status === 200)) await verify(group.create, [JSON_ANSWER, envelopePresent]);
    },
  );

  test(
    'ENV-02 An error response carries ResponseMetadata with RequestId, Action, Version, Service and Region',
    requirement('ENV-02'),
    async ({ dataset, verify }) => {
      // A gap the run's successes share is the envelope's everywhere, ENV-01's one finding.
      for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...ERROR_ENVELOPE]);
    },
  );

  test('ENV-03 ResponseMetadata.RequestId is a non-empty string', requirement('ENV-03'), async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, (ex) => [...envelopeOf(ex), requestIdNonEmpty]);
    for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), requestIdNonEmpty]);
  });

  test('ENV-04 Distinct requests get distinct RequestIds', requirement('ENV-04'), async ({ dataset, judge }) => {
    // Every answer of the phase: the list, the creates of every token, the provoked errors. Those without a RequestId are ENV-03's.
    await judge([dataset.shared.emptyList, ...dataset.groups.map((g) => g.create), ...dataset.shared.provoked], distinctRequestIds);
  });

  test('ENV-05 Responses are JSON with a JSON content type', requirement('ENV-05'), async ({ dataset, verify }) => {
    const judged = [...successes(dataset).map((s) => s.exchange), ...dataset.shared.provoked];
    // Every other create of the run that was answered, whichever token sent it: a gateway's HTML page may answer any one.
    const creates = dataset.groups.map((g) => g.create).filter((ex) => ex.response && !judged.includes(ex));
    for (const ex of [...judged, ...creates]) await verify(ex, [jsonContentType]);
  });

  test('ENV-06 A successful response carries a Result object', requirement('ENV-06'), async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, () => [resultPresent]);
  });

  test('ENV-07 ResponseMetadata.Service names the same service on every response', requirement('ENV-07'), async ({ dataset, judge }) => {
    await judge([dataset.shared.emptyList, ...dataset.groups.map((g) => g.create), ...dataset.shared.provoked], sameService);
  });
});
