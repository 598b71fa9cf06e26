/**
 * Stale waivers (issue 50, part 4): a waiver whose requirement passed is `stale` in conformance.json, junit.xml,
 * summary.md and on the console; under --strict-waivers a stale or expired waiver fails a conformant run with its own
 * exit status. The rules on synthetic outcomes (no target); one `agc run --strict-waivers` shows every output end to end.
 * The same stale waiver without --strict-waivers (exit 0) is tests/cli.test.ts's waiver run.
 */
import { test, expect } from './helpers/fixtures';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { loadCatalogue } from '../schemas/requirements';
import { validateReport } from '../schemas';
import { summarize, type ConformanceSummary, type Outcome } from '../reporters/verdict';
import { renderJunit } from '../reporters/junit';
import { renderSummary } from '../reporters/summary';
import type { Waiver } from '../reporters/waivers';
import { EXIT, exitForReport } from '../common/exit-codes.mjs';
import { readJson, referenceTokenEnv, runAgc } from './helpers/harness';

const catalogue = loadCatalogue();
const NOW = new Date('2026-06-01T00:00:00Z');
const stale: Waiver = { id: 'PAGE-03', reason: 'old default page size', link: 'https://tracker.example.com/AG-2' };
const expired: Waiver = { id: 'LIST-02', reason: 'long gone', link: 'https://tracker.example.com/AG-3', expires: '2020-01-01' };

/** Every assessed requirement passes, except those failed or blocked here. */
function judge(waivers: Waiver[], strict: boolean, { failed = [] as string[], blocked = [] as string[] } = {}): ConformanceSummary {
  const outcomes: Outcome[] = catalogue.requirements
    .filter((r) => r.level !== 'NOT-ASSESSED')
    .map((r) => ({
      requirement: r.id,
      title: `${r.id} a test`,
      file: 'suites/x.spec.ts',
      status: failed.includes(r.id) ? 'failed' : blocked.includes(r.id) ? 'skipped' : 'passed',
      durationMs: 1,
      checks: ['someCheck'],
      failures: failed.includes(r.id) ? [{ check: 'someCheck', received: 'x', documented: 'y', fix: 'z' }] : [],
      ...(blocked.includes(r.id) ? { blockedBy: ['CREATE-01'], skipReason: 'blocked by CREATE-01: no group' } : {}),
    }));
  const facts = { lagsMs: [], neverVisible: 0, retries: { 429: 0, 503: 0 }, startedAt: NOW.toISOString(), finishedAt: NOW.toISOString(), runErrors: [] };
  const summary = summarize(outcomes, facts, waivers, NOW, undefined, strict);
  expect(validateReport(JSON.parse(JSON.stringify(summary))).errors, 'conformance.json validates against its schema').toEqual([]);
  return summary;
}

test('a waiver whose requirement passed is stale in conformance.json, junit.xml and summary.md, and fails nothing without strict', () => {
  const s = judge([stale], false);
  expect(s.verdict).toBe('conformant');
  expect(s.waivers).toEqual({ applied: [], expired: [], stale: [stale], unused: [], strict: false, failure: null });
  expect(s.requirements.find((r) => r.id === 'PAGE-03')).toMatchObject({ status: 'passed', staleWaiver: stale });
  expect(exitForReport(s)).toBe(EXIT.ok);
  const junit = renderJunit(s);
  expect(junit).toContain('<property name="waivers.stale" value="PAGE-03"/>');
  expect(junit).toContain('<property name="waivers.strict" value="false"/>');
  expect(junit).toMatch(
    /PAGE-03 \[SHOULD\][^<]*>\s*<system-out>[^<]*waiver stale: this requirement passed, so its waiver \(old default page size; https:\/\/tracker\.example\.com\/AG-2\) can go/,
  );
  expect(junit).not.toContain('<testsuite name="waivers"');
  const md = renderSummary(s);
  expect(md).toContain('### Stale waivers (1)');
  expect(md).toContain('| PAGE-03 | old default page size |');
  expect(md).not.toContain('Waivers fail the run');
});

test('under strict, a stale waiver fails a conformant run with its own exit status, named in every output', () => {
  const s = judge([stale], true);
  expect(s.verdict).toBe('conformant');
  expect(s.waivers.failure).toBe('waivers to update (--strict-waivers): stale (the requirement passed, the waiver can go): PAGE-03');
  expect(exitForReport(s)).toBe(EXIT.staleWaivers);
  expect(EXIT.staleWaivers).not.toBe(EXIT.nonConformant);
  const junit = renderJunit(s);
  expect(junit).toMatch(
    /<testsuite name="waivers" tests="1" failures="1"[^>]*>\s*<testcase classname="waivers" name="waiver PAGE-03"[^>]*>\s*<failure type="stale waiver"/,
  );
  expect(junit).toContain('<property name="waivers.failure" value="waivers to update (--strict-waivers)');
  expect(renderSummary(s)).toContain('**Waivers fail the run (exit 4):** waivers to update (--strict-waivers): stale');
});

