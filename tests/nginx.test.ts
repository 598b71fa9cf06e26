/**
 * A real reverse proxy in the loop: the conformance suites run against the reference server behind
 * Debian's nginx (tests/helpers/nginx.ts starts a private instance on 127.0.0.1), once as a legitimate
 * proxy that compresses, closes every connection and adds request ids (the verdict must stay
 * `conformant`), once as a proxy that replaces every error answer with its own HTML page (the kit
 * must say which requirement that breaks, without crashing).
 *
 * Without nginx the tests are skipped with the command that installs it, unless AG_REQUIRE_NGINX=1
 * (set by .ci/run), which makes a missing nginx a failure rather than a silent skip.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { test, expect } from '@playwright/test';
import { referenceTokens } from '../reference/config';
import { loadCatalogue } from '../schemas/requirements';
import { NGINX, NGINX_INSTALL_HINT, nginxInstalled, startNginx, type NginxSite } from './helpers/nginx';
import { runSuites, type Front } from './helpers/suite-run';
import { expectFailsExactly, expectLegitimate } from './helpers/suite-run-expect';

const levels = new Map(loadCatalogue().requirements.map((r) => [r.id, r.level]));
const isMust = (id: string | undefined) => levels.get(id ?? '') === 'MUST';

const installed = nginxInstalled();
const required = process.env.AG_REQUIRE_NGINX === '1';

// ---------------------------------------------------------------- the nginx configurations

/**
 * nginx compresses only for clients that ask, and the kit sends no Accept-Encoding (RFC 9110: that
 * accepts any coding). So the front block asks an inner block of the same nginx for gzip on the
 * kit's behalf and passes the compressed bytes through unchanged (gunzip off). The inner block
 * listens on a unix socket in the instance's folder: no second port. nginx's gzip filter compresses
 * only 200, 403 and 404 answers; the other statuses go out uncompressed whatever the config says.
 */
const gzipUnasked = ({ listen, upstream, dir }: NginxSite) => `
server {
    listen unix:${dir}/inner.sock;
    gzip on;
    gzip_types application/json;
    gzip_proxied any;
    gzip_min_length 0;
    location / {
        proxy_pass ${upstream};
    }
}
server {
    listen ${listen};
    keepalive_timeout 0;
    location / {
        proxy_pass http://unix:${dir}/inner.sock:;
        # gzip_http_version is 1.1: the inner block does not compress for nginx's default HTTP/1.0.
        proxy_http_version 1.1;
        proxy_set_header Accept-Encoding gzip;
        proxy_set_header X-Request-Id $request_id;
        gunzip off;
    }
}`;

/** The upstream's error statuses, plus those a proxy itself is known for. */
const ERROR_STATUSES = [400, 401, 403, 404, 405, 408, 409, 413, 415, 429, 431, 500, 502, 503, 504];

/**
 * proxy_intercept_errors alone passes an upstream error through unchanged (nginx intercepts only
 * statuses that have an error_page). Each status is sent to a named location that returns it, so
 * nginx answers with its own built-in text/html page for that status.
 */
const htmlErrorPages = ({ listen, upstream }: NginxSite) => `
server {
    listen ${listen};
    location / {
        proxy_pass ${upstream};
        proxy_intercept_errors on;
${ERROR_STATUSES.map((status) => `        error_page ${status} @nginx${status};`).join('\n')}
    }
${ERROR_STATUSES.map((status) => `    location @nginx${status} { return ${status}; }`).join('\n')}
}`;

/**
 * A rate limit per token on creates (an empty key is not limited: other actions, and requests with
 * no Authorization header), answered with nginx's own HTML 429 page and no Retry-After. Keyed by
 * the token, as an API gateway limits per key: each near-miss token of AUTH-06 is a bucket of its own.
 */
const htmlRateLimit = ({ listen, upstream }: NginxSite) => `
map "$arg_Action|$http_authorization" $create_key {
    "~^CreateAssetGroup\\|(?<credential>.+)$" $credential;
    default "";
}
limit_req_zone $create_key zone=creates:1m rate=10r/s;
server {
    listen ${listen};
    location / {
        proxy_pass ${upstream};
        limit_req zone=creates burst=5 nodelay;
        limit_req_status 429;
    }
}`;

// ---------------------------------------------------------------- a look at the wire

