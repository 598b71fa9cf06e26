/** The reference server's options (create rate, latency, users) and its command line. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startReferenceServer } from '../reference/server';
import { ROOT } from './helpers/harness';
import { Client, CREATE, expect, expectError, expectSuccess, LIST, sleep, SPEC_PATH, test, TOKENS, VERSION } from './helpers/reference-client';

test.describe('create rate', () => {
  test.describe('limited', () => {
    test.use({ refOptions: { lagMs: 0, createRate: { perSecond: 1, burst: 3 } } });
    test('past the bucket a create is a 429 UpstreamRateLimit with Retry-After in whole seconds', async ({ ref }) => {
      for (let i = 0; i < 3; i++) await ref.createOk({ Name: `burst ${i}` });
      const r = await ref.create({ Name: 'one too many' });
      expectError(r, 429, 'UpstreamRateLimit', CREATE);
      const retryAfter = r.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(ref.server.stats()).toMatchObject({ creates: 3, rateLimited: 1 });
      // The rejected create left no group behind.
      expect(await ref.listIds({})).toHaveLength(3);
      // Per token: another token of the same user still has its whole bucket.
      await ref.createOk({ Name: 'other token' }, 'channelA');
      // Lists are never rate limited.
      for (let i = 0; i < 5; i++) expectSuccess(await ref.list({}), LIST);
    });

    test('invalid creates do not spend the bucket', async ({ ref }) => {
      for (let i = 0; i < 6; i++) expectError(await ref.create({}), 400, 'AssetError', CREATE);
      for (let i = 0; i < 3; i++) await ref.createOk({ Name: `after invalid ${i}` });
    });
  });

  test('Retry-After is the wait for the next token, rounded up (injected clock)', async ({ startReference }) => {
    let now = 0;
    const ref = new Client(await startReference({ lagMs: 0, createRate: { perSecond: 0.5, burst: 1 }, clock: () => now }), 0);
    await ref.createOk({ Name: 'first' });
    expect((await ref.create({ Name: 'x' })).headers.get('retry-after')).toBe('2');
    now = 1000;
    expect((await ref.create({ Name: 'x' })).headers.get('retry-after')).toBe('1');
    now = 2000;
    await ref.createOk({ Name: 'refilled' });
  });

  test.describe('default', () => {
    test.use({ refOptions: { lagMs: 0 } });
    test('is on by default (20/s, burst 40)', async ({ ref }) => {
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => ref.create({ Name: `flood ${i}` })));
      const statuses = replies.map((r) => r.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(40);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    });
  });

  test.describe('off', () => {
    test.use({ refOptions: { lagMs: 0, createRate: null } });
    test('createRate null never answers 429', async ({ ref }) => {
      const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => ref.create({ Name: `free ${i}` })));
      expect(replies.map((r) => r.status).every((s) => s === 200)).toBe(true);
      expect(ref.server.stats()).toMatchObject({ creates: 100, rateLimited: 0 });
    });
  });
});

test.describe('latency', () => {
  test.use({ refOptions: { lagMs: 0, latencyMs: 300 } });
  test('every response is delayed by latencyMs without blocking others', async ({ ref }) => {
    const ok = await ref.list({});
    expectSuccess(ok, LIST);
    expect(ok.elapsedMs).toBeGreaterThanOrEqual(280);
    const err = await ref.call({ authorization: null });
    expect(err.status).toBe(401);
    expect(err.elapsedMs).toBeGreaterThanOrEqual(280);
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => ref.list({})));
    expect(performance.now() - started).toBeLessThan(2 * 300);
  });
});

test.describe('server', () => {
  test('listens on 127.0.0.1 and counts requests', async ({ ref }) => {
    expect(ref.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await ref.list({});
    await ref.call({ path: '/x' });
    expect(ref.server.stats().requests).toBe(2);
  });

  test('custom users and tokens; duplicate token values are refused', async ({ startReference }) => {
    const server = await startReference({ lagMs: 0, users: [{ id: 'u1', tokens: [{ token: 'custom-token', channel: null }] }] });
    const list = (token: string) =>
      fetch(`${server.url}${SPEC_PATH}?Action=${LIST}&Version=${VERSION}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: '{}' });
    expect((await list('custom-token')).status).toBe(200);
    expect((await list(TOKENS.primary)).status).toBe(401);
    const dup = [
      { id: 'u1', tokens: [{ token: 'same', channel: null }] },
      { id: 'u2', tokens: [{ token: 'same', channel: null }] },
    ];
    await expect(startReferenceServer({ users: dup })).rejects.toThrow(/share one value/);
  });
});

test.describe('CLI', () => {
  const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const MAIN = path.join(ROOT, 'reference', 'main.ts');

  function run(args: string[]) {
    const child = spawn(TSX, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d.toString()));
    child.stderr.on('data', (d) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const waitFor = async (pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> => {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const m = stdout.match(pattern);
        if (m) return m;
        if (child.exitCode !== null || performance.now() > deadline) throw new Error(`no ${pattern} in stdout: ${stdout} / stderr: ${stderr}`);
        await sleep(20);
      }
    };
    return { child, exited, waitFor, out: () => stdout, err: () => stderr };
  }

  test('starts, prints AG_REFERENCE_URL, serves, and stops cleanly on SIGINT', async () => {
    const proc = run(['--port', '0', '--no-print-tokens', '--lag', '0']);
    try {
      const [, url] = await proc.waitFor(/^AG_REFERENCE_URL=(http:\/\/127\.0\.0\.1:\d+)$/m);
      const r = await fetch(`${url}${SPEC_PATH}?Action=${CREATE}&Version=${VERSION}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.primary}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ Name: 'from the CLI' }),
      });
      expect(r.status).toBe(200);
      expect(proc.out()).not.toMatch(/AG_TOKEN/);
      expect(proc.out()).not.toContain(TOKENS.primary);
      proc.child.kill('SIGINT');
      expect(await proc.exited).toEqual({ code: 0, signal: null });
      expect(proc.out().trim().split('\n')).toEqual([`AG_REFERENCE_URL=${url}`]);
      expect(proc.err()).toBe('');
    } finally {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
  });

  test('prints the tokens as .env lines by default and stops on SIGTERM', async () => {
    const proc = run(['--port', '0', '--create-rate', 'off', '--latency', '0']);
    try {
      await proc.waitFor(/^AG_TOKEN_CHANNEL_B=.*$/m);
      const lines = proc.out().trim().split('\n');
      expect(lines[0]).toMatch(/^AG_REFERENCE_URL=http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.slice(1)).toEqual([
        `AG_TOKEN=${TOKENS.primary}`,
        `AG_TOKEN_OTHER_USER=${TOKENS.otherUser}`,
        `AG_TOKEN_CHANNEL_A=${TOKENS.channelA}`,
        `AG_TOKEN_CHANNEL_B=${TOKENS.channelB}`,
      ]);
      proc.child.kill('SIGTERM');
      expect((await proc.exited).code).toBe(0);
    } finally {
      if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
    }
  });

  test('a bad option or value is one line naming it, exit 3; --help lists the options', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--bogus'], /--bogus/],
      [['--port', 'abc'], /--port/],
      [['--create-rate', 'fast'], /--create-rate/],
      [['--lag', '-5'], /--lag/],
    ];
    const results = await Promise.all(
      cases.map(async ([args]) => {
        const proc = run(args);
        return { ...(await proc.exited), out: proc.out(), err: proc.err() };
      }),
    );
    for (const [i, result] of results.entries()) {
      expect(result.code, cases[i][0].join(' ')).toBe(3);
      expect(result.err.trim().split('\n')).toHaveLength(1);
      expect(result.err).toMatch(cases[i][1]);
      expect(result.err).not.toMatch(/\n\s+at /);
      expect(result.out).toBe('');
    }
    const help = run(['--help']);
    expect((await help.exited).code).toBe(0);
    for (const option of ['--port', '--lag', '--create-rate', '--latency', '--print-tokens', '--no-print-tokens']) expect(help.out()).toContain(option);
  });
});
