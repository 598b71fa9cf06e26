/**
 * exchanges.har and summary.md: the evidence in the format HTTP tools read, and the verdict in the
 * Markdown a CI job's page shows, from the reporters fed directly. The HAR is validated against the
 * required fields of HAR 1.2 (tests/helpers/har-schema.ts); summary.md is checked for its verdict line, one
 * line per failed MUST, hostile text made inert, and its copy appended to GITHUB_STEP_SUMMARY. Real
 * runs, failing and conformant, write both too: tests/reports.test.ts judges them on the runs it shares.
 */
import { test, expect } from './helpers/fixtures';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { evidenceJson } from '../client/evidence';
import type { Exchange } from '../client/exchange';
import { ANNOTATION, ATTACHMENT } from '../facts/record';
import { loadCatalogue } from '../schemas/requirements';
import ConformanceOutputs from '../reporters/conformance';
import { md } from '../reporters/summary';
import type { ConformanceSummary } from '../reporters/verdict';
import { readJson, ROOT } from './helpers/harness';
import { expectValidHar } from './helpers/har-schema';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

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

/** Feeds tests to the kit's report (every output of one verdict), as Playwright would, with the variables given. */
async function report(tests: Synthetic[], env: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-har-summary-'));
  const names = ['AG_REPORT_DIR', 'AG_REPORT_TARGET_BYTES', 'GITHUB_STEP_SUMMARY', 'AG_TOKEN', ...Object.keys(env)];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  Object.assign(process.env, { AG_REPORT_DIR: dir, AG_TOKEN: TOKEN }, env);
  if (!('GITHUB_STEP_SUMMARY' in env)) delete process.env.GITHUB_STEP_SUMMARY;
  if (!('AG_REPORT_TARGET_BYTES' in env)) delete process.env.AG_REPORT_TARGET_BYTES;
  try {
    const reporter = new ConformanceOutputs();
    reporter.onBegin({ projects: [] } as never, {} as never);
    for (const t of tests) reporter.onTestEnd(t.testCase, t.result);
    await reporter.onEnd({ status: 'failed', startTime: new Date('2026-11-23T10:00:00.000Z'), duration: 5000 } as never);
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