interface Wire {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** One list request straight to the front with node:http, with no Accept-Encoding, as the kit sends it. Bounded. */
function listDirect(url: string, token: string | null): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/json',
      'content-length': '2',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const req = http.request(new URL('/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01', url), {
      method: 'POST',
      headers,
      agent: false,
      timeout: 5_000,
    });
    const deadline = setTimeout(() => req.destroy(new Error('no complete answer within 5 s')), 5_000);
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) });
      });
    });
    req.end('{}');
  });
}

/** Starts nginx with this configuration and, before the suites run, looks at the wire through it. */
function nginxFront(site: (s: NginxSite) => string, look: (url: string) => Promise<void> = async () => {}): Front {
  return async (upstream) => {
    const front = await startNginx(upstream, site);
    try {
      await look(front.url);
    } catch (error) {
      await front.close();
      throw error;
    }
    return front;
  };
}

// ---------------------------------------------------------------- the runs

test.describe('behind Debian nginx', () => {
  test.setTimeout(180_000);
  test.skip(!installed && !required, NGINX_INSTALL_HINT);

  test.beforeEach(() => {
    expect(installed, `AG_REQUIRE_NGINX=1 and ${NGINX} is missing: ${NGINX_INSTALL_HINT}`).toBe(true);
  });

  test('a proxy that gzips answers the kit did not ask to be compressed, closes every connection and adds X-Request-Id is rated conformant', async () => {
    const wire: { ok?: Wire; refused?: Wire } = {};
    const run = await runSuites(
      'nginx-gzip',
      {},
      {},
      {
        front: nginxFront(gzipUnasked, async (url) => {
          wire.ok = await listDirect(url, referenceTokens().primary);
          wire.refused = await listDirect(url, null);
        }),
      },
    );

    await test.step('the wire really was gzip, though the request sent no Accept-Encoding', () => {
      const ok = wire.ok!;
      expect(ok.status).toBe(200);
      expect(ok.headers['content-encoding']).toBe('gzip');
      expect(ok.headers.connection).toBe('close');
      expect(JSON.parse(zlib.gunzipSync(ok.raw).toString('utf8'))).toHaveProperty('ResponseMetadata.Action', 'ListAssetGroups');
      // nginx's gzip filter compresses only 200, 403 and 404 answers: the others (a 401 here) go out as they came.
      test.info().annotations.push({
        type: 'wire',
        description: `200: content-encoding ${ok.headers['content-encoding']}; ${wire.refused!.status}: content-encoding ${wire.refused!.headers['content-encoding'] ?? 'none'}`,
      });
    });

    await test.step('the kit decodes it and rates the server conformant', () => {
      expectLegitimate(run, 'a proxy that compresses is legitimate; the kit must not fail it');
    });
  });

  test('a proxy that replaces every error answer with its own HTML page is rated non-conformant, by ENV-05', async () => {
    let page: Wire | undefined;
    const run = await runSuites(
      'nginx-html',
      {},
      {},
      {
        front: nginxFront(htmlErrorPages, async (url) => {
          page = await listDirect(url, null);
        }),
      },
    );

    await test.step('nginx answered an upstream 401 with its own HTML page', () => {
      expect(page!.status).toBe(401);
      expect(page!.headers['content-type']).toBe('text/html');
      expect(page!.raw.toString('utf8')).toContain('<center>nginx');
    });

    await test.step('the run completed and names the requirement the pages break', () => {
      expectFailsExactly(run, ['ENV-05']);
      expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('non-conformant');
    });
  });

  test("a per-token rate limit on creates answered with nginx's own HTML 429 page is waited out, and the page is ENV-05's finding", async () => {
    const run = await runSuites('nginx-429', {}, {}, { front: nginxFront(htmlRateLimit) });
    test.info().annotations.push({ type: 'not-judged', description: run.mustNotJudged.join(', ') });
    expectFailsExactly(run, ['ENV-05']);
    expect(run.firstReason, "the finding is the limiter's page").toContain('HTTP 429');
    expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('non-conformant');
    // The 429s were waited out: a MUST left unjudged is one the HTML page blocked, never one given up on for throttling.
    const unjudged = run.tests.filter((t) => isMust(t.requirement) && (t.profileMismatch || t.blockedBy.some((id) => id !== 'ENV-05')));
    expect(unjudged.map((t) => `${t.requirement}: blocked by ${t.blockedBy.join(', ')} ${t.profileMismatch ?? ''}`)).toEqual([]);
    expect(
      run.tests.filter((t) => isMust(t.requirement) && t.status === 'skipped' && !t.blockedBy.length).map((t) => t.requirement),
      'MUSTs skipped, not blocked',
    ).toEqual([]);
  });
});
