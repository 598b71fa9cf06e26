/**
 * exchanges.har and summary.md: the evidence in the format HTTP tools read, and the verdict in the
 * Markdown a CI job's page shows. The HAR is validated against the required fields of HAR 1.2
 * (below, as a JSON Schema), for reporters fed directly and for real runs, failing and conformant;
 * summary.md is checked for its verdict line, one line per failed MUST, hostile text made inert,
 * and its copy appended to GITHUB_STEP_SUMMARY.
 */
import { test, expect } from './fixtures';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { defaultHooks, type ReferenceHooks } from '../reference/server';
import { evidenceJson } from '../client/evidence';
import type { Exchange } from '../client/exchange';
import { ANNOTATION, ATTACHMENT } from '../facts/record';
import { loadCatalogue } from '../schemas/requirements';
import HarReporter, { type Har } from '../reporters/har';
import SummaryReporter, { md } from '../reporters/summary';
import JsonReporter from '../reporters/json';
import type { ConformanceSummary } from '../reporters/verdict';
import { readJson, referenceTokenEnv, ROOT, runPlaywright } from './harness';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

// ------------------------------------------------------------------ HAR 1.2, as a JSON Schema

/** A name/value pair: headers, query parameters, cookies. */
const pair = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' }, comment: { type: 'string' } } };
/** HAR 1.2 allows custom fields whose names start with an underscore, and no other unknown field. */
const custom = { patternProperties: { '^_': {} }, additionalProperties: false };
const size = { type: 'integer', minimum: -1 };

