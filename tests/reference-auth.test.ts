/** The reference server's authentication and scoping: which Authorization headers are refused, which groups each token sees, and where the tokens come from. */
import { referenceTokens, referenceUsers, TOKEN_ROLES, type TokenRole } from '../reference/config';
import { CREATE, expect, expectError, expectSuccess, LIST, OPS, test, TOKENS } from './helpers/reference-client';

test.describe('authentication', () => {
  const rejected: Array<[string, string | null]> = [
    ['missing header', null],
    ['empty token', 'Bearer '],
    ['scheme only', 'Bearer'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['another scheme with a valid token', `Token ${TOKENS.primary}`],
    ['token without scheme', TOKENS.primary],
    ['unknown token', 'Bearer not-a-reference-token'],
    ['two spaces', `Bearer  ${TOKENS.primary}`],
    ['token with a suffix', `Bearer ${TOKENS.primary}x`],
  ];
  for (const op of OPS) {
    for (const [label, authorization] of rejected) {
      test(`${op}: ${label} is a 401 TokenAuthError`, async ({ ref }) => {
        const r = await ref.call({ action: op, authorization, body: op === CREATE ? { Name: 'auth' } : {} });
        expectError(r, 401, 'TokenAuthError', op);
      });
    }
  }

  test('the scheme matches case-insensitively; every reference token is accepted', async ({ ref }) => {
    expectSuccess(await ref.call({ authorization: `bearer ${TOKENS.primary}` }), LIST);
    expectSuccess(await ref.call({ authorization: `BEARER ${TOKENS.primary}` }), LIST);
    for (const role of Object.keys(TOKENS) as TokenRole[]) expectSuccess(await ref.list({}, role), LIST);
  });

  test('a 401 creates nothing', async ({ ref }) => {
    await ref.call({ action: CREATE, authorization: 'Bearer nope', body: { Name: 'ghost' } });
    expect(ref.server.stats().creates).toBe(0);
  });
});

test.describe('scoping', () => {
  test('a user sees only their own groups', async ({ ref }) => {
    const mine = [await ref.createOk({ Name: 'mine 1' }), await ref.createOk({ Name: 'mine 2' })];
    const theirs = await ref.createOk({ Name: 'theirs' }, 'otherUser');
    await ref.waitListed(mine);
    await ref.waitListed([theirs], 'otherUser');
    expect(await ref.listIds({ PageSize: 100 })).toEqual(mine);
    expect(await ref.listIds({ PageSize: 100 }, 'otherUser')).toEqual([theirs]);
    // Not even by id or by the other user's asset space.
    expect(await ref.listIds({ Filter: { GroupIds: [theirs] } })).toEqual([]);
    const theirSpace = (await ref.list({}, 'otherUser')).json.Result.Items[0].AssetSpaceId;
    expect(await ref.listIds({ Filter: { AssetSpaceId: theirSpace } })).toEqual([]);
    expect((await ref.list({ Filter: { Name: 'theirs' } })).json.Result.TotalCount).toBe(0);
  });

  test("a channel-bound token sees only its channel; an unbound token sees all of its user's", async ({ ref }) => {
    const unbound = await ref.createOk({ Name: 'unbound' });
    const onA = await ref.createOk({ Name: 'on A' }, 'channelA');
    const onB = await ref.createOk({ Name: 'on B' }, 'channelB');
    await ref.waitListed([unbound, onA, onB]);
    expect(await ref.listIds({ PageSize: 100 })).toEqual([unbound, onA, onB]);
    expect(await ref.listIds({ PageSize: 100 }, 'channelA')).toEqual([onA]);
    expect(await ref.listIds({ PageSize: 100 }, 'channelB')).toEqual([onB]);
    expect(await ref.listIds({ Filter: { GroupIds: [onB, unbound] } }, 'channelA')).toEqual([]);
    expect((await ref.list({}, 'channelA')).json.Result.TotalCount).toBe(1);
    expect(await ref.listIds({}, 'otherUser')).toEqual([]);
  });
});

test.describe('config', () => {
  test('token values come from the environment when set, else readable defaults', () => {
    expect(referenceTokens({})).toEqual({
      primary: 'ref-primary-token',
      otherUser: 'ref-other-user-token',
      channelA: 'ref-channel-a-token',
      channelB: 'ref-channel-b-token',
    });
    const env = { AG_REF_TOKEN: 'p', AG_REF_TOKEN_OTHER_USER: 'o', AG_REF_TOKEN_CHANNEL_A: 'a', AG_REF_TOKEN_CHANNEL_B: '' };
    expect(referenceTokens(env)).toEqual({ primary: 'p', otherUser: 'o', channelA: 'a', channelB: 'ref-channel-b-token' });
    const users = referenceUsers(env);
    expect(users).toHaveLength(2);
    const [primary, other] = users;
    expect(primary.tokens.map((t) => [t.token, t.channel])).toEqual([
      ['p', null],
      ['a', 'channel-a'],
      ['ref-channel-b-token', 'channel-b'],
    ]);
    expect(other.tokens.map((t) => [t.token, t.channel])).toEqual([['o', null]]);
    expect(TOKEN_ROLES.map((r) => r.clientEnv)).toEqual(['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B']);
  });
});
