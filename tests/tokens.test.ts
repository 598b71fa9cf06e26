/**
 * Tokens fetched and renewed (config/tokens.ts, client/token-source.ts, client/token-broker.ts; docs/tokens.md): the
 * pieces alone, then `agc run` against the reference server behind a tiny identity provider (tests/helpers/token-server.ts)
 * whose tokens expire every few seconds, one of them revoked mid-run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startReferenceServer, type ReferenceServer } from '../reference/server';
import { referenceTokens, referenceUsers, TOKEN_ROLES } from '../reference/config';
import { fetchClientCredentials, jwtExpiry, parseCommand, refreshAtOf, runTokenCommand, TokenSourceError } from '../client/token-source';
import { ownerStore, useTokenStore } from '../client/token-broker';
import { runDirOf } from '../client/run-dir';
import { loadConfig } from '../config';
import { sendWithFetched } from '../config/tokens';
import type { Exchange } from '../client/exchange';
import { REFERENCE_DEFAULTS } from './helpers/fixtures';
import { readJson, runAgc, type KitRun } from './helpers/harness';
import { filesOf, findSecrets } from './helpers/hostile-run';
import { startTokenServer, type TokenServer } from './helpers/token-server';

const NODE = process.execPath;

test('a token command is split into words without a shell: a JSON array, or words with quotes; shell operators are refused', () => {
  expect(parseCommand('["gcloud", "auth", "print-access-token"]', 'AG_TOKEN_COMMAND')).toEqual(['gcloud', 'auth', 'print-access-token']);
  expect(parseCommand(`'/opt/my tools/get token' --audience "api \\"x\\"" a\\ b`, 'AG_TOKEN_COMMAND')).toEqual([
    '/opt/my tools/get token',
    '--audience',
    'api "x"',
    'a b',
  ]);
  expect(parseCommand("vault read -field=token 'secret/a|b'", 'V')).toEqual(['vault', 'read', '-field=token', 'secret/a|b']);
  for (const bad of ['get-token | tr -d x', 'echo $TOKEN', 'a; b', '"unclosed', '[1, 2]', '   '])
    expect(() => parseCommand(bad, 'AG_TOKEN_CHANNEL_A_COMMAND'), bad).toThrow(/AG_TOKEN_CHANNEL_A_COMMAND/);
});

test("a token is renewed 30 s before it expires, or at 80 % of a short life but at least 1 s before; a JWT's exp is read without verifying it", () => {
  expect(refreshAtOf({ token: 't', obtainedAt: 0, expiresAt: 3_600_000 })).toBe(3_570_000);
  expect(refreshAtOf({ token: 't', obtainedAt: 0, expiresAt: 60_000 })).toBe(48_000);
  expect(refreshAtOf({ token: 't', obtainedAt: 0, expiresAt: 3_000 })).toBe(2_000);
  expect(refreshAtOf({ token: 't', obtainedAt: 0, expiresAt: 1_000 })).toBe(500);
  expect(refreshAtOf({ token: 't', obtainedAt: 0 })).toBe(Infinity);
  const jwt = (payload: unknown) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
  expect(jwtExpiry(jwt({ exp: 1_900_000_000 }))).toBe(1_900_000_000_000);
  expect(jwtExpiry(jwt({ sub: 'x' }))).toBeUndefined();
  expect(jwtExpiry('opaque-token')).toBeUndefined();
});

test('the configuration names the variable of a token source that is incomplete or given twice', () => {
  const base = { AG_BASE_URL: 'http://127.0.0.1:9' };
  const cases: [Record<string, string>, RegExp][] = [
    [{ AG_TOKEN_CLIENT_ID: 'c' }, /AG_TOKEN_URL is required/],
    [{ AG_TOKEN_CLIENT_ID: 'c', AG_TOKEN_URL: 'http://idp.example/token', AG_TOKEN_CLIENT_SECRET: 's' }, /AG_TOKEN_URL must be https/],
    [{ AG_TOKEN_CLIENT_ID: 'c', AG_TOKEN_URL: 'https://idp.example/token' }, /AG_TOKEN_CLIENT_SECRET is required/],
    [{ AG_TOKEN: 't', AG_TOKEN_COMMAND: 'get-token' }, /AG_TOKEN and AG_TOKEN_COMMAND are both set/],
    [{ AG_TOKEN: 't', AG_TOKEN_CHANNEL_B_CLIENT_SECRET: 's' }, /AG_TOKEN_CHANNEL_B_CLIENT_SECRET is set without AG_TOKEN_CHANNEL_B_CLIENT_ID/],
    [{ AG_TOKEN_OTHER_USER_COMMAND: 'x' }, /AG_TOKEN is required with AG_BASE_URL/],
  ];
  for (const [env, message] of cases) expect(() => loadConfig({ ...base, ...env }), JSON.stringify(env)).toThrow(message);
  const config = loadConfig({ ...base, AG_TOKEN_COMMAND: 'get-token', AG_TOKEN_OTHER_USER: 'static-other' });
  expect(config.fetchedRoles).toEqual(['primary']);
  expect(config.tokens).toEqual({ otherUser: 'static-other' });
});

test.describe('sources against a token server', () => {
  let server: TokenServer;
  test.beforeAll(async () => {
    server = await startTokenServer({
      clients: { 'kit-primary': { secret: 'client-SECRET-4e1f9a7b', role: 'primary' } },
      referenceTokens: referenceTokens({}),
      lifeMs: 60_000,
    });
  });
  test.afterAll(() => server.close());
  const source = (clientAuth: 'basic' | 'post') =>
    ({
      kind: 'clientCredentials',
      variable: 'AG_TOKEN_CLIENT_ID',
      url: server.url,
      clientId: 'kit-primary',
      secretVariable: 'AG_TOKEN_CLIENT_SECRET',
      clientAuth,
      scope: 'assets',
    }) as const;

  test('client credentials, with Basic or in the form, give the token and when it expires', async () => {
    for (const clientAuth of ['basic', 'post'] as const) {
      const started = Date.now();
      const fetched = await fetchClientCredentials(source(clientAuth), 'primary', 5_000, { AG_TOKEN_CLIENT_SECRET: 'client-SECRET-4e1f9a7b' });
      expect(server.issued.has(fetched.token), clientAuth).toBe(true);
      expect(fetched.expiresAt! - started).toBeGreaterThanOrEqual(59_000);
    }
  });

  test('a refused secret is an error that names the variable and carries neither the secret nor the echo of it', async () => {
    const error = await fetchClientCredentials(source('basic'), 'primary', 5_000, { AG_TOKEN_CLIENT_SECRET: 'wrong-SECRET-77aa11bb' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenSourceError);
    const message = (error as Error).message;
    expect(message).toContain('AG_TOKEN_CLIENT_ID');
    expect(message).toContain('HTTP 401');
    expect(message).toContain('invalid_client');
    expect(message).not.toContain('wrong-SECRET-77aa11bb');
  });
});

test('a token command: its output trimmed is the token; a non-zero exit names the variable, its status, and not what it printed', async () => {
  const ok = await runTokenCommand(
    { kind: 'command', variable: 'AG_TOKEN_COMMAND', argv: [NODE, '-e', 'console.log("  tok-Cmd-0a1b2c3d4e  ")'] },
    'primary',
    5_000,
  );
  expect(ok.token).toBe('tok-Cmd-0a1b2c3d4e');
  const failing = [NODE, '-e', 'process.stdout.write("half-TOKEN-9f8e7d6c"); console.error("denied half-TOKEN-9f8e7d6c"); process.exit(4)'];
  const error = await runTokenCommand({ kind: 'command', variable: 'AG_TOKEN_OTHER_USER_COMMAND', argv: failing }, 'otherUser', 5_000).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TokenSourceError);
  expect((error as Error).message).toMatch(/AG_TOKEN_OTHER_USER_COMMAND \(the otherUser token\): it exited with status 4; it said: denied <redacted token>/);
  expect((error as Error).message).not.toContain('half-TOKEN');
});

test('a 401 to a fetched token renews it once and sends again, however many requests were refused; never where the test forbids it', async () => {
  let fetches = 0;
  useTokenStore(ownerStore(async () => ({ token: `tok-gen-${++fetches}-abcdef`, obtainedAt: Date.now() })));
  try {
    const config = { ...loadConfig({ AG_BASE_URL: 'http://127.0.0.1:9', AG_TOKEN_COMMAND: 'unused' }), runId: `tok-${process.pid}` };
    const sent: string[] = [];
    // The target refuses the first token only.
    const sendWith = async (token: string) => (sent.push(token), { response: { status: token.includes('gen-1') ? 401 : 200 } }) as unknown as Exchange;
    const answers = await Promise.all([1, 2, 3].map(() => sendWithFetched(config, 'primary', true, sendWith)));
    expect(answers.map((a) => a.response?.status)).toEqual([200, 200, 200]);
    expect(fetches).toBe(2);
    expect(sent.filter((t) => t.includes('gen-1'))).toHaveLength(3);
    expect(sent.filter((t) => t.includes('gen-2'))).toHaveLength(3);
    // An AUTH test's 401 is its answer: nothing is renewed or sent again.
    const refused = async () => (sent.push('x'), { response: { status: 401 } }) as unknown as Exchange;
    sent.length = 0;
    expect((await sendWithFetched(config, 'primary', false, refused)).response?.status).toBe(401);
    expect(sent).toHaveLength(1);
    expect(fetches).toBe(2);
  } finally {
    useTokenStore(undefined);
  }
});

/**
 * `agc run` with every role's token fetched, two workers: the primary and channel A by client credentials (channel A's
 * endpoint inherited from the primary's, its secret in the form), the other user and channel B by token commands (a
 * node script that asks the token server as a CLI would; one command given as words, one as a JSON array). Tokens live
 * 2 s (a command's JWT says 1 to 2 s: its exp is in whole seconds), renewed 1 s before they expire, so each is renewed
 * in the shortest run; the primary's first is revoked on its fifth use, mid-phase.
 */
