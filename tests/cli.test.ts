import { test, expect } from './helpers/fixtures';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { defaultHooks, type ReferenceHooks } from '../reference/server';
import { findMutant } from '../reference/mutants';
import { runAgc, readJson, referenceTokenEnv, type KitRun } from './helpers/harness';
import type { ConformanceSummary } from '../reporters/verdict';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'agc-cli-'));

const quick = { AG_VISIBILITY_TIMEOUT_MS: '5000', AG_REQUEST_TIMEOUT_MS: '3000', AG_NUM_RUNS: '5', AG_SEED: '7' };

function summaryOf(run: KitRun): ConformanceSummary {
  return readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
}

const noStackTrace = (run: KitRun) => expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

/** Ignores the group-type filter: LIST-03 (a MUST) fails, nothing else does. */
const ignoresGroupType: Partial<ReferenceHooks> = {
  matchesFilter: (group, filter, ctx) => defaultHooks.matchesFilter(group, { ...filter, groupType: undefined }, ctx),
};

// ---------------------------------------------------------------- faulty targets

type Fault = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A small server that misbehaves in one way, on 127.0.0.1; every connection is torn down at the end. */
async function withFaultyServer<T>(fault: Fault | 'reset', body: (url: string) => Promise<T>): Promise<T> {
  const server = http.createServer(fault === 'reset' ? () => undefined : fault);
  if (fault === 'reset') server.on('connection', (socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const faults: [string, Fault | 'reset', RegExp][] = [
  ['accepts connections but never answers', () => undefined, /target unreachable at .*no (complete )?answer within 3000 ms/],
  ['resets every connection', 'reset', /target unreachable at .*(reset|socket hang up)/],
  [
    'answers an HTML 502 from a proxy',
    (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
    /did not answer with JSON \(HTTP 502, text\/html/,
  ],
  [
    // Braces in its style and script, and a JSON object with a ResponseMetadata field among them, but no JSON after a prefix.
    'answers an HTML page whose script holds JSON',
    (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><style>body { color: red }</style><script>var boot = {"ResponseMetadata": {"Region": "x"}};</script></head><body>Sign in</body></html>',
        ),
    /did not answer with JSON \(HTTP 200, text\/html.*is AG_BASE_URL the base URL of the asset-group API\?/,
  ],
  [
    // nginx's `return 301 https://$host$request_uri;` in front of a plain-http base URL: never followed, and said so.
    'redirects every request to https',
    (req, res) =>
      res.writeHead(301, { location: `https://127.0.0.1:9${req.url}`, 'content-type': 'text/html' }).end('<html><body>301 Moved Permanently</body></html>'),
    /answered HTTP 301, redirecting to https:\/\/127\.0\.0\.1:9\/v1\/media_assets\/\?Action=ListAssetGroups.*follows no redirect.*set AG_BASE_URL to https:\/\/127\.0\.0\.1:9$/,
  ],
  [
    'answers truncated JSON',
    (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ResponseMetadata": {"RequestId": "r-1", "Act'),
    /did not answer with JSON \(HTTP 200, application\/json/,
  ],
  [
    'answers a 64 MiB body',
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      // Bounded, and paced by backpressure: stops at 64 MiB or when the kit hangs up.
      const pump = () => {
        while (sent < 64 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
    /more than the kit reads/,
  ],
];

for (const [what, fault, reason] of faults) {
  test(`a target that ${what} gives a report with a clear first reason and exit 2, within seconds`, async () => {
    await withFaultyServer(fault, async (url) => {
      const run = await runAgc(
        ['run', '--base-url', url, '--report-dir', path.join(tmp(), 'report')],
        { AG_TOKEN: 'faulty-target-token', ...quick },
        { timeoutMs: 90_000 },
      );
      expect(run.status, run.stdout + run.stderr).toBe(2);
      const summary = summaryOf(run);
      expect(summary.verdict).toBe('incomplete');
      expect(summary.firstReason).toMatch(reason);
      expect(run.durationMs).toBeLessThan(60_000);
      noStackTrace(run);
    });
  });
}

test('a target that prints a warning before the JSON of every answer is this API, judged: ENV-05 fails, exit 1, not "not this API"', async ({
  startReference,
}) => {
  // PHP with display_errors on: "Deprecated: …" before the envelope of every answer (reference/mutants/env.ts).
  const server = await startReference({ hooks: findMutant('warningBeforeJson')!.hooks });
  const run = await runAgc(['run', '--base-url', server.url, '--report-dir', path.join(tmp(), 'report')], { ...referenceTokenEnv(), ...quick });
  expect(run.status, run.stdout.slice(-2000) + run.stderr).toBe(1);
  const summary = summaryOf(run);
  expect(summary.verdict).toBe('non-conformant');
  expect(summary.firstReason).not.toMatch(/base URL of the asset-group API/);
  const failed = summary.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
  expect(failed).toEqual(['ENV-05']);
  expect(summary.firstReason).toMatch(/ENV-05 .*HTTP \d+ with 87 characters before the JSON: "\\nDeprecated: Creation of dynamic property/);
  noStackTrace(run);
});

test('an unreachable target is reported in seconds and exits 2', async () => {
  const run = await runAgc(['run', '--base-url', 'http://127.0.0.1:9', '--report-dir', path.join(tmp(), 'report')], { AG_TOKEN: 'x', ...quick });
  expect(run.status).toBe(2);
  expect(summaryOf(run).firstReason).toBe('target unreachable at http://127.0.0.1:9: connection refused (is the target up?)');
  expect(run.durationMs).toBeLessThan(30_000);
});

// ---------------------------------------------------------------- bad configuration

const badConfigs: [string, string[], Record<string, string>, RegExp][] = [
  ['a malformed AG_BASE_URL', ['--base-url', 'staging.example.com'], { AG_TOKEN: 'x' }, /AG_BASE_URL is not a URL/],
  ['a base URL with a query', ['--base-url', 'http://127.0.0.1:9/?Action=ListAssetGroups'], { AG_TOKEN: 'x' }, /AG_BASE_URL must not carry a query/],
  ['an unreadable profile', ['--profile', '/nonexistent/profile.yaml'], {}, /AG_PROFILE: cannot read .*profile\.yaml/],
  ['a token that is set but empty', ['--base-url', 'http://127.0.0.1:9'], { AG_TOKEN: 'x', AG_TOKEN_OTHER_USER: '' }, /AG_TOKEN_OTHER_USER is set but empty/],
  ['no AG_TOKEN with a base URL', ['--base-url', 'http://127.0.0.1:9'], {}, /AG_TOKEN is required/],
  ['a waiver file citing an unknown requirement', ['--waivers', 'WAIVERS'], {}, /AG_WAIVERS: [^]*"NOPE-01" is not a requirement ID/],
  ['an unknown option', ['--bogus'], {}, /agc: Unknown option '--bogus'/],
  ['a malformed shard', ['--shard', 'half'], {}, /--shard must look like 1\/2/],
];

for (const [what, args, env, message] of badConfigs) {
  test(`${what} gives one clear line naming it, no stack trace, and exit 3`, async () => {
    const dir = tmp();
    const waivers = path.join(dir, 'waivers.yaml');
    writeFileSync(waivers, 'waivers:\n  - { id: NOPE-01, reason: r, link: l }\n');
    const run = await runAgc(['run', '--report-dir', path.join(dir, 'report'), ...args.map((a) => (a === 'WAIVERS' ? waivers : a))], env, {
      timeoutMs: 60_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toMatch(message);
    noStackTrace(run);
  });
}

// ---------------------------------------------------------------- a profile of one setting

test('AG_PROFILE with only timestamps: { format: iso8601-utc } runs whole against the embedded reference server: conformant, exit 0', async () => {
  const dir = tmp();
  const file = path.join(dir, 'profile.yaml');
  // The file as docs/profiles.md describes it: the setting alone, no $defs (the kit writes ProfileTimestamp from it).
  writeFileSync(file, 'timestamps: { format: iso8601-utc }\n');
  const run = await runAgc(['run', '--report-dir', path.join(dir, 'report')], { AG_PROFILE: file, ...quick });
  expect(run.stderr).not.toContain('disagree');
  expect(run.status, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(0);
  const summary = summaryOf(run);
  expect(summary.verdict).toBe('conformant');
  expect(summary.requirements.find((r) => r.id === 'SCHEMA-05')?.status).toBe('passed');
});

// ---------------------------------------------------------------- waivers

test('a waived failure shows as waived with its reason and does not flip the verdict; expired and stale waivers are reported, exit 0 without --strict-waivers', async ({
  startReference,
}) => {
  const server = await startReference({ hooks: ignoresGroupType });
  const dir = tmp();
  const file = path.join(dir, 'waivers.yaml');
  writeFileSync(
    file,
    YAML.stringify({
      waivers: [
        { id: 'LIST-03', reason: 'group-type filter lands in release 42', link: 'https://tracker.example.com/AG-1' },
        { id: 'PAGE-03', reason: 'old default page size', link: 'https://tracker.example.com/AG-2' },
        { id: 'LIST-02', reason: 'long gone', link: 'https://tracker.example.com/AG-3', expires: '2020-01-01' },
      ],
    }),
  );
  const run = await runAgc(['run', '--base-url', server.url, '--report-dir', path.join(dir, 'report'), '--waivers', file], {
    ...referenceTokenEnv(),
    ...quick,
  });
  const summary = summaryOf(run);
  expect(run.status, run.stdout.slice(-2000)).toBe(0);
  expect(summary.verdict).toBe('conformant');
  const list03 = summary.requirements.find((r) => r.id === 'LIST-03')!;
  expect(list03.status).toBe('waived');
  expect(list03.reason).toContain('group-type filter lands in release 42');
  expect(summary.waivers.applied.map((w) => w.id)).toEqual(['LIST-03']);
  // PAGE-03 passed: its waiver is stale, said on the console and in the report, but fails nothing without --strict-waivers.
  expect(summary.waivers.stale.map((w) => w.id)).toEqual(['PAGE-03']);
  expect(summary.waivers.unused).toEqual([]);
  expect(summary.waivers).toMatchObject({ strict: false, failure: null });
  expect(summary.waivers.expired.map((w) => w.id)).toEqual(['LIST-02']);
  expect(run.stdout).toContain('Waivers: stale waiver (the requirement passed; remove it from the waiver file): PAGE-03');
  const html = readFileSync(path.join(dir, 'report', 'index.html'), 'utf8');
  expect(html).toContain('Expired: no longer applied');
  expect(html).toContain('Stale: the requirement passed in this run');
  // Without a waiver that applies, the same failure decides the verdict: the next test.
});

test('an expired waiver does not hide the failure: the same failure decides the verdict, exit 1', async ({ startReference }) => {
  const server = await startReference({ hooks: ignoresGroupType });
  const dir = tmp();
  const file = path.join(dir, 'waivers.yaml');
  writeFileSync(
    file,
    YAML.stringify({ waivers: [{ id: 'LIST-03', reason: 'was due in 2020', link: 'https://tracker.example.com/AG-1', expires: '2020-06-30' }] }),
  );
  const run = await runAgc(['run', '--base-url', server.url, '--report-dir', path.join(dir, 'report'), '--waivers', file], {
    ...referenceTokenEnv(),
    ...quick,
  });
  expect(run.status).toBe(1);
  const summary = summaryOf(run);
  expect(summary.verdict).toBe('non-conformant');
  expect(summary.requirements.find((r) => r.id === 'LIST-03')!.status).toBe('failed');
  expect(summary.waivers.expired.map((w) => w.id)).toEqual(['LIST-03']);
});

// agc run with no target (the embedded reference server, exit 0) is tests/certify.test.ts's: its certification makes two
// such runs and checks each; installed, tests/package.test.ts. Two runs at once: tests/reports.test.ts.
