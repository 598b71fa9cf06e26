import { test, requirement } from './fixtures';
import { provokedErrors } from './dataset-needs';
import { JSON_ANSWER, documentedStatus, envelopeOf, errorBodyShape, errorKindFitsStatus, errorKindReadable, errorNotAsSuccess, owned } from './checks';

// The errors judged here are the client mistakes the create-and-wait phase provoked (suites/dataset-setup.ts).

test.describe('ERR error body and error kinds', () => {
  test("ERR-01 Error bodies have the profile's error shape", requirement('ERR-01'), async ({ dataset, verify }) => {
    for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), errorBodyShape]);
  });

  test("ERR-02 The error kind fits the status and the operation as the spec's error table gives it", requirement('ERR-02'), async ({ dataset, verify }) => {
    // Any mistake answered 2xx with an error part, token or not: an error answered as a success has no status of the table.
    for (const ex of dataset.shared.provoked.filter((e) => (e.response?.status ?? 0) < 300)) await verify(ex, [errorNotAsSuccess]);
    // Answers to requests without a token are AUTH's to judge (status and kind); the others are judged here.
    const authorized = provokedErrors(dataset).filter((ex) => ex.request.headers.authorization !== undefined);
    for (const ex of authorized) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), owned('ERR-01', errorKindReadable), errorKindFitsStatus]);
  });

  test('ERR-03 Error statuses are among those documented for the operation', requirement('ERR-03'), async ({ dataset, verify }) => {
    for (const ex of provokedErrors(dataset)) await verify(ex, [documentedStatus]);
  });
});
