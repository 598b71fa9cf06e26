/**
 * A failed MUST is judged once more before the verdict (suites/fixtures.ts judgedAgain, suites/api.ts Api.again): a
 * failure that does not repeat is reported flaky, with how the second answer went, and fails all the same. The target
 * here answers the run's first list (the preflight, whose echo VER-01 judges) with another Version, and every later
 * one as the reference server does: VER-01 fails, flaky. A target that fails every time is failed, not flaky.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './helpers/fixtures';
import { defaultHooks, type HookContext, type ResponseMetadata } from '../reference/behaviour';
import { readJson, referenceTokenEnv, runAgc } from './helpers/harness';

interface Requirement {
  id: string;
  status: string;
  flaky?: true;
  reason: string | null;
  tests: { failures: { check: string; flaky?: string }[] }[];
}
interface Report {
  verdict: string;
  requirements: Requirement[];
  flaky: { requirements: string[]; treatment: string };
}

async function versionEchoRun(startReference: (options?: object) => Promise<{ url: string }>, wrongAnswers: number) {
  let lists = 0;
  const target = await startReference({
    hooks: {
      successBody: (meta: ResponseMetadata, result: unknown, ctx: HookContext) =>
        defaultHooks.successBody(meta.Action === 'ListAssetGroups' && lists++ < wrongAnswers ? { ...meta, Version: '2023-01-01' } : meta, result, ctx),
    },
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-flaky-'));
  const run = await runAgc(['run', '--base-url', target.url, '--grep', 'VER-01', '--report-dir', dir], {
    ...referenceTokenEnv(),
    AG_VISIBILITY_TIMEOUT_MS: '10000',
  });
  return { run, dir, report: readJson<Report>(path.join(dir, 'conformance.json')) };
}

test('a failed MUST that does not repeat when sent again is flaky, says how it went, and still fails', async ({ startReference }) => {
  test.setTimeout(60_000);
  const { run, dir, report } = await versionEchoRun(startReference, 1);
  try {
    const ver01 = report.requirements.find((r) => r.id === 'VER-01')!;
    expect(ver01.status, run.stdout.slice(-1500)).toBe('failed');
    expect(ver01.flaky).toBe(true);
    expect(ver01.reason).toMatch(/^echoesVersion: .*\(flaky: sent again, it was answered HTTP 200 and passed echoesVersion\)$/);
    expect(ver01.tests.flatMap((t) => t.failures).find((f) => f.check === 'echoesVersion')?.flaky).toContain('passed echoesVersion');
    expect(report.flaky.requirements).toEqual(['VER-01']);
    expect(report.flaky.treatment).toContain('fails its requirement all the same');
    expect(report.verdict).toBe('non-conformant');
    expect(run.stdout).toContain('Flaky:      sent again');
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toContain('<dt>Flaky</dt>');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failed MUST that repeats when sent again is failed, not flaky', async ({ startReference }) => {
  test.setTimeout(60_000);
  const { run, dir, report } = await versionEchoRun(startReference, Infinity);
  try {
    const ver01 = report.requirements.find((r) => r.id === 'VER-01')!;
    expect(ver01.status, run.stdout.slice(-1500)).toBe('failed');
    expect(ver01.flaky).toBeUndefined();
    expect(report.flaky.requirements).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
