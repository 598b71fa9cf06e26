/**
 * How a request reaches its target on a staging network: through the proxy the environment names, as curl chooses it,
 * and trusting the CAs the user gives. The tunnel and the absolute-form request are the proxy agents' (https-proxy-agent,
 * http-proxy-agent); what is chosen, and what is said when TLS refuses the target, is here.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { HttpProxyAgent } from 'http-proxy-agent';

export interface ProxyChoice {
  url: URL;
  /** The variable it came from, as the user named it (https_proxy, HTTPS_PROXY, all_proxy, ALL_PROXY, http_proxy). */
  variable: string;
}

/** Set but empty is unset, as curl reads them. */
const valueOf = (env: NodeJS.ProcessEnv, name: string): string | undefined => env[name] || undefined;

/**
 * Origins never sent through a proxy: the embedded reference server, which the kit itself started on 127.0.0.1.
 * curl would proxy 127.0.0.1 unless NO_PROXY says otherwise, so a CI job's proxy would otherwise break a demonstration run.
 */
const direct = new Set<string>();
export function neverProxy(url: string): void {
  direct.add(new URL(url).origin);
}

/**
 * The proxy curl would use for `target`, or undefined to go direct. Read as curl reads them (its lib/url.c and
 * lib/noproxy.c): no_proxy, then NO_PROXY; for http: targets only the lower-case http_proxy (curl ignores HTTP_PROXY:
 * under CGI a request's `Proxy:` header becomes HTTP_PROXY); for https: https_proxy, then HTTPS_PROXY; then all_proxy,
 * then ALL_PROXY. A proxy without a scheme is an HTTP proxy.
 */
export function proxyFor(target: URL, env: NodeJS.ProcessEnv = process.env): ProxyChoice | undefined {
  if (direct.has(target.origin)) return undefined;
  if (env.AG_REFERENCE_URL && !env.AG_BASE_URL && safeOrigin(env.AG_REFERENCE_URL) === target.origin) return undefined;
  const noProxy = valueOf(env, 'no_proxy') ?? valueOf(env, 'NO_PROXY');
  if (noProxy && noProxyMatches(target.hostname, noProxy)) return undefined;
  const scheme = target.protocol.replace(/:$/, '');
  const names = scheme === 'http' ? ['http_proxy'] : [`${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`];
  for (const variable of [...names, 'all_proxy', 'ALL_PROXY']) {
    const raw = valueOf(env, variable);
    if (raw) return { url: proxyURL(raw, variable), variable };
  }
  return undefined;
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function proxyURL(raw: string, variable: string): URL {
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new Error(`${variable} is not a proxy URL: ${JSON.stringify(shownText(raw))} (expected e.g. http://proxy.example.com:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${variable} names a ${url.protocol}// proxy; the kit goes through HTTP and HTTPS proxies only (http://host:port)`);
  return url;
}

/** A proxy as it may be shown: its credentials, if any, are not. */
export function shownProxy(url: URL): string {
  return `${url.protocol}//${url.username || url.password ? '<credentials>@' : ''}${url.host}`;
}

function shownText(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//<credentials>@');
}

/**
 * Whether NO_PROXY's list covers the host, as curl's Curl_check_noproxy decides: `*` alone is every host; a name
 * matches itself and its subdomains (a leading or trailing dot is ignored: `example.com` and `.example.com` both cover
 * api.example.com, never notexample.com); an IP address matches an address or a CIDR range (127.0.0.0/8), never a name.
 * curl matches no port: `host:8443` covers nothing.
 */
export function noProxyMatches(hostname: string, list: string): boolean {
  if (list === '*') return true;
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = net.isIPv4(host) ? 'ipv4' : net.isIPv6(host) ? 'ipv6' : undefined;
  const name = family ? host : host.replace(/\.$/, '');
  for (const raw of list.split(/[\s,]+/)) {
    if (!raw) continue;
    if (family) {
      if (addressMatches(host, family, raw)) return true;
      continue;
    }
    const token = raw.toLowerCase().replace(/\.$/, '').replace(/^\./, '');
    if (token && (token === name || name.endsWith(`.${token}`))) return true;
  }
  return false;
}

function addressMatches(address: string, family: 'ipv4' | 'ipv6', token: string): boolean {
  const [network, bitsText] = token.split('/', 2);
  const max = family === 'ipv4' ? 32 : 128;
  // curl reads no bits, or 0, as the whole address.
  const bits = bitsText === undefined ? max : Number.parseInt(bitsText, 10) || max;
  if (!(family === 'ipv4' ? net.isIPv4(network) : net.isIPv6(network)) || bits > max) return false;
  const range = new net.BlockList();
  range.addSubnet(network, bits, family);
  return range.check(address, family);
}

/**
 * The CAs to trust when the user gave one with --ca-file (AG_CA_FILE): Node's own roots, NODE_EXTRA_CA_CERTS's and the
 * file's, since a `ca` replaces Node's default list rather than adding to it. Undefined otherwise: Node's default list,
 * which already holds NODE_EXTRA_CA_CERTS.
 */
let trusted: { file: string; cas: string[] } | undefined;
export function trustedCAs(env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const file = env.AG_CA_FILE;
  if (!file) return undefined;
  if (trusted?.file !== file) {
    const extra = env.NODE_EXTRA_CA_CERTS ? readOrEmpty(env.NODE_EXTRA_CA_CERTS) : '';
    trusted = { file, cas: [...tls.rootCertificates, ...(extra ? [extra] : []), readCAFile(file)] };
  }
  return trusted.cas;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // Node has already warned that it could not read it
  }
}

