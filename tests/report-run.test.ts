import { test, expect, runInlineSuite } from './helpers/fixtures';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalogue } from '../schemas/requirements';
import { validateReport } from '../schemas';
import { readJson, runAgc, type KitRun } from './helpers/harness';
import type { ConformanceSummary } from '../reporters/verdict';

// What the collector makes of what the suites hand it (annotations, skips, plain `expect`
// messages, evidence) and of AG_BASELINE, through a tiny inline suite and the real reporters.
test.describe.configure({ mode: 'parallel' });

const ESC = '\\u001b';
const SUITE = `
import { test, expect } from '@playwright/test';
const requirement = (id: string) => ({ annotation: { type: 'requirement', description: id } });
test('CREATE-01 CreateAssetGroup answers 200 with a non-empty Result.Id', requirement('CREATE-01'), () => {
  // A plain expect, as PAGE-05's page walk or VIS-01 use: Playwright colours its message.
  expect([1, 2], 'the run lost groups').toEqual([1, 2, 3]);
});
test('LIST-03 The group-type filter returns the matching groups and only those', requirement('LIST-03'), async ({}, testInfo) => {
  const failure = { check: 'sameIds', received: '${ESC}[31mIds [g-1]${ESC}[39m', documented: 'Ids [g-1, g-2]', fix: 'return every matching group' };
  await testInfo.attach('evidence', { body: JSON.stringify({ failure }), contentType: 'application/json' });
  throw new Error('${ESC}[2msameIds${ESC}[22m failed');
});
test('ENV-01 A successful response carries ResponseMetadata', requirement('ENV-01'), () => {});
test('VIS-01 Every created group becomes visible within the visibility timeout', requirement('VIS-01'), ({}, testInfo) => {
  testInfo.annotations.push({ type: 'blocked', description: 'CREATE-01' });
  testInfo.skip(true, 'blocked by CREATE-01: no group was created, so none can become visible');
});
test('ERR-01 Error bodies have the profile error shape', requirement('ERR-01'), ({}, testInfo) => {
  testInfo.annotations.push({ type: 'profile-mismatch', description: 'the code is at /Error/Code; set error.codePointer: /Error/Code' });
  testInfo.skip(true, 'the error body follows another profile');
});
test('INPUT-08 A 429 answer carries a Retry-After header', requirement('INPUT-08'), ({}, testInfo) => {
  testInfo.skip(true, '${ESC}[2mthe target answered no 429${ESC}[22m, so there was nothing to observe');
});
`;

const written = (run: KitRun, file: string) => readFileSync(path.join(run.reportDir, file), 'utf8');
const summaryOf = (run: KitRun) => readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
const byId = (s: ConformanceSummary, id: string) => s.requirements.find((r) => r.id === id)!;

