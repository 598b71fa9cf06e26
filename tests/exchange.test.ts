/**
 * The client's connections (client/exchange.ts): a kept-alive connection that the target closes as
 * idle just as the kit sends on it is not the target's failure; a reset on a new connection is.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { send } from '../client/exchange';

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
