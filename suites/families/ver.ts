/**
 * VER: the family's declared tests. Successes and errors judged here were sent once, by the create-and-wait phase
 * (suites/dataset-setup.ts); VER-03 and VER-04 send their own, the very requests INPUT-06 and INPUT-05 send: one answer
 * each judges.
 */
import { test } from '@playwright/test';
import { JSON_ANSWER, echoesAction, echoesVersion, envelopeOf, type Check } from '../checks';
import type { Dataset } from '../dataset';
import { onSuccesses, provokedErrorAnswers, provokedErrors } from '../dataset-needs';
import { declareTest, type TestGroup, type TestTools, type Verdict } from '../declare';

// The successes are judged in run, before the errors: provokedErrors skips the test where no mistake was answered with
// an error, and it does so only once the successes were judged.
const onSuccessesEcho =
  (echoes: Check) =>
  async ({ dataset, verify }: TestTools) => {
    await test.step('on successes', async () => onSuccesses(dataset, verify, (ex) => [...envelopeOf(ex), echoes]));
    provokedErrors(dataset);
  };
const onErrorsEcho = (dataset: Dataset, echoes: Check): Verdict[] =>
  provokedErrorAnswers(dataset).map((ex) => ({ answer: ex, step: 'on errors', steps: [JSON_ANSWER, ...envelopeOf(ex), echoes] }));

export const VER_01_TEST = declareTest({
  id: 'VER-01',
  run: onSuccessesEcho(echoesVersion),
  judge: (_, { dataset }) => onErrorsEcho(dataset, echoesVersion),
});

export const VER_02_TEST = declareTest({
  id: 'VER-02',
  run: onSuccessesEcho(echoesAction),
  judge: (_, { dataset }) => onErrorsEcho(dataset, echoesAction),
});

export const VER_03_TEST = declareTest({
  id: 'VER-03',
  groups: false,
  // Its own request, not planned: the very one INPUT-06 sends (shared), one answer for both.
  run: ({ api }) => api.call('ListAssetGroups', {}, { version: '1999-01-01', shared: true }),
  // Any status is acceptable here (behaviour with other Versions is not shown); only the echo is judged.
  judge: (_, __, ex) => [{ answer: ex, steps: [JSON_ANSWER, ...envelopeOf(ex), echoesVersion] }],
});

export const VER_04_TEST = declareTest({
  id: 'VER-04',
  groups: false,
  run: ({ api }) => api.call('NoSuchAction', {}, { shared: true }),
  judge: (_, __, ex) => [{ answer: ex, steps: [JSON_ANSWER, ...envelopeOf(ex), echoesAction] }],
});

export const VER: readonly TestGroup[] = [{ describe: 'VER Version and Action echo', tests: [VER_01_TEST, VER_02_TEST, VER_03_TEST, VER_04_TEST] }];