function readCAFile(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`AG_CA_FILE (--ca-file) cannot be read: ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem);
  try {
    if (!first) throw new Error('no PEM certificate');
    new X509Certificate(first[0]);
  } catch {
    throw new Error(`AG_CA_FILE (--ca-file) holds no PEM certificate (-----BEGIN CERTIFICATE-----): ${file}; give the CA's certificate, not its key`);
  }
  return pem;
}

/**
 * What would stop requests to `baseURL` before any is sent: a proxy variable that is not an HTTP(S) proxy URL, a CA
 * file that cannot be read. Empty when none.
 */
export function networkProblems(baseURL: string | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
  const problems: string[] = [];
  for (const check of [() => baseURL && proxyFor(new URL(baseURL), env), () => trustedCAs(env)]) {
    try {
      check();
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems;
}

export interface Route {
  agent: http.Agent | false;
  proxy?: ProxyChoice;
  /** For https targets, passed with each request, so that the TLS inside a tunnel uses them too. */
  tls?: Pick<tls.ConnectionOptions, 'ca' | 'checkServerIdentity'>;
}

/**
 * The target's certificate is checked against the target's host, named here: inside a tunnel https-proxy-agent names
 * no host for an IP address (no SNI may carry one), and Node's TLS would then check the certificate against "localhost".
 */
function tlsFor(target: URL, env: NodeJS.ProcessEnv): Route['tls'] {
  if (target.protocol !== 'https:') return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const ca = trustedCAs(env);
  return { ...(ca ? { ca } : {}), checkServerIdentity: (_servername, cert) => tls.checkServerIdentity(host, cert) };
}

/**
 * Connections per process and target, a backstop only: what the kit has under way at once is bounded where it sends (a
 * test's CONCURRENCY, the runner's lanes, client/concurrency.ts). A pool smaller than those lanes queued the runner's
 * requests sent ahead behind one another unseen: 16 sockets under 24 lanes made a run against a target 200 ms away wait
 * out some 10 round trips instead of 6 (bench/README.md).
 */
export const MAX_SOCKETS = 64;
const pooled = { keepAlive: true, maxSockets: MAX_SOCKETS };
const directAgents = { http: new http.Agent(pooled), https: new https.Agent(pooled) };
const proxyAgents = new Map<string, http.Agent>();

/** The agent for one request: pooled unless `isolated` (a connection of its own, see SendOptions.isolated). */
export function routeFor(target: URL, isolated: boolean, env: NodeJS.ProcessEnv = process.env): Route {
  const secure = target.protocol === 'https:';
  const tlsOptions = tlsFor(target, env);
  const proxy = proxyFor(target, env);
  if (!proxy) return { agent: isolated ? false : secure ? directAgents.https : directAgents.http, tls: tlsOptions };
  // The proxy's own TLS (an https:// proxy) trusts the same CAs.
  const make = (keepAlive: boolean) => {
    const options = { keepAlive, maxSockets: MAX_SOCKETS, ...(trustedCAs(env) ? { ca: trustedCAs(env) } : {}) };
    return secure ? new HttpsProxyAgent(proxy.url, options) : new HttpProxyAgent(proxy.url, options);
  };
  if (isolated) return { agent: make(false), proxy, tls: tlsOptions };
  const key = `${target.protocol} ${proxy.url.href}`;
  let agent = proxyAgents.get(key);
  if (!agent) proxyAgents.set(key, (agent = make(true)));
  return { agent, proxy, tls: tlsOptions };
}

/** The start of the advice that follows every refused certificate: the kit never turns certificate checks off. */
const GIVE_CA = 'give the CA certificate (PEM) that signed it: agc run --ca-file /path/ca.pem, or NODE_EXTRA_CA_CERTS=/path/ca.pem';

/** What to do about a TLS refusal of the target's certificate, in one line; undefined for other errors. */
export function tlsAdvice(code: string | undefined, message: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  // Node 20 names a plain-http answer to a TLS hello EPROTO, with OpenSSL's reason in the message.
  if (code === 'EPROTO' && /wrong version number/i.test(message)) code = 'ERR_SSL_WRONG_VERSION_NUMBER';
  const given = env.AG_CA_FILE ? ` (not the CA in --ca-file ${env.AG_CA_FILE}, nor one Node trusts)` : '';
  switch (code) {
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'CERT_UNTRUSTED':
      return `TLS: the target's certificate is signed by a CA the kit does not trust${given} (${code}); if the target uses a private CA, ${GIVE_CA}`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return `TLS: the target's certificate is self-signed${given} (${code}); give that certificate (PEM) itself: agc run --ca-file /path/cert.pem, or NODE_EXTRA_CA_CERTS=/path/cert.pem`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `TLS: the target's certificate ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'} (${code}); renew it on the target, or check this machine's clock`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS: the target's certificate is not for the host in AG_BASE_URL (${code}: ${message}); use a host name the certificate names in --base-url`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return `TLS: the target did not answer TLS (${code}); does it serve https on that port, or should AG_BASE_URL start with http://?`;
    default:
      return undefined;
  }
}

/** A connection error on a request sent through a proxy: every connection then goes to the proxy, not the target. */
export function proxyAdvice(code: string | undefined, proxy: ProxyChoice): string | undefined {
  const where = `the proxy ${shownProxy(proxy.url)} (${proxy.variable})`;
  if (code === 'ECONNREFUSED') return `connection refused by ${where}: is the proxy up? (NO_PROXY=<host> sends a host's requests direct)`;
  if (code === 'ENOTFOUND') return `host name of ${where} not found`;
  return undefined;
}

/** What a proxy that refused the tunnel said, as one line; 407 tells where its credentials go. */
export function tunnelRefused(proxy: ProxyChoice, target: URL, status: number, statusText: string): string {
  const hint = status === 407 ? '; give the proxy its credentials in the URL (http://user:password@proxy:port)' : '';
  return `${`the proxy ${shownProxy(proxy.url)} (${proxy.variable})`} refused the tunnel to ${target.host}: HTTP ${status} ${statusText}`.trim() + hint;
}

/**
 * The one line a run says about its route before it starts, where a proxy is used; and a warning where the target is
 * plain http: the proxy then reads every request, the Authorization header included (curl sends it so too). Through a
 * tunnel (https) the proxy sees only the host and port.
 */
export function routeNote(baseURL: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const target = new URL(baseURL);
  const proxy = proxyFor(target, env);
  if (!proxy) return undefined;
  const via = `requests to ${target.origin} go through the proxy ${shownProxy(proxy.url)} (${proxy.variable})`;
  if (target.protocol === 'https:') return `${via}, in a tunnel (CONNECT): the proxy sees the host, never the tokens`;
  return `${via}; warning: the target is plain http, so the proxy reads every request, tokens included (use https, or NO_PROXY=${target.hostname})`;
}