test.describe('a run whose tokens expire and are revoked mid-run', () => {
  test.describe.configure({ mode: 'default' });
  test.setTimeout(180_000);
  const secrets = { primary: 'cc-SECRET-primary-51c0ffee', channelA: 'cc-SECRET-channel-a-7d15ea5e' };
  const runId = `tok${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;
  let tokens: TokenServer;
  let reference: ReferenceServer;
  let run: KitRun;
  let work: string;
  test.beforeAll(async () => {
    const referenceEnv = Object.fromEntries(TOKEN_ROLES.map((info) => [info.serverEnv, `ref-${info.role}-${Math.random().toString(36).slice(2, 10)}`]));
    tokens = await startTokenServer({
      clients: {
        'kit-primary': { secret: secrets.primary, role: 'primary' },
        'kit-channel-a': { secret: secrets.channelA, role: 'channelA' },
        'cli-other': { secret: null, role: 'otherUser' },
        'cli-channel-b': { secret: null, role: 'channelB' },
      },
      referenceTokens: referenceTokens(referenceEnv),
      lifeMs: 2_000,
      revokeAfter: 5,
    });
    // One RequestId for every answer: ENV-04 (a SHOULD) fails, so the reports hold evidence, each exchange with its echo.
    reference = await startReferenceServer({
      ...REFERENCE_DEFAULTS,
      users: referenceUsers(referenceEnv),
      hooks: { ...tokens.hooks, newRequestId: () => 'req-the-same' },
    });
    work = mkdtempSync(path.join(os.tmpdir(), 'agc-tokens-'));
    const script = path.join(work, 'print-token.mjs');
    writeFileSync(
      script,
      `const [url, id] = process.argv.slice(2);
const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id }) });
if (!res.ok) { console.error('token server said ' + res.status); process.exit(2); }
process.stdout.write((await res.json()).access_token + '\\n');
`,
    );
    run = await runAgc(['run', '--report-dir', path.join(work, 'report'), '--workers', '2'], {
      AG_BASE_URL: reference.url,
      AG_RUN_ID: runId,
      AG_KEEP_TEMP: '1',
      AG_SEED: '4242',
      AG_NUM_RUNS: '5',
      AG_VISIBILITY_TIMEOUT_MS: '5000',
      AG_TOKEN_URL: tokens.url,
      AG_TOKEN_SCOPE: 'assets',
      AG_TOKEN_CLIENT_ID: 'kit-primary',
      AG_TOKEN_CLIENT_SECRET: secrets.primary,
      AG_TOKEN_CHANNEL_A_CLIENT_ID: 'kit-channel-a',
      AG_TOKEN_CHANNEL_A_CLIENT_SECRET: secrets.channelA,
      AG_TOKEN_CHANNEL_A_CLIENT_AUTH: 'post',
      AG_TOKEN_OTHER_USER_COMMAND: `'${NODE}' '${script}' ${tokens.url} cli-other`,
      AG_TOKEN_CHANNEL_B_COMMAND: JSON.stringify([NODE, script, tokens.url, 'cli-channel-b']),
    });
  });
  test.afterAll(async () => {
    await Promise.all([tokens?.close(), reference?.close()]);
    rmSync(runDirOf(runId), { recursive: true, force: true });
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the run is conformant; every role was renewed before its token expired; the revoked one was renewed once and the requests sent again', () => {
    const output = `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;
    expect(run.status, output).toBe(0);
    expect(readJson<{ verdict: string }>(path.join(run.reportDir, 'conformance.json')).verdict).toBe('conformant');
    const issuedTo = (role: string) => [...tokens.issued.values()].filter((t) => t.role === role);
    test.info().annotations.push({
      type: 'tokens',
      description: `${Math.round(run.durationMs / 100) / 10} s; ${['primary', 'otherUser', 'channelA', 'channelB']
        .map(
          (r) =>
            `${r} ${issuedTo(r)
              .map((t) => t.uses)
              .join('/')}`,
        )
        .join(', ')}; revoked uses ${tokens.revokedUses}, expired ${tokens.expiredUses}`,
    });
    // The run outlives a token: every role's was renewed at least once (whether a worker's test used the first before its
    // renewal depends on when the test ran); the primary's, used all along, after its revocation and as it expired.
    for (const role of ['otherUser', 'channelA', 'channelB']) expect(issuedTo(role).length, role).toBeGreaterThanOrEqual(2);
    expect(issuedTo('primary').filter((t) => t.uses > 0).length).toBeGreaterThanOrEqual(3);
    // Renewed before it expired: the target never saw an expired token (a 401 to one would have been resent, but counted here).
    expect(tokens.expiredUses).toBe(0);
    // The revoked token was refused only while it was the current one: the requests then under way, no more.
    expect(tokens.revokedUses).toBeGreaterThanOrEqual(1);
    expect(tokens.revokedUses).toBeLessThanOrEqual(16);
  });

  test('no token and no client secret is in any file the run wrote, in any encoding, nor on its console; the echoes were there to redact', () => {
    // Each token whole, and its random last part alone: every token shares its JWT header, so a token half redacted
    // (by an older token's prefix) would still show that part.
    const secretsOfRun = [...[...tokens.issued.keys()].flatMap((token) => [token, token.split('.').pop()!]), secrets.primary, secrets.channelA];
    const texts = [
      ...filesOf(run.reportDir),
      ...filesOf(run.outputDir),
      ...filesOf(runDirOf(runId)),
      { name: 'stdout', text: run.stdout },
      { name: 'stderr', text: run.stderr },
    ];
    expect(texts.filter((t) => t.name.includes(`agc-run-${runId}`)).length, 'the run folder was kept to be searched').toBeGreaterThan(0);
    expect(findSecrets(texts, secretsOfRun)).toEqual([]);
    // The target echoed every Authorization it got into a header that the run's folder and, for ENV-04's failure, the
    // reports keep: what is there was redacted.
    const summary = readJson<{ requirements: { id: string; status: string }[] }>(path.join(run.reportDir, 'conformance.json'));
    expect(summary.requirements.find((r) => r.id === 'ENV-04')?.status).toBe('failed');
    for (const file of ['exchanges.har', 'conformance.json', 'index.html', 'dataset.json'])
      expect(
        texts.some((t) => t.name.endsWith(file) && /redacted token(&gt;|>); b64=/.test(t.text)),
        `${file} holds a redacted echo`,
      ).toBe(true);
  });
});