test('under strict, an expired waiver fails a conformant run too; a run short of conformant keeps its own status', () => {
  const s = judge([expired], true);
  expect(s.waivers.expired).toEqual([expired]);
  expect(s.waivers.failure).toBe('waivers to update (--strict-waivers): expired: LIST-02 (2020-01-01)');
  expect(exitForReport(s)).toBe(EXIT.staleWaivers);
  expect(renderJunit(s)).toContain('<failure type="expired waiver"');
  // The expired waiver no longer hides LIST-02's failure: the verdict decides first.
  const failing = judge([expired], true, { failed: ['LIST-02'] });
  expect(failing.verdict).toBe('non-conformant');
  expect(failing.waivers.failure).toContain('LIST-02');
  expect(exitForReport(failing)).toBe(EXIT.nonConformant);
});

test('a waiver whose requirement was not judged (blocked) is unused, not stale, and fails nothing under strict; a waiver that applies neither', () => {
  const s = judge([stale, { ...expired, expires: '2027-01-01' }], true, { blocked: ['PAGE-03'], failed: ['LIST-02'] });
  expect(s.waivers).toMatchObject({ stale: [], unused: [stale], applied: [{ id: 'LIST-02' }], failure: null });
  expect(s.requirements.find((r) => r.id === 'PAGE-03')!.staleWaiver).toBeUndefined();
  expect(exitForReport(s)).toBe(exitForReport({ verdict: s.verdict }));
});

test('agc run --strict-waivers with a stale and an expired waiver: exit 4, each marked in conformance.json, junit.xml, summary.md and the console', async ({
  startReference,
}) => {
  test.setTimeout(180_000);
  const server = await startReference();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-waivers-'));
  const file = path.join(dir, 'waivers.yaml');
  writeFileSync(file, YAML.stringify({ waivers: [stale, expired] }));
  const report = path.join(dir, 'report');
  const run = await runAgc(['run', '--base-url', server.url, '--report-dir', report, '--waivers', file, '--strict-waivers'], {
    ...referenceTokenEnv(),
    AG_VISIBILITY_TIMEOUT_MS: '5000',
    AG_REQUEST_TIMEOUT_MS: '3000',
    AG_NUM_RUNS: '5',
    AG_SEED: '7',
  });
  expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(EXIT.staleWaivers);
  const summary = readJson<ConformanceSummary>(path.join(report, 'conformance.json'));
  expect(summary.verdict).toBe('conformant');
  expect(summary.waivers.stale.map((w) => w.id)).toEqual(['PAGE-03']);
  expect(summary.waivers.expired.map((w) => w.id)).toEqual(['LIST-02']);
  const reason = 'waivers to update (--strict-waivers): stale (the requirement passed, the waiver can go): PAGE-03; expired: LIST-02 (2020-01-01)';
  expect(summary.waivers).toMatchObject({ strict: true, failure: reason });
  expect(run.stdout).toContain('Waivers: stale waiver (the requirement passed; remove it from the waiver file): PAGE-03');
  expect(run.stdout).toContain(`Waivers fail the run: ${reason}`);
  const junit = readFileSync(path.join(report, 'junit.xml'), 'utf8');
  expect(junit).toContain('<property name="waivers.stale" value="PAGE-03"/>');
  expect(junit).toContain('name="waiver PAGE-03"');
  expect(junit).toContain('name="waiver LIST-02"');
  const md = readFileSync(path.join(report, 'summary.md'), 'utf8');
  expect(md).toContain('### Stale waivers (1)');
  expect(md).toContain('### Expired waivers (1)');
});

test('agc certify --strict-waivers with a stale waiver: the certificate is conformant, and the command exits 4 as agc run does', async ({ startReference }) => {
  test.setTimeout(180_000);
  const server = await startReference();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-waivers-certify-'));
  const file = path.join(dir, 'waivers.yaml');
  writeFileSync(file, YAML.stringify({ waivers: [stale] }));
  const out = path.join(dir, 'certification');
  const quick = { AG_VISIBILITY_TIMEOUT_MS: '5000', AG_REQUEST_TIMEOUT_MS: '3000', AG_NUM_RUNS: '5' };
  const run = await runAgc(['certify', '--runs', '1', '--base-url', server.url, '--report-dir', out, '--waivers', file, '--strict-waivers'], {
    ...referenceTokenEnv(),
    ...quick,
  });
  expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(EXIT.staleWaivers);
  expect(readJson<{ verdict: string }>(path.join(out, 'certificate.json')).verdict).toBe('conformant');
  expect(run.stdout).toContain('agc certify: waivers fail the certification: waivers to update (--strict-waivers): stale');
});
