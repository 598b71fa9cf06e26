/** AUTH: authentication. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { Exchange } from '../../client/exchange';
import type { KitConfig } from '../../config';
import { recordNote } from '../../facts/record';
import { isObject, OPERATIONS, parseJson } from '../../schemas/spec';
import { together, type Api, type CallOptions } from '../api';
import { NOT_AS_SUCCESS, errorWith, owned, statusIs, tokenAccepted, unlikeUnknownToken, type OperationId } from '../checks';
import { groupsOf, phaseExchanges, pickGroups } from '../dataset-needs';
import type { Dataset } from '../dataset';
import { declareTest, type TestGroup, type Verdict } from '../declare';
import { declarePlan, refusedRequest, sendOwn } from '../plans';
import { anonymousWithoutAgent, bearerWithoutToken, nearMissAgents, nearMisses, otherSchemes, unknownTokenRequests } from '../plans/auth';
import { everyTokenFirstPage } from '../plans/reads';

export const AUTH_01_AGENTS = declarePlan('AUTH-01 agents', ({ config }) => anonymousWithoutAgent(config));
export const AUTH_02 = declarePlan('AUTH-02', ({ config }) => bearerWithoutToken(config));
export const AUTH_03 = declarePlan('AUTH-03', ({ config }) => otherSchemes(config));
export const AUTH_04 = declarePlan('AUTH-04', ({ config }) => unknownTokenRequests(config));
export const AUTH_05 = declarePlan('AUTH-05', ({ config, profile, dataset }) => everyTokenFirstPage(config, profile, dataset));
export const AUTH_06 = declarePlan('AUTH-06', ({ config }) => nearMisses(config));
export const AUTH_06_AGENTS = declarePlan('AUTH-06 agents', ({ config }) => nearMissAgents(config));

const tokenAuthError = errorWith(401);
const asTokenAuthErrors = (answers: Exchange[]): Verdict[] => answers.map((answer) => ({ answer, steps: tokenAuthError }));

/** Judges the answers of refusedForms' planned requests (suites/plans/): the run's unknown token first, then every form as a 401 TokenAuthError. */
function refusedForms([unknown, ...answers]: Exchange[]): Verdict[] {
  // Beside them the run's unknown token (AUTH-04's list, one answer for the run): an answer like its wrong one is that deviation again.
  return answers.map((answer) => ({ answer, steps: errorWith(401, owned('AUTH-04', unlikeUnknownToken(unknown))) }));
}

/** A near-miss batch: the run's unknown token first (taking any token at all is AUTH-04's finding), then each near miss as a 401 TokenAuthError. */
function nearMissed([first, ...answers]: Exchange[]): Verdict[] {
  return [{ answer: first, steps: [NOT_AS_SUCCESS, owned('AUTH-04', statusIs(401))] }, ...asTokenAuthErrors(answers)];
}

/** A request the target must refuse (one of the cookie test's, which are never sent ahead): a planned request (refusedRequest) the test sends itself. */
const refusedCall = (api: Api, config: KitConfig, op: OperationId, options: CallOptions) => sendOwn(api, refusedRequest(config, op, options, 'cookies'));

export const AUTH_01_TEST = declareTest({
  id: 'AUTH-01',
  // Sent by the create-and-wait phase (suites/dataset-setup.ts): an otherwise valid request of each operation without the header.
  judge: (_, { dataset }) => asTokenAuthErrors(dataset.shared.provoked.filter((ex) => ex.request.headers.authorization === undefined)),
});

export const AUTH_02_TEST = declareTest({
  id: 'AUTH-02',
  plans: [AUTH_02],
  groups: false,
  judge: ([answers]) => refusedForms(answers),
});

export const AUTH_03_TEST = declareTest({
  id: 'AUTH-03',
  plans: [AUTH_03],
  groups: false,
  // A SHOULD: the spec tells clients to send "Bearer <token>"; a server lenient about the form of a valid token breaks no stated rule.
  judge: ([answers]) => refusedForms(answers),
});

export const AUTH_04_TEST = declareTest({
  id: 'AUTH-04',
  plans: [AUTH_04],
  groups: false,
  judge: ([answers]) => asTokenAuthErrors(answers),
});