/** The required fields of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), and the types of the optional ones used here. */
const HAR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 } },
        },
        browser: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
        pages: { type: 'array' },
        entries: { type: 'array', items: { $ref: '#/$defs/entry' } },
        comment: { type: 'string' },
      },
      ...custom,
    },
  },
  $defs: {
    entry: {
      type: 'object',
      required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
      properties: {
        pageref: { type: 'string' },
        startedDateTime: { type: 'string', format: 'date-time' },
        time: { type: 'number', minimum: 0 },
        request: { $ref: '#/$defs/request' },
        response: { $ref: '#/$defs/response' },
        cache: { type: 'object', properties: { beforeRequest: { type: 'object' }, afterRequest: { type: 'object' }, comment: { type: 'string' } } },
        timings: {
          type: 'object',
          required: ['send', 'wait', 'receive'],
          properties: {
            blocked: { type: 'number', minimum: -1 },
            dns: { type: 'number', minimum: -1 },
            connect: { type: 'number', minimum: -1 },
            send: { type: 'number', minimum: 0 },
            wait: { type: 'number', minimum: 0 },
            receive: { type: 'number', minimum: 0 },
            ssl: { type: 'number', minimum: -1 },
            comment: { type: 'string' },
          },
        },
        serverIPAddress: { type: 'string' },
        connection: { type: 'string' },
        comment: { type: 'string' },
      },
      ...custom,
    },
    request: {
      type: 'object',
      required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
      properties: {
        method: { type: 'string', minLength: 1 },
        url: { type: 'string', format: 'uri' },
        httpVersion: { type: 'string' },
        cookies: { type: 'array', items: pair },
        headers: { type: 'array', items: pair },
        queryString: { type: 'array', items: pair },
        postData: {
          type: 'object',
          required: ['mimeType'],
          properties: { mimeType: { type: 'string' }, text: { type: 'string' }, params: { type: 'array' }, comment: { type: 'string' } },
          // "text and params fields are mutually exclusive"
          not: { type: 'object', required: ['text', 'params'], properties: { text: true, params: true } },
        },
        headersSize: size,
        bodySize: size,
        comment: { type: 'string' },
      },
      ...custom,
    },
    response: {
      type: 'object',
      required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
      properties: {
        status: { type: 'integer', minimum: 0 },
        statusText: { type: 'string' },
        httpVersion: { type: 'string' },
        cookies: { type: 'array', items: pair },
        headers: { type: 'array', items: pair },
        content: {
          type: 'object',
          required: ['size', 'mimeType'],
          properties: {
            size: { type: 'integer', minimum: -1 },
            compression: { type: 'integer' },
            mimeType: { type: 'string' },
            text: { type: 'string' },
            encoding: { type: 'string' },
            comment: { type: 'string' },
          },
          ...custom,
        },
        redirectURL: { type: 'string' },
        headersSize: size,
        bodySize: size,
        comment: { type: 'string' },
      },
      ...custom,
    },
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validateHar = ajv.compile(HAR_SCHEMA);

/** Reads exchanges.har, and checks it against HAR 1.2 and the sums HAR states (time is the sum of the timings). */
function expectValidHar(file: string): Har {
  expect(existsSync(file), `${file} written`).toBe(true);
  const har = readJson<Har>(file);
  validateHar(har);
  expect(validateHar.errors ?? [], `${file} is HAR 1.2`).toEqual([]);
  for (const entry of har.log.entries) {
    const { send, wait, receive } = entry.timings;
    expect(entry.time).toBeCloseTo(send + wait + receive, 6);
  }
  return har;
}

// ------------------------------------------------------------------ reporters fed directly

/** Text a hostile target would like to see in a CI log or a job's page. */
const HOSTILE =
  'got 3 groups\n::error title=pwned::owned | <script>alert(1)</script> `rm -rf ~` [click](https://evil.example) ##vso[task.setvariable variable=x]y \u001b[31mred';

const TOKEN = `SECRET-har-${Math.random().toString(36).slice(2, 12)}`;

function exchange(over: Partial<Exchange> & { body?: string } = {}): Exchange {
  return {
    request: {
      method: 'POST',
      url: 'http://target.example/v1/media_assets/?Action=ListAssetGroups&Version=2024-01-01',
      action: 'ListAssetGroups',
      version: '2024-01-01',
      headers: { 'content-type': 'application/json', authorization: 'Bearer <AG_TOKEN>' },
      body: '{"Filter":{"GroupType":"video"}}',
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: over.body ?? '{"ResponseMetadata":{"RequestId":"r-1"},"Result":{"Items":[]}}',
    },
    durationMs: 12.5,
    ...over,
  };
}

interface Synthetic {
  testCase: TestCase;
  result: TestResult;
}

/** One finished test as Playwright hands it to a reporter, its facts written as facts/record.ts writes them. */
function synthetic(
  id: string,
  title: string,
  status: 'passed' | 'failed' | 'skipped',
  extra: { annotations?: { type: string; description?: string }[]; evidence?: object[]; findings?: object[] } = {},
): Synthetic {
  const attachment = (name: string, body: string) => ({ name, contentType: 'application/json', body: Buffer.from(body) });
  return {
    testCase: {
      id: `${id}-${title}`,
      title,
      annotations: [{ type: ANNOTATION.requirement, description: id }],
      location: { file: path.join(ROOT, 'suites', 'synthetic.spec.ts'), line: 1, column: 1 },
    } as unknown as TestCase,
    result: {
      status,
      duration: 20,
      annotations: extra.annotations ?? [],
      errors: status === 'failed' ? [{ message: 'failed' }] : [],
      attachments: [
        ...(extra.evidence ?? []).map((e) => attachment(ATTACHMENT.evidence, evidenceJson(e))),
        ...(extra.findings ?? []).map((f) => attachment(ATTACHMENT.finding, evidenceJson(f))),
      ],
    } as unknown as TestResult,
  };
}

const failure = (check: string, received: string) => ({ check, received, documented: 'the spec says otherwise', fix: 'do as the spec says' });

/** A failing run: a MUST with hostile evidence, a finding with no answer (a reset), a SHOULD with a big body, a pass. */
function failingRun(bigBody: string): Synthetic[] {
  return [
    synthetic('LIST-03', 'LIST-03 the group-type filter', 'failed', {
      evidence: [{ failure: failure('listFilterHonoured', `${HOSTILE} ${TOKEN}`), exchange: exchange() }],
    }),
    synthetic('AUTH-03', 'AUTH-03 another scheme', 'skipped', {
      annotations: [
        { type: 'skip', description: 'blocked by ERR-02: the error kind was wrong' },
        { type: ANNOTATION.blocked, description: 'ERR-02' },
      ],
      findings: [
        { requirement: 'ERR-02', failure: failure('errorKind', HOSTILE), exchange: { ...exchange(), response: undefined, networkError: 'read ECONNRESET' } },
      ],
    }),
    synthetic('PAGE-03', 'PAGE-03 pages never overlap', 'failed', {
      evidence: [{ failure: failure('pagesDisjoint', 'overlap'), exchange: exchange({ body: bigBody }) }],
    }),
    synthetic('ENV-01', 'ENV-01 the envelope', 'passed'),
  ];
}

/** Feeds tests to the HAR, summary and JSON reporters, as Playwright would, with the variables given. */
async function report(tests: Synthetic[], env: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-har-summary-'));
  const names = ['AG_REPORT_DIR', 'AG_REPORT_TARGET_BYTES', 'GITHUB_STEP_SUMMARY', 'AG_TOKEN', ...Object.keys(env)];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  Object.assign(process.env, { AG_REPORT_DIR: dir, AG_TOKEN: TOKEN }, env);
  if (!('GITHUB_STEP_SUMMARY' in env)) delete process.env.GITHUB_STEP_SUMMARY;
  if (!('AG_REPORT_TARGET_BYTES' in env)) delete process.env.AG_REPORT_TARGET_BYTES;
  try {
    for (const Reporter of [JsonReporter, HarReporter, SummaryReporter]) {
      const reporter = new Reporter();
      reporter.onBegin({ projects: [] } as never, {} as never);
      for (const t of tests) reporter.onTestEnd(t.testCase, t.result);
      await reporter.onEnd({ status: 'failed', startTime: new Date('2026-11-23T10:00:00.000Z'), duration: 5000 } as never);
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return dir;
}

/** The cells of a Markdown table row: split on the pipes that are not escaped. */
const cells = (line: string) =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

test('exchanges.har holds the evidence of failures and findings as HAR 1.2, in the order and bounds of conformance.json', async () => {
  const dir = await report(failingRun('{"Result":"small"}'), {});
  const har = expectValidHar(path.join(dir, 'exchanges.har'));
  const summary = readJson<ConformanceSummary>(path.join(dir, 'conformance.json'));
  expect(summary.verdict).toBe('non-conformant');
  expect(har.log.creator).toEqual({ name: summary.kit.name, version: summary.kit.version });
  // In catalogue order: ERR-02 (the finding) before LIST-03 before PAGE-03.
  expect(har.log.entries.map((e) => e._evidenceOf.map((x) => x.requirement))).toEqual([['ERR-02'], ['LIST-03'], ['PAGE-03']]);
  const [finding, list] = har.log.entries;
  // The run's start plus the order: increasing, and never before the run started.
  const starts = har.log.entries.map((e) => Date.parse(e.startedDateTime));
  expect(starts[0]).toBe(Date.parse('2026-11-23T10:00:00.000Z'));
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  expect(new Set(starts).size).toBe(starts.length);
  expect(list.request.method).toBe('POST');
  expect(list.request.queryString).toEqual([
    { name: 'Action', value: 'ListAssetGroups' },
    { name: 'Version', value: '2024-01-01' },
  ]);
  expect(list.request.postData).toEqual({ mimeType: 'application/json', text: '{"Filter":{"GroupType":"video"}}' });
  expect(list.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer <AG_TOKEN>' });
  expect(list.response.status).toBe(200);
  expect(list.response.statusText).toBe('OK');
  expect(list.response.content.mimeType).toBe('application/json');
  expect(list.time).toBe(12.5);
  expect(list.timings).toEqual({ send: 0, wait: 12.5, receive: 0 });
  expect(list.comment).toContain('LIST-03 [MUST] listFilterHonoured');
  // No answer at all: status 0 and the error, as browsers write it.
  expect(finding.response.status).toBe(0);
  expect(finding.response._error).toBe('read ECONNRESET');
  expect(finding.comment).toContain('found while running AUTH-03 another scheme');
  // The same exchanges as conformance.json holds, not re-read or re-expanded.
  const held = summary.requirements.flatMap((r) => r.tests.flatMap((t) => t.failures.map((f) => f.exchange as { response?: { body: string } })));
  expect(har.log.entries.map((e) => e.response.content.text)).toEqual(held.map((x) => x.response?.body ?? ''));
});

test('exchanges.har keeps the report-wide bound: an exchange dropped from conformance.json is not in it', async () => {
  const big = `{"Result":"${'x'.repeat(50_000)}"}`;
  const dir = await report(failingRun(big), { AG_REPORT_TARGET_BYTES: '20000' });
  const har = expectValidHar(path.join(dir, 'exchanges.har'));
  const summary = readJson<ConformanceSummary>(path.join(dir, 'conformance.json'));
  const page = summary.requirements.find((r) => r.id === 'PAGE-03')!;
  expect((page.tests[0].failures[0].exchange as { dropped?: string }).dropped).toContain('AG_REPORT_TARGET_BYTES');
  expect(har.log.entries.map((e) => e._evidenceOf[0].requirement)).toEqual(['ERR-02', 'LIST-03']);
  expect(har.log.comment).toContain('1 exchange(s) dropped by that bound');
  expect(readFileSync(path.join(dir, 'exchanges.har'), 'utf8')).not.toContain('x'.repeat(1000));
  expect(readFileSync(path.join(dir, 'exchanges.har'), 'utf8').length).toBeLessThan(20_000 + 10_000);
});

test('summary.md: the verdict, one safe line per failed MUST and warning, the counts, the link, and a copy appended to GITHUB_STEP_SUMMARY', async () => {
  const stepSummary = path.join(mkdtempSync(path.join(os.tmpdir(), 'agc-step-summary-')), 'step_summary.md');
  writeFileSync(stepSummary, '# An earlier step\n\n');
  const dir = await report(failingRun('{"Result":"small"}'), { GITHUB_STEP_SUMMARY: stepSummary });
  const text = readFileSync(path.join(dir, 'summary.md'), 'utf8');
  const lines = text.split('\n');
  const catalogue = new Map(loadCatalogue().requirements.map((r) => [r.id, r]));
  expect(lines[0]).toBe('## Asset-group conformance: ❌ non-conformant');
  const verdict = lines.find((l) => l.startsWith('**Verdict: non-conformant**'));
  expect(verdict, text).toBeTruthy();
  // The hostile first reason (ERR-02's finding decides: it comes first and was judged) stays on its
  // line: its newline and command prefixes made visible, its markup escaped.
  expect(verdict).toContain(`First reason: ERR-02 ${md(catalogue.get('ERR-02')!.title)}: errorKind: got 3 groups`);
  expect(verdict).toContain('got 3 groups\\\\n:\\\\x3aerror');
  // Every failed MUST on one line: ID, title, check, received; the row has its four cells however many pipes the target sent.
  const musts = lines.filter((l) => /^\| (LIST-03|ERR-02) \|/.test(l));
  expect(musts.map((l) => cells(l)[0])).toEqual(['ERR-02', 'LIST-03']);
  for (const row of musts) {
    const [id, title, check, received] = cells(row);
    expect(cells(row)).toHaveLength(4);
    expect(title).toBe(md(catalogue.get(id)!.title, 200));
    expect(check).toMatch(/^`\w+`$/);
    expect(received.length).toBeGreaterThan(0);
  }
  const list = cells(musts[1]);
  expect(list[2]).toBe('`listFilterHonoured`');
  expect(list[3]).toContain('got 3 groups');
  expect(list[3]).toContain(
    'owned \\| &lt;script&gt;alert(1)&lt;/script&gt; \\`rm -rf \\~\\` \\[click\\](https://evil.example) #\\\\x23vso\\[task.setvariable',
  );
  // The token the check quoted is blotted out in a form Markdown shows.
  expect(list[3]).toContain('&lt;redacted token&gt;');
  expect(text).not.toContain(TOKEN);
  const should = lines.find((l) => l.startsWith('| PAGE-03 |'));
  // PAGE-03 is judged by the profile (basis: profile): its line says the difference is from the profile.
  expect(cells(should!)).toEqual([
    'PAGE-03',
    'SHOULD',
    md(catalogue.get('PAGE-03')!.title, 200),
    '`pagesDisjoint`',
    'overlap (differs from the profile, not from the spec)',
  ]);
  expect(text).toMatch(/\*\*Not judged:\*\* 1 blocked by a prerequisite · 0 not assessable \(profile mismatch\) · \d+ skipped · \d+ not assessed/);
  expect(text).toContain('[index.html](index.html)');
  // Nothing a runner or a Markdown renderer would act on: no command, no raw tag, no link or ANSI of the target's making.
  for (const line of lines) expect(line.trimStart()).not.toMatch(/^(::|##\[|##vso)/);
  expect(text).not.toMatch(/::error|<script|\u001b|(?<!\\)\]\(https:\/\/evil/);
  expect(text).not.toContain('##vso[');
  // Appended after what the job's earlier steps wrote, once.
  expect(readFileSync(stepSummary, 'utf8')).toBe(`# An earlier step\n\n${text}\n`);
});

// ------------------------------------------------------------------ real runs

/** Ignores the group-type filter: LIST-03 (a MUST) fails. */
const ignoresGroupType: Partial<ReferenceHooks> = {
  matchesFilter: (group, filter, ctx) => defaultHooks.matchesFilter(group, { ...filter, groupType: undefined }, ctx),
};

const quick = { AG_VISIBILITY_TIMEOUT_MS: '5000', AG_REQUEST_TIMEOUT_MS: '3000', AG_NUM_RUNS: '5', AG_SEED: '7' };

test('a failing run writes a valid exchanges.har with the failure exchanges, and summary.md with its failed MUST, appended to GITHUB_STEP_SUMMARY', async ({
  startReference,
}, testInfo) => {
  const server = await startReference({ hooks: ignoresGroupType });
  const stepSummary = testInfo.outputPath('step_summary.md');
  const run = await runPlaywright(['test'], { ...referenceTokenEnv(), ...quick, AG_BASE_URL: server.url, GITHUB_STEP_SUMMARY: stepSummary });
  expect(run.status, run.stdout.slice(-3000)).toBe(1);
  const summary = readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
  expect(summary.verdict).toBe('non-conformant');
  const har = expectValidHar(path.join(run.reportDir, 'exchanges.har'));
  const list = har.log.entries.filter((e) => e._evidenceOf.some((x) => x.requirement === 'LIST-03'));
  expect(list.length, 'the LIST-03 failure carries its exchanges').toBeGreaterThan(0);
  expect(list[0].request.url.startsWith(server.url)).toBe(true);
  expect(list[0].request.queryString).toContainEqual({ name: 'Action', value: 'ListAssetGroups' });
  expect(list[0].response.status).toBe(200);
  // No exchange of a requirement that passed.
  const failing = new Set(summary.requirements.filter((r) => r.tests.some((t) => t.failures.length)).map((r) => r.id));
  for (const entry of har.log.entries) for (const x of entry._evidenceOf) expect(failing.has(x.requirement)).toBe(true);
  const text = readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8');
  expect(text.split('\n')).toContain('## Asset-group conformance: ❌ non-conformant');
  const failedMusts = summary.requirements.filter((r) => r.level === 'MUST' && r.status === 'failed').map((r) => r.id);
  expect(failedMusts).toContain('LIST-03');
  for (const id of failedMusts) expect(text.split('\n').filter((l) => l.startsWith(`| ${id} |`))).toHaveLength(1);
  expect(readFileSync(stepSummary, 'utf8')).toBe(`${text}\n`);
});

test('a conformant run writes a valid exchanges.har with no entries, and a summary.md that says conformant', async ({ referenceServer }) => {
  const run = await runPlaywright(['test'], { ...referenceTokenEnv(), ...quick, AG_BASE_URL: referenceServer.url });
  expect(run.status, run.stdout.slice(-3000)).toBe(0);
  const summary = readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
  expect(summary.verdict).toBe('conformant');
  const har = expectValidHar(path.join(run.reportDir, 'exchanges.har'));
  // The reference server fails nothing; were a SHOULD or MAY to fail, its exchanges would be here, and only they.
  const held = summary.requirements.flatMap((r) => r.tests.flatMap((t) => t.failures.filter((f) => f.exchange)));
  expect(har.log.entries).toHaveLength(held.length);
  const text = readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8');
  expect(text.split('\n')[0]).toBe('## Asset-group conformance: ✅ conformant');
  expect(text).toContain('**Verdict: conformant**');
  expect(text).not.toContain('### Failed MUSTs');
  rmSync(run.reportDir, { recursive: true, force: true });
});
