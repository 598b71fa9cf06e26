/**
 * A private Debian nginx in front of a server, for tests that put a real reverse proxy in the loop
 * (tests/nginx.test.ts). Nothing of the system's nginx is used or touched: the instance runs from a
 * temporary prefix (`nginx -e stderr -p DIR -c DIR/nginx.conf`), in the foreground, with its pid,
 * temp folders and sockets under DIR, and listens on 127.0.0.1 only.
 *
 * The caller writes the server blocks; this module adds what every instance needs, finds a free
 * port, waits until the upstream answers through nginx, and stops it with SIGQUIT (SIGKILL to its
 * process group if that does not end it), always removing DIR.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const NGINX = '/usr/sbin/nginx';
export const NGINX_INSTALL_HINT = 'nginx is not installed: apt-get install -y nginx (Debian/Ubuntu), then run again';

/** How long nginx may take to start and to answer through to the upstream; how long a graceful stop may take. */
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const PROBE_TIMEOUT_MS = 1_000;

export function nginxInstalled(): boolean {
  return existsSync(NGINX) && spawnSync(NGINX, ['-v'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
}

export interface NginxSite {
  /** `127.0.0.1:PORT`, for the front server block's `listen`. */
  listen: string;
  /** The upstream's `http://127.0.0.1:PORT`, for `proxy_pass`. */
  upstream: string;
  /** The instance's prefix folder, for anything else it needs (unix sockets of inner server blocks). */
  dir: string;
}

export interface NginxFront {
  /** http://127.0.0.1:PORT, the front server block. */
  url: string;
  /** The nginx.conf it runs, for messages. */
  config: string;
  /** What nginx wrote to stderr so far (its error log). */
  log(): string;
  close(): Promise<void>;
}

/** The main context every private instance needs around the caller's `http` content. */
function mainConfig(dir: string, http: string): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${path.join(dir, `${kind}_temp`)};`).join('\n');
  return [
    'daemon off;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    'error_log stderr warn;',
    // As root the workers would drop to www-data, which cannot read DIR.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    'events { worker_connections 256; }',
    'http {',
    '    access_log off;',
    temp,
    http.replace(/^/gm, '    '),
    '}',
    '',
  ].join('\n');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One request to the front: its status and Server header, or undefined when nothing answered in time. */
function probe(url: string): Promise<{ status: number; server: string } | undefined> {
  return new Promise((resolve) => {
    const req = http.request(new URL('/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '2' },
      timeout: PROBE_TIMEOUT_MS,
      agent: false,
    });
    const deadline = setTimeout(() => req.destroy(), PROBE_TIMEOUT_MS);
    req.on('timeout', () => req.destroy());
    req.on('error', () => {
      clearTimeout(deadline);
      resolve(undefined);
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, server: String(res.headers.server ?? '') });
      });
      res.on('error', () => resolve(undefined));
    });
    req.end('{}');
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Instances still running, killed if the worker exits before closing them (a test timed out). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    // Started detached: the master leads its own process group, workers included.
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts nginx with the caller's `http` content (its server blocks) in front of `upstream`, and
 * resolves once a request through the front reaches the upstream (any answer but nginx's own
 * 502/504). A port taken between choosing and binding it is retried with another.
 */
export async function startNginx(upstream: string, site: (s: NginxSite) => string): Promise<NginxFront> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(upstream, site);
    } catch (error) {
      lastError = error as Error;
      if (!/Address already in use/.test(lastError.message)) throw lastError;
    }
  }
  throw lastError!;
}

async function startOnce(upstream: string, site: (s: NginxSite) => string): Promise<NginxFront> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-nginx-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = mainConfig(dir, site({ listen: `127.0.0.1:${port}`, upstream: upstream.replace(/\/$/, ''), dir }));
  const configFile = path.join(dir, 'nginx.conf');
  writeFileSync(configFile, config);
  const child = spawn(NGINX, ['-e', 'stderr', '-p', `${dir}/`, '-c', configFile], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    // Bounded: a chatty instance must not grow the worker's memory.
    if (stderr.length < 64_000) stderr += chunk.toString();
  });
  child.on('error', (error) => (stderr += `\n${error.message}`));

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      if (!exited(child)) {
        // SIGQUIT: a graceful stop, the master waits for its workers.
        child.kill('SIGQUIT');
        if (!(await waitExit(child, STOP_TIMEOUT_MS))) {
          killGroup(child, 'SIGKILL');
          await waitExit(child, STOP_TIMEOUT_MS);
        }
      }
      // Workers outlive a master that was killed: end what is left of the group either way.
      killGroup(child, 'SIGKILL');
    } finally {
      running.delete(child);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exited(child))
        throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}) before answering:\n${stderr.trim()}\n--- ${configFile}\n${config}`);
      const answer = await probe(url);
      // 502/504 are nginx's own: the upstream is not reachable through it (yet). Another Server
      // is whoever took the port first: nginx will give up binding it and exit.
      if (answer && answer.status !== 502 && answer.status !== 504 && answer.server.startsWith('nginx') && !exited(child)) break;
      if (Date.now() > deadline)
        throw new Error(
          `nginx did not reach the upstream ${upstream} within ${READY_TIMEOUT_MS} ms (last answer: ${answer ? `${answer.status} from ${answer.server || 'no Server'}` : 'none'}):\n${stderr.trim()}`,
        );
      await sleep(50);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { url, config, log: () => stderr, close };
}