test('colour codes never reach the reports, and blocked, not-assessable and nothing-to-judge skips arrive with their reasons', async () => {
  const run = await runInlineSuite(SUITE, { FORCE_COLOR: '1' });
  expect(run.status, run.stdout + run.stderr).toBe(1);
  // The input did carry colour codes (Playwright's own JSON report keeps them) …
  expect(readFileSync(path.join(run.outputDir, '..', 'raw.json'), 'utf8')).toContain('\\u001b[');
  // … and none of the kit's reports does, in any spelling.
  for (const file of ['conformance.json', 'index.html', 'junit.xml', 'badge.svg']) {
    const text = written(run, file);
    expect(text, file).not.toContain('\u001b');
    expect(text, file).not.toContain('\\u001b');
    expect(text, file).not.toMatch(/\[(2|22|31|39)m/);
    expect(text, file).not.toContain('\ufffd');
  }
  const s = summaryOf(run);
  expect(validateReport(s).errors).toEqual([]);
  expect(s.verdict).toBe('non-conformant');
  expect(s.firstReason).toMatch(/^CREATE-01 /);
  expect(byId(s, 'VIS-01')).toMatchObject({
    status: 'blocked',
    blockedBy: ['CREATE-01'],
    reason: 'blocked by CREATE-01: no group was created, so none can become visible',
  });
  expect(byId(s, 'ERR-01')).toMatchObject({ status: 'skipped', profileMismatch: 'the code is at /Error/Code; set error.codePointer: /Error/Code' });
  expect(byId(s, 'INPUT-08')).toMatchObject({ status: 'skipped', reason: 'the target answered no 429, so there was nothing to observe' });
  expect(byId(s, 'LIST-03').tests[0].failures[0].received).toBe('Ids [g-1]');
  expect(byId(s, 'ENV-01').tests[0]).toMatchObject({ file: expect.stringMatching(/inline\.spec\.ts$/), status: 'passed' });
  expect(written(run, 'junit.xml')).toContain('<skipped message="blocked by CREATE-01: no group was created, so none can become visible"/>');
  expect(written(run, 'index.html')).toContain('not assessable: profile mismatch');
});

test('with AG_BASELINE every output says what newly fails, what was fixed, what changed, and that the spec and profile changed', async ({}, testInfo) => {
  const statuses: Record<string, string> = Object.fromEntries(
    loadCatalogue().requirements.map((r) => [r.id, r.level === 'NOT-ASSESSED' ? 'not-assessed' : 'skipped']),
  );
  Object.assign(statuses, { 'CREATE-01': 'passed', 'LIST-03': 'failed', 'ENV-01': 'failed', 'VIS-01': 'passed', 'ERR-01': 'skipped', 'INPUT-08': 'skipped' });
  const baseline = testInfo.outputPath('baseline.json');
  writeFileSync(
    baseline,
    JSON.stringify({
      verdict: 'non-conformant',
      startedAt: '2026-01-01T00:00:00.000Z',
      kit: { version: '0.0.9', specHash: 'f'.repeat(64) },
      profile: { name: 'staging', path: '/etc/staging.yaml' },
      requirements: Object.entries(statuses).map(([id, status]) => ({ id, status })),
    }),
  );
  const run = await runInlineSuite(SUITE, { AG_BASELINE: baseline });
  const s = summaryOf(run);
  expect(validateReport(s).errors).toEqual([]);
  expect(s.baseline).toMatchObject({
    file: baseline,
    startedAt: '2026-01-01T00:00:00.000Z',
    verdict: { before: 'non-conformant', now: 'non-conformant' },
    specHashChanged: true,
    profileChanged: true,
    newlyFailing: ['CREATE-01'],
    fixed: ['ENV-01'],
  });
  expect(s.baseline!.changed).toEqual([
    { id: 'ENV-01', before: 'failed', now: 'passed' },
    { id: 'CREATE-01', before: 'passed', now: 'failed' },
    { id: 'VIS-01', before: 'passed', now: 'blocked' },
  ]);
  const html = written(run, 'index.html');
  expect(html).toContain('<strong>Newly failing:</strong> <a href="#CREATE-01">CREATE-01</a>');
  expect(html).toContain('<strong>Fixed:</strong> <a href="#ENV-01">ENV-01</a>');
  expect(html).toContain('<a href="#VIS-01">VIS-01</a> passed → blocked');
  expect(html).toContain('The spec changed in between');
  expect(html).toContain('The profile changed in between</strong>: it was “staging”');
  // The comparison comes right after the verdict, before the failures.
  expect(html.indexOf('id="since-baseline"')).toBeLessThan(html.indexOf('id="failed-musts"'));
  const junit = written(run, 'junit.xml');
  expect(junit).toContain('<property name="baseline.newlyFailing" value="CREATE-01"/>');
  expect(junit).toContain('<property name="baseline.fixed" value="ENV-01"/>');
  expect(junit).toContain('<property name="baseline.otherChanges" value="VIS-01:passed-&gt;blocked"/>');
  expect(junit).toContain('<property name="baseline.specHashChanged" value="true"/>');
  expect(junit).toContain('since the baseline: passed -&gt; failed');
  expect(run.stdout).toContain(
    'Since the baseline of 2026-01-01T00:00:00.000Z: newly failing: CREATE-01; fixed: ENV-01; other changes: VIS-01 passed → blocked; the spec changed in between (another spec hash); the profile changed in between (was "staging")',
  );
});

for (const [what, content] of [
  ['missing', null],
  ['not a conformance.json', '{"hello": "world"}'],
  ['not JSON', 'verdict: conformant'],
] as const) {
  test(`a baseline that is ${what} is a configuration error naming AG_BASELINE, exit 3, no stack trace`, async ({}, testInfo) => {
    const file = testInfo.outputPath('baseline.json');
    if (content !== null) writeFileSync(file, content);
    const runs = await Promise.all([
      runInlineSuite(SUITE, { AG_BASELINE: file }),
      runAgc(['run', '--baseline', file, '--report-dir', testInfo.outputPath('report')], {}, { timeoutMs: 60_000 }),
    ]);
    for (const run of runs) {
      expect(run.status, run.stdout + run.stderr).toBe(3);
      const lines = run.stderr.split('\n').filter((l) => l.trim() && !/unexpected operator/.test(l));
      expect(lines).toEqual([
        expect.stringMatching(new RegExp(`^conformance kit: configuration error: AG_BASELINE: .*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
      ]);
      expect(run.stdout + run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    }
  });
}

test("a finding of another requirement, noticed in a test that is then blocked by it, is that requirement's failure", async () => {
  const run = await runInlineSuite(`
import { test } from '@playwright/test';
const requirement = (id: string) => ({ annotation: { type: 'requirement', description: id } });
test('ENV-06 A successful response carries a Result object', requirement('ENV-06'), () => {});
test('LIST-03 The group-type filter returns the matching groups and only those', requirement('LIST-03'), async ({}, testInfo) => {
  const failure = { check: 'resultPresent', received: 'no Result in the answer', documented: 'a Result object', fix: 'answer a Result object' };
  await testInfo.attach('finding', { body: JSON.stringify({ requirement: 'ENV-06', failure, exchange: { request: { method: 'POST', url: 'http://t/', headers: {}, body: '{}' } } }), contentType: 'application/json' });
  testInfo.annotations.push({ type: 'blocked', description: 'ENV-06' });
  testInfo.skip(true, 'blocked by ENV-06: resultPresent: no Result in the answer');
});
`);
  const s = summaryOf(run);
  expect(validateReport(s).errors).toEqual([]);
  expect(byId(s, 'ENV-06')).toMatchObject({ status: 'failed', reason: 'resultPresent: no Result in the answer' });
  expect(byId(s, 'ENV-06').tests.find((t) => t.noticedIn)).toMatchObject({
    noticedIn: 'LIST-03 The group-type filter returns the matching groups and only those',
    status: 'failed',
  });
  expect(byId(s, 'LIST-03')).toMatchObject({ status: 'blocked', blockedBy: ['ENV-06'] });
  expect(s.verdict).toBe('non-conformant');
  expect(s.firstReason).toMatch(/^ENV-06 /);
  expect(written(run, 'index.html')).toContain('Found while running “LIST-03 The group-type filter returns the matching groups and only those”');
  expect(written(run, 'junit.xml')).toContain('found while running LIST-03 The group-type filter');
});
