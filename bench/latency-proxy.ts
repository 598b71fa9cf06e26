/**
 * A small HTTP proxy in front of a target that holds every answer `latencyMs` before it writes it back, at the socket:
 * latency as a far target has it, added by a process path the reference server's own hook does not share. It logs when
 * each request arrived and when its answer left, which is what the critical path is computed from (critical-path.ts).
 * Listens on 127.0.0.1 only; bodies pass through untouched.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedExchange {
  /** ms since the proxy started, when the request's body had arrived whole. */
  arrivedMs: number;
  /** ms since the proxy started, when the answer had been written back. */
  answeredMs: number;
  action: string | null;
  body: string;
  status: number;
}

export interface LatencyProxy {
  url: string;
  log: ProxiedExchange[];
  close(): Promise<void>;
}

export async function startLatencyProxy(target: string, latencyMs: number): Promise<LatencyProxy> {
  const started = performance.now();
  const now = () => performance.now() - started;
  const log: ProxiedExchange[] = [];
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrivedMs = now();
      const body = Buffer.concat(chunks);
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host }, agent },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () =>
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(parts), () => {
                const action = new URL(req.url ?? '/', 'http://proxy').searchParams.get('Action');
                log.push({ arrivedMs, answeredMs: now(), action, body: body.toString('utf8').slice(0, 2000), status: answer.statusCode ?? 0 });
              });
            }, latencyMs),
          );
        },
      );
      forward.on('error', () => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('proxy: the target did not answer');
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
