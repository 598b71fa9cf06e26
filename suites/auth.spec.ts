import { test, requirement, groupsOf, RawBody, type Api } from './fixtures';
import { documentedStatus, errorBodyShape, errorKindFitsStatus, errorWith, isListResult, status200, type OperationId } from './checks';
import type { Exchange } from './exchange';
import { ahead, together } from './api';
import { randomBytes } from 'node:crypto';

/** An otherwise valid body for each operation, so that authentication is what answers. */
function validBody(api: Api, operation: OperationId): Record<string, unknown> {
  return operation === 'CreateAssetGroup' ? { Name: api.uniqueName('auth'), Title: 'Auth probe', Description: 'Must be refused', GroupType: 'AIGC', ProjectName: 'default' } : {};
}

const OPERATIONS: OperationId[] = ['CreateAssetGroup', 'ListAssetGroups'];
const tokenAuthError = errorWith(401, 'TokenAuthError');

test.describe('AUTH authentication', () => {
  test('AUTH-01 A request without an Authorization header gets 401 TokenAuthError', requirement('AUTH-01'), async ({ api, verify }) => {
    // The requests are independent: sent a few at a time (so a slow target's latency overlaps), judged in the same order.
    const answers = await ahead(OPERATIONS.map((op) => () => api.call(op, validBody(api, op), { as: null })));
    for (const answer of answers) await verify(await answer, [tokenAuthError]);
  });

  test('AUTH-02 A Bearer header with no token gets 401 TokenAuthError', requirement('AUTH-02'), async ({ api, verify }) => {
    // Independent requests, sent a few at a time and judged in the order they were listed (see ahead()).
    const answers = await ahead(OPERATIONS.flatMap((op) => ['Bearer ', 'Bearer'].map((value) => () => api.call(op, validBody(api, op), { authorization: { value, shown: JSON.stringify(value) } }))));
    for (const answer of answers) await verify(await answer, [tokenAuthError]);
  });

  test('AUTH-03 A valid token under another scheme gets 401 TokenAuthError', requirement('AUTH-03'), async ({ api, verify }) => {
    const token = api.token('primary');
    const forms = [
      { value: `Basic ${token}`, shown: 'Basic <AG_TOKEN>' },
      { value: token, shown: '<AG_TOKEN> with no scheme' },
      { value: `Token ${token}`, shown: 'Token <AG_TOKEN>' },
    ];
    // Independent requests, sent a few at a time and judged in the order they were listed (see ahead()).
    const answers = await ahead(OPERATIONS.flatMap((op) => forms.map((authorization) => () => api.call(op, validBody(api, op), { authorization }))));
    for (const answer of answers) await verify(await answer, [tokenAuthError]);
  });

  test('AUTH-04 An unknown token gets 401 TokenAuthError', requirement('AUTH-04'), async ({ api, verify }) => {
    const unknown = `agc-unknown-${randomBytes(16).toString('hex')}`;
    // Independent requests, sent together and judged in the order they were listed (see ahead()).
    const answers = await ahead(OPERATIONS.map((op) => () => api.call(op, validBody(api, op), { authorization: { value: `Bearer ${unknown}`, shown: 'Bearer <a random token the target never issued>' } })));
    for (const answer of answers) await verify(await answer, [tokenAuthError]);
  });

  test('AUTH-05 A valid Bearer token is accepted', requirement('AUTH-05'), async ({ api, dataset, verify }) => {
    // The run's first create already used the token; a second create would only add load.
    await verify(groupsOf(dataset, (g) => g.via === 'primary', { visible: false })[0].create, [status200]);
    await verify(await api.call('ListAssetGroups', {}), [status200, isListResult]);
  });
});

/**
 * The errors the kit provokes on purpose: each is a client mistake the spec documents an answer
 * for, so any conforming target answers them with an error.
 */
async function provokedErrors(api: Api): Promise<Exchange[]> {
  // Independent requests: sent a few at a time so a slow target's latency overlaps; returned in this order.
  return together([
    () => api.call('CreateAssetGroup', validBody(api, 'CreateAssetGroup'), { as: null }),
    () => api.call('ListAssetGroups', {}, { as: null }),
    () => api.call('CreateAssetGroup', new RawBody('{"Name": ')),
    () => api.call('ListAssetGroups', new RawBody('{"Filter": ')),
    () => api.call('CreateAssetGroup', [validBody(api, 'CreateAssetGroup')]),
    () => api.call('ListAssetGroups', 'not an object'),
  ]);
}

test.describe('ERR error body and error kinds', () => {
  test('ERR-01 Error bodies have the profile\'s error shape', requirement('ERR-01'), async ({ api, verify }) => {
    for (const exchange of await provokedErrors(api)) await verify(exchange, [errorBodyShape]);
  });

  test('ERR-02 The error kind fits the status and the operation as the spec\'s error table gives it', requirement('ERR-02'), async ({ api, verify }) => {
    for (const exchange of await provokedErrors(api)) await verify(exchange, [errorKindFitsStatus]);
  });

  test('ERR-03 Error statuses are among those documented for the operation', requirement('ERR-03'), async ({ api, verify }) => {
    for (const exchange of await provokedErrors(api)) await verify(exchange, [documentedStatus]);
  });
});
