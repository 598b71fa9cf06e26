/**
 * The client's connections (client/exchange.ts): a kept-alive connection that the target closes as
 * idle just as the kit sends on it is not the target's failure; a reset on a new connection is; the pool
 * of connections never holds back what the kit's lanes let under way.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { send } from '../client/exchange';
import { MAX_SOCKETS } from '../client/network';
import { KIT_WORKERS } from '../config';
import { sendAheadLanes } from '../suites/plans';

/**
 * A raw HTTP/1.1 server that answers the first request of each connection with 200 and keeps the
 * connection open, and meets the requests after it, on that connection, with `then`: a reset, as a
 * server whose keep-alive timeout expired as the request arrived does (Starman's is 1 s).
 */
async function keepAliveServer(then: 'reset-later' | 'reset-all') {
  const seen = { connections: 0, requests: 0 };
  const server = net.createServer((socket) => {
    seen.connections++;
    let onThis = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length:\s*(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        seen.requests++;
        onThis++;
        if (then === 'reset-all' || onThis > 1) return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\n{}');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const list = { action: 'ListAssetGroups', version: '2024-01-01', body: '{}', authorization: null, authorizationShown: '', timeoutMs: 2000 };
const create = { ...list, action: 'CreateAssetGroup', body: '{"Name":"agc-test-stale"}' };

for (const [what, options] of [
  ['a list', list],
  ['a create', create],
] as const) {
  test(`${what} sent on a kept-alive connection the target resets is sent again once, on a new connection`, async () => {
    const target = await keepAliveServer('reset-later');
    try {
      const first = await send(target.url, options);
      expect(first.response?.status).toBe(200);
      // The pool hands the same connection to the next request, which the target resets unanswered.
      const second = await send(target.url, options);
      expect(second.networkError, 'a stale connection is not the target failing').toBeUndefined();
      expect(second.response?.status).toBe(200);
      expect(target.seen).toEqual({ connections: 2, requests: 3 });
    } finally {
      await target.close();
    }
  });
}

test('a reset on a new connection is the target’s: reported as such, and not sent again', async () => {
  const target = await keepAliveServer('reset-all');
  try {
    const answer = await send(target.url, list);
    expect(answer.response).toBeUndefined();
    expect(answer.networkError).toBe('connection reset by the target');
    expect(target.seen).toEqual({ connections: 1, requests: 1 });
  } finally {
    await target.close();
  }
});

test("the connection pool is a backstop: as many requests are under way as the runner's lanes let, and never more than MAX_SOCKETS", async () => {
  // A target that holds every answer until `target` requests are under way at once, or until none more has come for
  // 500 ms: the count reaches the target whatever the machine's load, and stays below it only where the kit holds back.
  let inFlight = 0;
  let most = 0;
  let target = 0;
  const held: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    for (const answer of held.splice(0)) answer();
  };
  const server = http.createServer((req, res) => {
    most = Math.max(most, ++inFlight);
    req.resume();
    held.push(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    clearTimeout(timer);
    if (held.length >= target) release();
    else timer = setTimeout(release, 500);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const lanes = (target = sendAheadLanes(KIT_WORKERS));
    const patient = { ...list, timeoutMs: 10_000 };
    // A pool of 16 once queued the runner's 24 lanes behind one another: 10 round trips of a far target instead of 6.
    await Promise.all(Array.from({ length: lanes }, () => send(url, patient)));
    expect(most, 'requests under way at once').toBe(lanes);
    [most, target] = [0, MAX_SOCKETS];
    await Promise.all(Array.from({ length: MAX_SOCKETS + 8 }, () => send(url, patient)));
    expect(most).toBe(MAX_SOCKETS);
    expect(sendAheadLanes(100)).toBe(MAX_SOCKETS);
  } finally {
    release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
