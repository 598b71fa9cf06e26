/** `agc profile discover` with faulty targets, a refused token and bad usage: a clear message, the right exit code, no draft, no token printed. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { runAgc } from '../helpers/harness';
import { discover, expectNoToken, serve, work } from '../helpers/discover-harness';

test.describe.configure({ mode: 'parallel' });

test.describe('faulty targets, a refused token, bad usage', () => {
  type Fault = (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const faults: [string, Fault, RegExp][] = [
    ['accepts connections but never answers', () => undefined, /no (complete )?answer within (AG_REQUEST_TIMEOUT_MS = )?1500 ms/],
    [
      'answers an HTML 502 from a proxy',
      (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
      /HTTP 502 \(text\/html\) is not JSON: "502 Bad Gateway"/,
    ],
    [
      'answers JSON that is not this API',
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok": true}'),
      /does not look like the asset-group API/,
    ],
  ];
  for (const [what, fault, message] of faults) {
    test(`a target that ${what} gets a clear message and exit 2, no draft`, async () => {
      const server = http.createServer(fault);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const dir = work('fault');
        const out = path.join(dir, 'profile.yaml');
        const run = await discover(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, out, dir, { AG_REQUEST_TIMEOUT_MS: '1500' });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr).toMatch(/no draft written; used 1 requests of 80, 0 groups created of 6/);
        expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
        expect(run.durationMs).toBeLessThan(20_000);
        expectNoToken(run.stdout, run.stderr);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }

  test('an unreachable target gets a clear message and exit 2', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dir = work('unreachable');
    const run = await discover(`http://127.0.0.1:${port}`, path.join(dir, 'profile.yaml'), dir);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stderr).toMatch(/connection refused \(is the target up\?\)/);
  });

  test('a refused token is a configuration error (exit 3) and is never printed', async () => {
    const server = await serve(undefined);
    try {
      const dir = work('token');
      const wrong = 'wrong-token-5f2c9a';
      const run = await discover(server.url, path.join(dir, 'profile.yaml'), dir, { AG_TOKEN: wrong });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(3);
      expect(run.stderr).toMatch(/AG_TOKEN was refused/);
      expect(`${run.stdout}\n${run.stderr}`).not.toContain(wrong);
    } finally {
      await server.close();
    }
  });

  test('--help explains it; a missing --out or AG_TOKEN is a usage error', async () => {
    const help = await runAgc(['profile', 'discover', '--help'], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/at most 80 requests and at most 6 groups created/);
    expect(help.stdout).toMatch(/AG_PROFILE=FILE npx agc run/);
    const noOut = await runAgc(['profile', 'discover'], {});
    expect(noOut.status).toBe(3);
    expect(noOut.stderr).toMatch(/--out FILE is required/);
    const noToken = await runAgc(['profile', 'discover', '--out', path.join(work('usage'), 'p.yaml')], { AG_BASE_URL: 'http://127.0.0.1:9' });
    expect(noToken.status).toBe(3);
    expect(noToken.stderr).toMatch(/AG_TOKEN is required/);
  });
});
