import { test, expect, RawBody, VERSION, groupsOf } from './fixtures';
import type { Dataset } from './dataset';
import {
  echoesAction,
  echoesVersion,
  envelopePresent,
  jsonContentType,
  requestIdNonEmpty,
  resultPresent,
  status200,
  clientError,
  type Check,
} from './checks';
import type { Api, Verify } from './fixtures';
import type { Exchange } from './exchange';
import { ahead, inOrder, together } from './api';

const requirement = (id: string) => ({ annotation: { type: 'requirement', description: id } });

/**
 * One valid request of each operation; every success-side check looks at both. The create is the
 * run's first, from the shared create phase: another create here would only add load.
 */
function validCalls(api: Api, dataset: Dataset): (() => Promise<Exchange>)[] {
  return [async () => groupsOf(dataset, (g) => g.key === 'p0', { visible: false })[0].create, () => api.call('ListAssetGroups', {})];
}

/**
 * Answers the kit provokes on purpose. Each is a client mistake the spec documents an answer
 * for, so any conforming target fails them: no token (401), and a bad paging value (400).
 */
function errorCalls(api: Api): (() => Promise<Exchange>)[] {
  return [
    () => api.call('CreateAssetGroup', { Name: api.uniqueName('env-noauth'), GroupType: 'AIGC' }, { as: null }),
    () => api.call('ListAssetGroups', {}, { as: null }),
    () => api.call('ListAssetGroups', new RawBody('{"unterminated": ')),
  ];
}

// validCalls() and errorCalls() give their requests as tasks: independent requests are sent a few
// at a time through together()/ahead() (so a slow target's latency overlaps instead of adding up)
// and judged in the order listed, as when they were sent one after another.

/** Both kinds' requests sent together up front, so that each step of a test only judges its own, in order. */
async function bothKinds(api: Api, dataset: Dataset) {
  const valid = validCalls(api, dataset);
  const outcomes = await ahead([...valid, ...errorCalls(api)]);
  return { successes: outcomes.slice(0, valid.length), errors: outcomes.slice(valid.length) };
}

async function expectEach(verify: Verify, exchanges: Exchange[], checks: Check[]) {
  for (const exchange of exchanges) await verify(exchange, checks);
}

test.describe('ENV envelope and content type', () => {
  test('ENV-01 A successful response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-01'), async ({ api, dataset, verify }) => {
    await expectEach(verify, await together(validCalls(api, dataset)), [status200, envelopePresent]);
  });

  test('ENV-02 An error response carries ResponseMetadata with RequestId, Action, Version, Service and Region', requirement('ENV-02'), async ({ api, verify }) => {
    await expectEach(verify, await together(errorCalls(api)), [clientError, envelopePresent]);
  });

  test('ENV-03 ResponseMetadata.RequestId is a non-empty string', requirement('ENV-03'), async ({ api, dataset, verify }) => {
    await expectEach(verify, await together([...validCalls(api, dataset), ...errorCalls(api)]), [envelopePresent, requestIdNonEmpty]);
  });

  test('ENV-04 Distinct requests get distinct RequestIds', requirement('ENV-04'), async ({ api, dataset, verify }) => {
    const exchanges = await together([...validCalls(api, dataset), ...errorCalls(api), ...[0, 1, 2].map(() => () => api.call('ListAssetGroups', {}))]);
    await expectEach(verify, exchanges, [envelopePresent, requestIdNonEmpty]);
    const ids = exchanges.map((ex) => (ex.response!.json as { ResponseMetadata: { RequestId: string } }).ResponseMetadata.RequestId);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated, `RequestIds repeat across ${ids.length} requests`).toEqual([]);
  });

  test('ENV-05 Responses are JSON with a JSON content type', requirement('ENV-05'), async ({ api, dataset, verify }) => {
    await expectEach(verify, await together([...validCalls(api, dataset), ...errorCalls(api)]), [jsonContentType]);
  });

  test('ENV-06 A successful response carries a Result object', requirement('ENV-06'), async ({ api, dataset, verify }) => {
    await expectEach(verify, await together(validCalls(api, dataset)), [status200, resultPresent]);
  });
});

test.describe('VER Version and Action echo', () => {
  test('VER-01 ResponseMetadata.Version echoes the Version of the request', requirement('VER-01'), async ({ api, dataset, verify }) => {
    const { successes, errors } = await bothKinds(api, dataset);
    await test.step('on successes', async () => expectEach(verify, await inOrder(successes), [status200, envelopePresent, echoesVersion]));
    await test.step('on errors', async () => expectEach(verify, await inOrder(errors), [clientError, envelopePresent, echoesVersion]));
  });

  test('VER-02 ResponseMetadata.Action echoes the Action of the request', requirement('VER-02'), async ({ api, dataset, verify }) => {
    const { successes, errors } = await bothKinds(api, dataset);
    await test.step('on successes', async () => expectEach(verify, await inOrder(successes), [status200, envelopePresent, echoesAction]));
    await test.step('on errors', async () => expectEach(verify, await inOrder(errors), [clientError, envelopePresent, echoesAction]));
  });

  test('VER-03 An answer to an unsupported Version echoes the Version that was sent', requirement('VER-03'), async ({ api, verify }) => {
    // Any status is acceptable here (behaviour with other Versions is not shown); only the echo is judged.
    const exchange = await api.call('ListAssetGroups', {}, { version: '1999-01-01' });
    expect(exchange.request.version).not.toBe(VERSION);
    await verify(exchange, [envelopePresent, echoesVersion]);
  });

  test('VER-04 An answer to an unknown Action echoes the Action that was sent', requirement('VER-04'), async ({ api, verify }) => {
    await verify(await api.call('NoSuchAction', {}), [envelopePresent, echoesAction]);
  });
});
