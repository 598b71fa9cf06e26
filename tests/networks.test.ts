/**
 * Staging networks (docs/networks.md): the proxy is chosen as curl chooses it (checked against curl itself), a run goes
 * through a forward proxy that never sees a token, and a private CA is either trusted with --ca-file or named in a
 * one-line message. The whole runs go through Debian's nginx terminating TLS with a certificate of a CA made here.
 *
 * Without nginx or openssl the TLS tests are skipped with the command that installs them, unless AG_REQUIRE_NGINX=1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { send, type SendOptions } from '../client/exchange';
import { noProxyMatches, proxyFor, routeNote, tlsAdvice } from '../client/network';
import { startReferenceServer, type ReferenceServer } from '../reference/server';
import { NGINX_INSTALL_HINT, nginxInstalled, startNginx, type NginxFront } from './helpers/nginx';
import { makePrivateCA, OPENSSL_INSTALL_HINT, opensslInstalled, startForwardProxy, type ForwardProxy, type PrivateCA } from './helpers/networks';
import { cleanEnv, readJson, referenceTokenEnv, runAgc } from './helpers/harness';
import { discoverProfile } from '../discover/command';
// Loaded here as tests/matrices/discover.test.ts does: discover imports it lazily, which a Playwright worker resolves only once loaded.
import { checkProfileConsistency } from '../schemas';
import { loadProfile } from '../schemas/profile';

// ------------------------------------------------------------------ which proxy, as curl decides

/** Each proxy variable points at a port of its own on 127.0.0.1 where nothing listens: where curl connects tells which it chose. */
const PROXY_PORTS: Record<string, number> = { https_proxy: 1, HTTPS_PROXY: 2, http_proxy: 3, HTTP_PROXY: 4, all_proxy: 5, ALL_PROXY: 6 };
const DIRECT = 'direct';

/** [proxy variables set, no_proxy/NO_PROXY values, target, what curl uses]. Targets on port 9 of 127.0.0.1 go nowhere either. */
const CASES: [string[], Record<string, string>, string, string][] = [
  [['https_proxy'], {}, 'https://api.example.com:9/', 'https_proxy'],
  [['HTTPS_PROXY'], {}, 'https://api.example.com:9/', 'HTTPS_PROXY'],
  [['https_proxy', 'HTTPS_PROXY'], {}, 'https://api.example.com:9/', 'https_proxy'],
  [['HTTPS_PROXY'], { https_proxy: '' }, 'https://api.example.com:9/', 'HTTPS_PROXY'], // set but empty is unset
  [['HTTP_PROXY'], {}, 'http://api.example.com:9/', DIRECT], // curl ignores upper-case HTTP_PROXY (httpoxy)
  [['http_proxy', 'https_proxy'], {}, 'http://api.example.com:9/', 'http_proxy'],
  [['HTTP_PROXY', 'ALL_PROXY'], {}, 'http://api.example.com:9/', 'ALL_PROXY'],
  [['all_proxy', 'ALL_PROXY'], {}, 'https://api.example.com:9/', 'all_proxy'],
  [['https_proxy'], {}, 'https://localhost:9/', 'https_proxy'], // loopback is proxied unless NO_PROXY says otherwise
  [['https_proxy'], { NO_PROXY: 'example.com' }, 'https://api.example.com:9/', DIRECT],
  [['https_proxy'], { no_proxy: '.example.com' }, 'https://example.com:9/', DIRECT],
  [['https_proxy'], { no_proxy: 'example.com' }, 'https://notexample.com:9/', 'https_proxy'],
  [['https_proxy'], { no_proxy: 'api.example.com:9' }, 'https://api.example.com:9/', 'https_proxy'], // no ports in curl's list
  [['https_proxy'], { no_proxy: 'other.test , API.EXAMPLE.COM' }, 'https://api.example.com:9/', DIRECT],
  [['https_proxy'], { no_proxy: '', NO_PROXY: 'api.example.com' }, 'https://api.example.com:9/', DIRECT],
  [['https_proxy'], { no_proxy: 'other.test', NO_PROXY: 'api.example.com' }, 'https://api.example.com:9/', 'https_proxy'],
  [['https_proxy'], { no_proxy: '*' }, 'https://api.example.com:9/', DIRECT],
  [['https_proxy'], { no_proxy: '127.0.0.0/8' }, 'https://127.0.0.5:9/', DIRECT],
  [['https_proxy'], { no_proxy: '127.0.0.1' }, 'https://localhost:9/', 'https_proxy'], // a name is not its address
  [['https_proxy'], { no_proxy: 'localhost' }, 'https://127.0.0.1:9/', 'https_proxy'],
];

