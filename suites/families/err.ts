/**
 * ERR: the family's declared tests. The errors judged here are the client mistakes the create-and-wait phase provoked
 * (suites/dataset-setup.ts).
 */
import { JSON_ANSWER, documentedStatus, envelopeOf, errorBodyShape, errorKindFitsStatus, errorKindReadable, errorNotAsSuccess, owned } from '../checks';
import { provokedErrorAnswers, provokedErrors } from '../dataset-needs';
import { declareTest, type JudgeContext, type TestGroup } from '../declare';

// None of the provoked client mistakes answered with an error: not assessable.
const errorsProvoked = ({ dataset }: JudgeContext) => void provokedErrors(dataset);

export const ERR_01_TEST = declareTest({
  id: 'ERR-01',
  needs: errorsProvoked,
  judge: (_, { dataset }) => provokedErrorAnswers(dataset).map((ex) => ({ answer: ex, steps: [JSON_ANSWER, ...envelopeOf(ex), errorBodyShape] })),
});

export const ERR_02_TEST = declareTest({
  id: 'ERR-02',
  // Judged in run, before provokedErrors: where no mistake was answered with an error (all answered 2xx, say), these
  // are judged before the test is skipped as not assessable.
  run: async ({ dataset, verify }) => {
    // Any mistake answered 2xx with an error part, token or not: an error answered as a success has no status of the table.
    for (const ex of dataset.shared.provoked.filter((e) => (e.response?.status ?? 0) < 300)) await verify(ex, [errorNotAsSuccess]);
    provokedErrors(dataset);
  },
  // Answers to requests without a token are AUTH's to judge (status and kind); the others are judged here.
  judge: (_, { dataset }) =>
    provokedErrorAnswers(dataset)
      .filter((ex) => ex.request.headers.authorization !== undefined)
      .map((ex) => ({ answer: ex, steps: [JSON_ANSWER, ...envelopeOf(ex), owned('ERR-01', errorKindReadable), errorKindFitsStatus] })),
});

export const ERR_03_TEST = declareTest({
  id: 'ERR-03',
  needs: errorsProvoked,
  judge: (_, { dataset }) => provokedErrorAnswers(dataset).map((ex) => ({ answer: ex, steps: [documentedStatus] })),
});

export const ERR: readonly TestGroup[] = [{ describe: 'ERR error body and error kinds', tests: [ERR_01_TEST, ERR_02_TEST, ERR_03_TEST] }];