export const AUTH_05_TEST = declareTest({
  id: 'AUTH-05',
  plans: [AUTH_05],
  // The run's first create already used the token; a second create would only add load. What
  // each operation answers is its own requirements' business: here only "not refused as unauthenticated".
  needs: ({ dataset }) => void groupsOf(dataset, (g) => g.via === 'primary', { visible: false }),
  judge: ([others], { dataset }) => [
    { answer: pickGroups(dataset, (g) => g.via === 'primary')[0].create, steps: [tokenAccepted] },
    { answer: dataset.shared.emptyList, steps: [tokenAccepted] },
    ...others.map((answer) => ({ answer, steps: [tokenAccepted] })),
  ],
});

export const AUTH_06_TEST = declareTest({
  id: 'AUTH-06',
  plans: [AUTH_06],
  groups: false,
  // One batch: a random token (a target that takes any token at all is AUTH-04's finding, not this
  // requirement's), the near misses on the list, and on the create the two commonest slips.
  // The near miss without its last character is the other AUTH-06 test's too: one answer for both.
  judge: ([answers]) => nearMissed(answers),
});

/** The create-and-wait phase's otherwise valid request of each operation without a token (with the kit's User-Agent, no cookie). */
function phaseAnonymous(dataset: Dataset): Exchange[] {
  return dataset.shared.provoked.filter((ex) => ex.request.headers.authorization === undefined && isObject(parseJson(ex.request.body)));
}

/** The last value of each cookie the target set in these exchanges, as `name=value`. */
function cookiesSet(exchanges: Exchange[]): string[] {
  const byName = new Map<string, string>();
  for (const ex of exchanges) for (const pair of ex.response?.cookies ?? []) byName.set(pair.split('=')[0], pair);
  return [...byName.values()];
}

export const AUTH_01_COOKIES_TEST = declareTest({
  id: 'AUTH-01',
  aside: '(even with the cookies the target set)',
  // What it sends depends on the cookies the target set during the run: its own requests, in run.
  run: async ({ api, dataset, kit, testInfo }) => {
    // A target that sets a session cookie and then takes it instead of the token would pass every
    // other AUTH test: the kit keeps no cookie jar. Here, and only here, it sends back every cookie
    // the target set during the run (the create-and-wait phase's authorised list and anonymous
    // requests of each operation are among them, so a cookie set on either is), without a token.
    // The answers a target could have set a cookie on before AUTH-01 replays it.
    const cookies = cookiesSet(phaseExchanges(dataset));
    const anonymous = phaseAnonymous(dataset);
    if (!cookies.length && anonymous.length === OPERATIONS.length) {
      // Without a cookie these requests are the phase's anonymous ones of each operation, already answered: judged again, not sent again.
      recordNote(testInfo, 'note', "the target set no cookie during the run: judged the create-and-wait phase's requests without a token");
      return anonymous;
    }
    recordNote(testInfo, 'note', `sent back ${cookies.length} cookie(s) the target set`);
    return together(OPERATIONS.map((op) => () => refusedCall(api, kit.config, op, { as: null, cookies })));
  },
  judge: (_, __, answers) => asTokenAuthErrors(answers),
});

export const AUTH_01_AGENTS_TEST = declareTest({
  id: 'AUTH-01',
  aside: "(with the kit's User-Agent and with none)",
  plans: [AUTH_01_AGENTS],
  // A target that waives authentication for clients it does not recognise (no User-Agent: a health check, a script) is still refused here.
  // With the kit's User-Agent: the create-and-wait phase's requests of each operation without a token.
  judge: ([answers], { dataset }) => asTokenAuthErrors([...phaseAnonymous(dataset), ...answers]),
});

export const AUTH_06_AGENTS_TEST = declareTest({
  id: 'AUTH-06',
  aside: "(with the kit's User-Agent and with none)",
  plans: [AUTH_06_AGENTS],
  groups: false,
  // The run's unknown token first, as in the other AUTH-06 test: a target that takes any token at all is AUTH-04's finding.
  // That list and the near miss with the kit's User-Agent are the other test's requests too: one answer each (shared).
  judge: ([answers]) => nearMissed(answers),
});

export const AUTH: readonly TestGroup[] = [
  {
    describe: 'AUTH authentication',
    tests: [AUTH_01_TEST, AUTH_02_TEST, AUTH_03_TEST, AUTH_04_TEST, AUTH_05_TEST, AUTH_06_TEST],
  },
  {
    describe: 'AUTH hostile clients: cookies and User-Agent',
    tests: [AUTH_01_COOKIES_TEST, AUTH_01_AGENTS_TEST, AUTH_06_AGENTS_TEST],
  },
];
