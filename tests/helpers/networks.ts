/**
 * What tests/networks.test.ts puts between the kit and a target: a forward proxy of its own, and a private CA made with
 * the openssl CLI (Node's crypto makes keys, not X.509 certificates). Both stay on 127.0.0.1 and in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** What the proxy saw: CONNECTs, absolute-form requests, and whether any of it held a secret. */
export interface ProxySeen {
  connects: number;
  /** host:port of each CONNECT. */
  tunnels: string[];
  /** Plain requests it forwarded (absolute-form, for http targets). */
  requests: number;
  /** CONNECTs or requests that carried an Authorization header. */
  withAuthorization: number;
  /** Whether `secret` appeared in any byte a client sent to the proxy, tunnelled bytes included. */
  secretSeen: boolean;
}

export interface ForwardProxy {
  url: string;
  seen: ProxySeen;
  close(): Promise<void>;
}

/**
 * A forward proxy as a CI network has one: CONNECT is piped to the target, an absolute-form request is sent on. Every
 * byte a client sends it is searched for `secret`, across chunk boundaries. `refuse` answers every CONNECT with that
 * status instead (a proxy that wants credentials: 407).
 */
export async function startForwardProxy(secret: string, refuse?: number): Promise<ForwardProxy> {
  const seen: ProxySeen = { connects: 0, tunnels: [], requests: 0, withAuthorization: 0, secretSeen: false };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.requests++;
    if (req.headers.authorization) seen.withAuthorization++;
    const upstream = http.request(new URL(req.url ?? ''), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let tail = '';
    socket.on('data', (chunk: Buffer) => {
      const window = tail + chunk.toString('latin1');
      if (window.includes(secret)) seen.secretSeen = true;
      tail = window.slice(-(secret.length - 1));
    });
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.connects++;
    seen.tunnels.push(req.url ?? '');
    if (req.headers.authorization) seen.withAuthorization++;
    if (refuse) return void client.end(`HTTP/1.1 ${refuse} ${http.STATUS_CODES[refuse]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    const { hostname, port } = new URL(`http://${req.url}`);
    const upstream = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const OPENSSL = '/usr/bin/openssl';
export const OPENSSL_INSTALL_HINT = 'openssl is not installed: apt-get install -y openssl, then run again';
export const opensslInstalled = (): boolean => existsSync(OPENSSL);

export interface PrivateCA {
  dir: string;
  /** The CA's certificate (PEM): what --ca-file is given. */
  caFile: string;
  /** The server's certificate and key, signed by the CA, for `names` (subjectAltName entries, e.g. IP:127.0.0.1). */
  certFile: string;
  keyFile: string;
}

function openssl(args: string[], cwd: string): void {
  const done = spawnSync(OPENSSL, args, { cwd, encoding: 'utf8', timeout: 10_000 });
  if (done.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${done.stderr}`);
}

/** A CA of its own and a server certificate it signed, valid for two days: as a staging network's private CA. */
export function makePrivateCA(names: string[]): PrivateCA {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=agc test private CA'], dir);
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=agc test server'], dir);
  writeFileSync(
    path.join(dir, 'server.ext'),
    `subjectAltName=${names.join(',')}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '2',
      '-days',
      '2',
      '-extfile',
      'server.ext',
      '-out',
      'server.pem',
    ],
    dir,
  );
  return { dir, caFile: path.join(dir, 'ca.pem'), certFile: path.join(dir, 'server.pem'), keyFile: path.join(dir, 'server.key') };
}
