import { test, requirement } from './fixtures';
import { onSuccesses, provokedErrors } from './dataset-needs';
import { JSON_ANSWER, echoesAction, echoesVersion, envelopeOf } from './checks';

// Successes and errors judged here were sent once, by the create-and-wait phase (suites/dataset-setup.ts);
// VER-03 and VER-04 send their own, the very requests INPUT-06 and INPUT-05 send: one answer each judges.

test.describe('VER Version and Action echo', () => {
  test('VER-01 ResponseMetadata.Version echoes the Version of the request', requirement('VER-01'), async ({ dataset, verify }) => {
    await test.step('on successes', async () => onSuccesses(dataset, verify, (ex) => [...envelopeOf(ex), echoesVersion]));
    await test.step('on errors', async () => {
      for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), echoesVersion]);
    });
  });

  test('VER-02 ResponseMetadata.Action echoes the Action of the request', requirement('VER-02'), async ({ dataset, verify }) => {
    await test.step('on successes', async () => onSuccesses(dataset, verify, (ex) => [...envelopeOf(ex), echoesAction]));
    await test.step('on errors', async () => {
      for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), echoesAction]);
    });
  });

  test('VER-03 An answer to an unsupported Version echoes the Version that was sent', requirement('VER-03'), async ({ api, verify }) => {
    // Any status is acceptable here (behaviour with other Versions is not shown); only the echo is judged.
    const ex = await api.call('ListAssetGroups', {}, { version: '1999-01-01', shared: true });
    await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), echoesVersion]);
  });

  test('VER-04 An answer to an unknown Action echoes the Action that was sent', requirement('VER-04'), async ({ api, verify }) => {
    const ex = await api.call('NoSuchAction', {}, { shared: true });
    await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), echoesAction]);
  });
});