test('a token command that fails stops the run before any request: a configuration error naming the variable', async () => {
  const reference = await startReferenceServer(REFERENCE_DEFAULTS);
  try {
    const failing = JSON.stringify([
      NODE,
      '-e',
      'process.stdout.write("part-TOKEN-31337abc"); console.error("no session part-TOKEN-31337abc"); process.exit(5)',
    ]);
    const run = await runAgc(['run'], { AG_BASE_URL: reference.url, AG_TOKEN: 'static-primary', AG_TOKEN_CHANNEL_B_COMMAND: failing });
    expect(run.status, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toMatch(/configuration error: AG_TOKEN_CHANNEL_B_COMMAND \(the channelB token\): it exited with status 5/);
    expect(`${run.stdout}${run.stderr}`).not.toContain('part-TOKEN');
    expect(reference.stats().requests).toBe(0);
  } finally {
    await reference.close();
  }
});

test('agc profile discover fetches its token from the command too, and prints it nowhere', async () => {
  const reference = await startReferenceServer(REFERENCE_DEFAULTS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-tokens-discover-'));
  try {
    const token = referenceTokens({}).primary;
    const command = JSON.stringify([NODE, '-e', `console.log(${JSON.stringify(token)})`]);
    const out = path.join(dir, 'profile.yaml');
    const run = await runAgc(['profile', 'discover', '--out', out], { AG_BASE_URL: reference.url, AG_TOKEN_COMMAND: command });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(reference.stats().requests).toBeGreaterThan(10);
    expect(findSecrets([...filesOf(dir), { name: 'console', text: run.stdout + run.stderr }], [token])).toEqual([]);
  } finally {
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