const envOf = (variables: string[], noProxy: Record<string, string>) => ({
  ...Object.fromEntries(variables.map((v) => [v, `http://127.0.0.1:${PROXY_PORTS[v]}`])),
  ...noProxy,
});

/** What curl connects to first for this environment: a proxy variable's port, or the target. */
function curlChoice(env: Record<string, string>, url: string): string {
  const host = new URL(url).hostname;
  const done = spawnSync('curl', ['-sv', '--max-time', '3', '--resolve', `${host}:9:127.0.0.1`, url], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  const port = Number(/Trying [^\n]*:(\d+)\.\.\./.exec(done.stderr)?.[1]);
  return Object.entries(PROXY_PORTS).find(([, p]) => p === port)?.[0] ?? (port === 9 ? DIRECT : `unknown (${done.stderr.slice(0, 300)})`);
}

test.describe('the proxy is chosen as curl chooses it', () => {
  test('each environment picks the variable curl picks, or none', () => {
    const curl = spawnSync('curl', ['--version'], { encoding: 'utf8' }).status === 0;
    for (const [variables, noProxy, url, expected] of CASES) {
      const env = envOf(variables, noProxy);
      const label = `${JSON.stringify(env)} ${url}`;
      expect(proxyFor(new URL(url), env)?.variable ?? DIRECT, label).toBe(expected);
      // The table is curl's behaviour, as curl itself shows it where it is installed (Debian's has it).
      if (curl) expect(curlChoice(env, url), `curl: ${label}`).toBe(expected);
    }
  });

  test('NO_PROXY entries match by name, domain or address range, never by a longer or partial name', () => {
    expect(noProxyMatches('api.example.com.', 'example.com.')).toBe(true);
    expect(noProxyMatches('[::1]', '::1')).toBe(true);
    expect(noProxyMatches('[2001:db8::5]', '2001:db8::/32')).toBe(true);
    expect(noProxyMatches('10.1.2.3', '10.0.0.0/16')).toBe(false);
    expect(noProxyMatches('example.com', 'api.example.com')).toBe(false);
    expect(noProxyMatches('example.com', 'xample.com')).toBe(false);
  });

  test('the embedded reference server is never proxied; a proxy variable that is no HTTP proxy is said plainly', () => {
    const env = { https_proxy: 'http://127.0.0.1:1', http_proxy: 'http://127.0.0.1:1', AG_REFERENCE_URL: 'http://127.0.0.1:4567' };
    expect(proxyFor(new URL('http://127.0.0.1:4567/v1/media_assets/'), env)).toBeUndefined();
    expect(proxyFor(new URL('http://127.0.0.1:4568/'), env)?.variable).toBe('http_proxy');
    expect(() => proxyFor(new URL('https://a.test/'), { https_proxy: 'socks5://127.0.0.1:1080' })).toThrow(/HTTP and HTTPS proxies only/);
    expect(proxyFor(new URL('https://a.test/'), { https_proxy: 'proxy.test:3128' })?.url.href).toBe('http://proxy.test:3128/');
  });
});

test('every refused certificate is said as what to do, never as "turn the checks off"', () => {
  const untrusted = ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT'];
  for (const code of untrusted) {
    const advice = tlsAdvice(code, 'node says', {});
    expect(advice, code).toMatch(new RegExp(`^TLS: .*\\(${code}\\); .*agc run --ca-file /path/\\S+\\.pem, or NODE_EXTRA_CA_CERTS=/path/\\S+\\.pem$`));
  }
  expect(tlsAdvice('SELF_SIGNED_CERT_IN_CHAIN', '', { AG_CA_FILE: '/etc/ca.pem' })).toContain('(not the CA in --ca-file /etc/ca.pem, nor one Node trusts)');
  expect(tlsAdvice('CERT_HAS_EXPIRED', '', {})).toBe(
    "TLS: the target's certificate has expired (CERT_HAS_EXPIRED); renew it on the target, or check this machine's clock",
  );
  expect(tlsAdvice('ERR_SSL_WRONG_VERSION_NUMBER', '', {})).toMatch(/should AG_BASE_URL start with http:\/\/\?$/);
  expect(tlsAdvice('ECONNREFUSED', '', {})).toBeUndefined();
  for (const code of [...untrusted, 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID'])
    expect(tlsAdvice(code, '', {})).not.toMatch(/REJECT_UNAUTHORIZED|insecure|-k\b/);
});

// ------------------------------------------------------------------ through a forward proxy, plain http

const TOKEN = 'tok-networks-0123456789abcdef';
const call = (env: NodeJS.ProcessEnv, extra: Partial<SendOptions> = {}): SendOptions => ({
  action: 'ListAssetGroups',
  version: '2024-01-01',
  body: '{}',
  authorization: `Bearer ${TOKEN}`,
  authorizationShown: 'Bearer <primary token>',
  timeoutMs: 5_000,
  networkEnv: env,
  ...extra,
});

test.describe('a forward proxy', () => {
  let proxy: ForwardProxy;
  test.afterEach(async () => proxy?.close());

  test('a plain-http target through http_proxy: the proxy reads the request, as the run warns', async () => {
    const server = await startReferenceServer({ port: 0 });
    proxy = await startForwardProxy(TOKEN);
    try {
      const env = { http_proxy: proxy.url };
      const exchange = await send(server.url, call(env));
      expect(exchange.response?.status, exchange.networkError).toBe(401);
      expect(proxy.seen).toMatchObject({ requests: 1, connects: 0, withAuthorization: 1, secretSeen: true });
      expect(routeNote(server.url, env)).toMatch(/warning: the target is plain http, so the proxy reads every request, tokens included/);
      // NO_PROXY covering the host: straight to the target.
      const direct = await send(server.url, call({ ...env, no_proxy: '127.0.0.1' }));
      expect(direct.response?.status).toBe(401);
      expect(proxy.seen.requests).toBe(1);
      // https:// to a plain-http port: said as such, not as OpenSSL's record error.
      const plain = await send(server.url.replace('http:', 'https:'), call({}));
      expect(plain.networkError).toBe(
        'TLS: the target did not answer TLS (ERR_SSL_WRONG_VERSION_NUMBER); does it serve https on that port, or should AG_BASE_URL start with http://?',
      );
    } finally {
      await server.close();
    }
  });

  test("a proxy that refuses the tunnel is named with its status, not taken for the target's answer", async () => {
    proxy = await startForwardProxy(TOKEN, 407);
    const exchange = await send('https://127.0.0.1:9', call({ HTTPS_PROXY: proxy.url.replace('//', '//user:pw@') }));
    expect(exchange.response).toBeUndefined();
    expect(exchange.networkError).toBe(
      `the proxy http://<credentials>@${new URL(proxy.url).host} (HTTPS_PROXY) refused the tunnel to 127.0.0.1:9: HTTP 407 Proxy Authentication Required; give the proxy its credentials in the URL (http://user:password@proxy:port)`,
    );
    expect(proxy.seen).toMatchObject({ connects: 1, withAuthorization: 0, secretSeen: false });
    const down = await send('https://127.0.0.1:9', call({ https_proxy: 'http://127.0.0.1:1' }));
    expect(down.networkError).toMatch(/^connection refused by the proxy http:\/\/127\.0\.0\.1:1 \(https_proxy\): is the proxy up\?/);
  });
});

// ------------------------------------------------------------------ nginx with TLS and a private CA

const ready = nginxInstalled() && opensslInstalled();
const required = process.env.AG_REQUIRE_NGINX === '1';

test.describe('nginx terminating TLS with a private CA', () => {
  test.skip(!ready && !required, !nginxInstalled() ? NGINX_INSTALL_HINT : OPENSSL_INSTALL_HINT);
  test.describe.configure({ mode: 'serial' });
  let ca: PrivateCA;
  let server: ReferenceServer;
  let nginx: NginxFront;
  let proxy: ForwardProxy;
  /** The target as a staging network has it: https, the private CA's certificate, by address. */
  let target: string;

  test.beforeAll(async () => {
    ca = makePrivateCA(['IP:127.0.0.1', 'DNS:agc.test']);
    server = await startReferenceServer({ port: 0, lagMs: 25, createRate: null });
    // startNginx's readiness probe speaks plain http: nginx's own 400 to it shows the TLS front is up.
    nginx = await startNginx(
      server.url,
      ({ listen, upstream }) => `
server {
    listen ${listen} ssl;
    ssl_certificate ${ca.certFile};
    ssl_certificate_key ${ca.keyFile};
    location / { proxy_pass ${upstream}; }
}`,
    );
    target = nginx.url.replace('http://', 'https://');
    proxy = await startForwardProxy(referenceTokenEnv().AG_TOKEN);
  });
  test.afterAll(async () => {
    await proxy?.close();
    await nginx?.close();
    await server?.close();
    if (ca) rmSync(ca.dir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string>) =>
    runAgc(['run', '--base-url', target, ...args], { ...referenceTokenEnv(), AG_SEED: '7', AG_NUM_RUNS: '5', AG_VISIBILITY_TIMEOUT_MS: '10000', ...env });

  test('agc run --ca-file through HTTPS_PROXY: conformant, tunnelled, and the proxy never sees a token', async () => {
    const done = await run(['--ca-file', ca.caFile], { HTTPS_PROXY: proxy.url, NO_PROXY: 'agc.test,localhost' });
    const report = readJson(path.join(done.reportDir, 'conformance.json'));
    expect(report.verdict, `${done.stdout}\n${done.stderr}`).toBe('conformant');
    expect(done.status).toBe(0);
    expect(done.stdout).toContain(`agc: requests to ${target} go through the proxy ${proxy.url} (HTTPS_PROXY), in a tunnel (CONNECT)`);
    expect(proxy.seen.connects).toBeGreaterThan(0);
    expect(new Set(proxy.seen.tunnels)).toEqual(new Set([new URL(target).host]));
    expect(proxy.seen).toMatchObject({ requests: 0, withAuthorization: 0, secretSeen: false });
  });

  test('without the CA the run ends incomplete, its reason naming --ca-file and NODE_EXTRA_CA_CERTS', async () => {
    const done = await run([], {});
    const report = readJson(path.join(done.reportDir, 'conformance.json'));
    expect(report.verdict).toBe('incomplete');
    expect(done.status).toBe(2);
    expect(report.firstReason).toBe(
      `target unreachable at ${target}: TLS: the target's certificate is signed by a CA the kit does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE); if the target uses a private CA, give the CA certificate (PEM) that signed it: agc run --ca-file /path/ca.pem, or NODE_EXTRA_CA_CERTS=/path/ca.pem`,
    );
    expect(`${done.stdout}${done.stderr}`).not.toMatch(/\n\s+at /); // a verdict, not a stack trace
  });

  test('agc profile discover --ca-file goes through the same proxy and trusts the same CA', async () => {
    const connects = proxy.seen.connects;
    const out = path.join(ca.dir, 'discovered.yaml');
    let said = '';
    const io = {
      env: { ...cleanEnv(), ...referenceTokenEnv(), https_proxy: proxy.url },
      stdout: (t: string) => (said += t),
      stderr: (t: string) => (said += t),
    };
    const code = await discoverProfile(['--out', out, '--base-url', target, '--ca-file', ca.caFile, '--visibility-timeout', '10000'], io);
    expect(code, said).toBe(0);
    expect(checkProfileConsistency(loadProfile(out))).toEqual([]);
    expect(said).toContain(`requests to ${target} go through the proxy ${proxy.url} (https_proxy), in a tunnel (CONNECT)`);
    expect(proxy.seen.connects).toBeGreaterThan(connects);
    expect(proxy.seen).toMatchObject({ requests: 0, withAuthorization: 0, secretSeen: false });
  });

  test('one request each: NO_PROXY bypasses the proxy, a wrong host name and a file with no certificate are said plainly', async () => {
    const connects = proxy.seen.connects;
    const direct = await send(target, call({ HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.0/8', AG_CA_FILE: ca.caFile }));
    expect(direct.response?.status, direct.networkError).toBe(401);
    expect(proxy.seen.connects).toBe(connects);
    const misnamed = await send(target.replace('127.0.0.1', 'localhost'), call({ AG_CA_FILE: ca.caFile }));
    expect(misnamed.networkError).toMatch(/^TLS: the target's certificate is not for the host in AG_BASE_URL \(ERR_TLS_CERT_ALTNAME_INVALID: .*localhost/);
    const notPem = path.join(ca.dir, 'not-a-cert.pem');
    writeFileSync(notPem, 'not a certificate\n');
    const refused = await run(['--ca-file', notPem], {});
    expect(refused.status).toBe(3);
    expect(refused.stdout + refused.stderr).toContain(`AG_CA_FILE (--ca-file) holds no PEM certificate (-----BEGIN CERTIFICATE-----): ${notPem}`);
    expect(existsSync(path.join(refused.reportDir, 'conformance.json'))).toBe(false);
  });
});
