/**
 * ENV: the envelope and content type. The answers judged here were sent once, by the create-and-wait phase
 * (suites/dataset-setup.ts): the run's first create, the preflight's list with body {}, and the client mistakes it
 * provoked. Reading them costs the target no request.
 */
import type { Exchange } from '../../client/exchange';
import { onSuccesses, provokedErrorAnswers, provokedErrors, successes } from '../dataset-needs';
import type { Dataset } from '../dataset';
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
  succeeded,
  type Step,
} from '../checks';
import { declareTest, type JudgeContext, type JudgedAnswer, type TestGroup } from '../declare';

/** onSuccesses (suites/dataset-needs.ts) as verdicts: each valid call's answer, judged only once its owner's 200 holds. */
const successVerdicts = (dataset: Dataset, own: (ex: Exchange) => Step[]): JudgedAnswer[] =>
  successes(dataset).map(({ owner, exchange }) => {
    // No answer at all is still AUTH-05's (tokenAccepted, the first step), as before.
    const [token, status] = succeeded(owner);
    return { answer: exchange, steps: [token, JSON_ANSWER, status, ...own(exchange)] };
  });

/** Every answer of the phase: the list, the creates of every token, the provoked errors. */
const phaseAnswers = (dataset: Dataset): Exchange[] => [dataset.shared.emptyList, ...dataset.groups.map((g) => g.create), ...dataset.shared.provoked];

// None of the provoked client mistakes answered with an error: not assessable.
const errorsProvoked = ({ dataset }: JudgeContext) => void provokedErrors(dataset);

export const ENV_01_TEST = declareTest({
  id: 'ENV-01',
  judge: (_, { dataset }) => [
    ...successVerdicts(dataset, () => [envelopePresent]),
    // Every create of the run answered 200 is a success to read too, whichever token sent it.
    ...dataset.groups.filter((g) => g.create.response?.status === 200).map((g) => ({ answer: g.create, steps: [JSON_ANSWER, envelopePresent] })),
  ],
});

export const ENV_02_TEST = declareTest({
  id: 'ENV-02',
  needs: errorsProvoked,
  // A gap the run's successes share is the envelope's everywhere, ENV-01's one finding.
  judge: (_, { dataset }) => provokedErrorAnswers(dataset).map((ex) => ({ answer: ex, steps: [JSON_ANSWER, ...ERROR_ENVELOPE] })),
});

export const ENV_03_TEST = declareTest({
  id: 'ENV-03',
  // The successes are judged first, and only once they held is the test skipped where none of the provoked mistakes
  // was answered with an error: a skip after verdicts is no judge's, so this test judges as it goes.
  run: async ({ dataset, verify }) => {
    await onSuccesses(dataset, verify, (ex) => [...envelopeOf(ex), requestIdNonEmpty]);
    for (const ex of provokedErrors(dataset)) await verify(ex, [JSON_ANSWER, ...envelopeOf(ex), requestIdNonEmpty]);
  },
});

export const ENV_04_TEST = declareTest({
  id: 'ENV-04',
  // Every answer of the phase: the list, the creates of every token, the provoked errors. Those without a RequestId are ENV-03's.
  judge: (_, { dataset }) => [{ answers: phaseAnswers(dataset), together: distinctRequestIds }],
});

export const ENV_05_TEST = declareTest({
  id: 'ENV-05',
  judge: (_, { dataset }) => {
    const judged = [...successes(dataset).map((s) => s.exchange), ...dataset.shared.provoked];
    // Every other create of the run that was answered, whichever token sent it: a gateway's HTML page may answer any one.
    const creates = dataset.groups.map((g) => g.create).filter((ex) => ex.response && !judged.includes(ex));
    return [...judged, ...creates].map((ex) => ({ answer: ex, steps: [jsonContentType] }));
  },
});

export const ENV_06_TEST = declareTest({
  id: 'ENV-06',
  judge: (_, { dataset }) => successVerdicts(dataset, () => [resultPresent]),
});

export const ENV_07_TEST = declareTest({
  id: 'ENV-07',
  judge: (_, { dataset }) => [{ answers: phaseAnswers(dataset), together: sameService }],
});

export const ENV: readonly TestGroup[] = [
  {
    describe: 'ENV envelope and content type',
    tests: [ENV_01_TEST, ENV_02_TEST, ENV_03_TEST, ENV_04_TEST, ENV_05_TEST, ENV_06_TEST, ENV_07_TEST],
  },
];
