import { CHROMIUM, chromiumInstalled, launchChromium } from '../scripts/chromium';
import { test, expect, REFERENCE_DEFAULTS } from './helpers/fixtures';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError, defaultHooks, startReferenceServer, type ReferenceServer, type ReferenceHooks } from '../reference/server';
import { loadCatalogue } from '../schemas/requirements';
import { referenceUsers, TOKEN_ROLES } from '../reference/config';
import { validateReport } from '../schemas';
import { runAgc, runPlaywright, readJson, filesBelow, type KitRun } from './helpers/harness';
import { expectValidHar } from './helpers/har-schema';
import type { ConformanceSummary } from '../reporters/verdict';

// Each conformance run here takes a few seconds; these tests are about what the reports say.
test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

/** Distinctive tokens, so that any trace of one in a written file is unmistakable. */
function distinctiveTokens(tag: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const info of TOKEN_ROLES) env[info.serverEnv] = `SECRET-${tag}-${info.role}-${Math.random().toString(36).slice(2, 12)}`;
  return env;
}

function kitEnv(server: ReferenceServer, serverEnv: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { AG_BASE_URL: server.url, AG_VISIBILITY_TIMEOUT_MS: '5000', AG_SEED: '424242', AG_NUM_RUNS: '10' };
  for (const info of TOKEN_ROLES) env[info.clientEnv] = serverEnv[info.serverEnv];
  return env;
}

function statuses(summary: ConformanceSummary): Record<string, string> {
  return Object.fromEntries(summary.requirements.map((r) => [r.id, r.status]));
}

function expectReportFiles(run: KitRun): ConformanceSummary {
  for (const file of ['conformance.json', 'index.html', 'junit.xml', 'badge.svg'])
    expect(existsSync(path.join(run.reportDir, file)), `${file} written\n${run.stdout}\n${run.stderr}`).toBe(true);
  const summary = readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
  const validation = validateReport(summary);
  expect(validation.errors, 'conformance.json validates against schemas/conformance-report.schema.json').toEqual([]);
  return summary;
}

/**
 * A target that fails on purpose: it echoes the Authorization header it was sent in its 401
 * message (the worst place a token can travel back from) and gives a valid token under another
 * scheme the wrong error kind (ERR-02's finding, noticed by AUTH-03, which it blocks), and it ignores
 * the group-type filter (LIST-03).
 */
const leakyTarget: Partial<ReferenceHooks> = {
  authenticate(authorization, ctx) {
    const principal = defaultHooks.authenticate(authorization, ctx);
    if (!(principal instanceof ApiError)) return principal;
    // A valid token under another scheme gets the wrong kind, so the finding's evidence carries the echo.
    const kind = authorization && !/^bearer /i.test(authorization) ? 'AssetError' : 'TokenAuthError';
    return new ApiError(401, kind, `token not accepted: ${authorization}`);
  },
  matchesFilter(group, filter, ctx) {
    return defaultHooks.matchesFilter(group, { ...filter, groupType: undefined }, ctx);
  },
};

/**
 * Two runs of `agc run` against the reference server at the same time, judged by the tests of their group (one worker,
 * in order): each of them asks something else of the same outputs, and a kit run costs about 5 CPU-s.
 */
test.describe('a conformant run', () => {
  test.describe.configure({ mode: 'default' });
  const serverEnv = distinctiveTokens('ok');
  let server: ReferenceServer | undefined;
  let run: KitRun;
  let beside: KitRun;
  test.beforeAll(async () => {
    const started = await startReferenceServer({ ...REFERENCE_DEFAULTS, users: referenceUsers(serverEnv) });
    server = started;
    const work = mkdtempSync(path.join(os.tmpdir(), 'agc-conformant-'));
    [run, beside] = await Promise.all(['one', 'beside'].map((name) => runAgc(['run', '--report-dir', path.join(work, name)], kitEnv(started, serverEnv))));
  });
  test.afterAll(async () => server?.close());

  test('two runs against one target at the same time each reach the right verdict, each with its own run id', () => {
    for (const each of [run, beside]) {
      expect(each.status, each.stdout.slice(-2000)).toBe(0);
      expect(expectReportFiles(each).verdict).toBe('conformant');
    }
    expect(readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json')).runId).not.toBe(
      readJson<ConformanceSummary>(path.join(beside.reportDir, 'conformance.json')).runId,
    );
  });

  test('a run writes conformance.json, index.html, junit.xml and badge.svg; against the reference server the verdict is conformant', () => {
    expect(run.status, run.stdout.slice(-3000)).toBe(0);
    const summary = expectReportFiles(run);
    expect(summary.verdict).toBe('conformant');
    expect(summary.target.baseURL).toBe(server!.url);
    expect(summary.target.service).toBe('media_assets');
    expect(summary.visibility.samples).toBeGreaterThan(0);
    expect(summary.requirements.filter((r) => r.level === 'MUST').every((r) => r.status === 'passed')).toBe(true);
    expect(run.stdout).toContain('Verdict: conformant');
    const junit = readFileSync(path.join(run.reportDir, 'junit.xml'), 'utf8');
    expect((junit.match(/<testcase /g) ?? []).length).toBe(summary.requirements.length);
  });

  test('a conformant run writes a valid exchanges.har with no entries, and a summary.md that says conformant', () => {
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
  });
});

/** A previous run in which LIST-03 passed and PAGE-06 failed, under another profile file: the page must say what changed. */
function baselineFile(dir: string): string {
  const requirements = loadCatalogue().requirements.map((r) => ({
    id: r.id,
    status: r.level === 'NOT-ASSESSED' ? 'not-assessed' : r.id === 'PAGE-06' ? 'failed' : 'passed',
  }));
  const file = path.join(dir, 'baseline-conformance.json');
  writeFileSync(
    file,
    JSON.stringify({
      verdict: 'non-conformant',
      startedAt: '2026-01-01T03:17:00.000Z',
      kit: { version: '0.1.0', specHash: '0'.repeat(64) },
      profile: { name: 'reference', path: null },
      requirements,
    }),
  );
  return file;
}

/**
 * One run against a failing target (leakyTarget), with a baseline and a job summary file as a CI job has them, judged by the
 * tests of its group: what the run writes, the shards that must agree with it, its page in a browser, its HAR and summary.md.
 */
test.describe('a failing run', () => {
  test.describe.configure({ mode: 'default' });
  const serverEnv = distinctiveTokens('leak');
  let work: string;
  let stepSummary: string;
  let server: ReferenceServer | undefined;
  let run: KitRun;
  test.beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'agc-failing-'));
    stepSummary = path.join(work, 'step_summary.md');
    const started = await startReferenceServer({ ...REFERENCE_DEFAULTS, users: referenceUsers(serverEnv), hooks: leakyTarget });
    server = started;
    run = await runPlaywright(['test'], { ...kitEnv(started, serverEnv), AG_BASELINE: baselineFile(work), GITHUB_STEP_SUMMARY: stepSummary });
  });
  test.afterAll(async () => server?.close());

  test('a failing target gives non-conformant with evidence, and no file the run writes contains a token', () => {
    expect(run.status).not.toBe(0);
    const summary = expectReportFiles(run);
    expect(summary.verdict).toBe('non-conformant');
    expect(statuses(summary)['LIST-03']).toBe('failed');
    expect(statuses(summary)['ERR-02'], "the wrong kind is ERR-02's finding, wherever it is noticed").toBe('failed');
    expect(statuses(summary)['AUTH-03']).toBe('blocked');
    const evidence = summary.requirements.find((r) => r.id === 'LIST-03')!.tests.flatMap((t) => t.failures);
    expect(evidence[0]?.exchange, 'the failure carries its exchange').toBeTruthy();
    // The target echoed `Basic <token>` back; the kit must have blotted it out of its evidence.
    const written = [...filesBelow(run.reportDir), ...filesBelow(run.outputDir), stepSummary];
    expect(written.length).toBeGreaterThan(3);
    const leaks: string[] = [];
    for (const file of written) {
      const text = readFileSync(file).toString('latin1');
      for (const token of Object.values(serverEnv)) if (text.includes(token)) leaks.push(`${path.relative(run.reportDir, file)} contains ${token}`);
    }
    for (const token of Object.values(serverEnv)) if (run.stdout.includes(token) || run.stderr.includes(token)) leaks.push(`console output contains ${token}`);
    expect(leaks).toEqual([]);
    expect(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8')).toContain('<redacted token>');
  });

  test("two shards merged give the same verdict and requirement statuses as one run, with the workflow's commands", async () => {
    // As the example workflow runs them (tests/cli.test.ts checks its steps): `agc run --shard i/2 --blob-dir` in two
    // jobs at the same time, every blob downloaded into one folder, then `agc merge`, whose exit status is the verdict's.
    const env = kitEnv(server!, serverEnv);
    const blobDir = path.join(work, 'blob');
    const shards = await Promise.all(
      [1, 2].map((i) => runAgc(['run', '--shard', `${i}/2`, '--blob-dir', `${blobDir}-${i}`, '--report-dir', path.join(work, `shard-${i}`)], env)),
    );
    mkdirSync(blobDir);
    for (const [i, shard] of shards.entries()) {
      expect(shard.status, `a shard alone exits 0: its verdict is decided at the merge\n${shard.stderr}`).toBe(0);
      expect(shard.stderr).not.toContain('Error:');
      for (const file of readdirSync(`${blobDir}-${i + 1}`)) copyFileSync(path.join(`${blobDir}-${i + 1}`, file), path.join(blobDir, file));
    }
    expect(readdirSync(blobDir).length, 'one blob per shard').toBe(2);
    const merged = await runAgc(['merge', blobDir, '--report-dir', path.join(work, 'merged')], {});
    expect(merged.status, 'the merge exits with the verdict: non-conformant').toBe(1);
    // The one run is the group's: its baseline says what changed, and changes no status.
    const one = expectReportFiles(run);
    const both = expectReportFiles(merged);
    expect(one.verdict).toBe('non-conformant');
    expect(statuses(one)['LIST-03']).toBe('failed');
    expect(both.verdict).toBe(one.verdict);
    expect(statuses(both)).toEqual(statuses(one));
  });

  test('index.html of a failing run opens with its failures and what changed since the baseline, in a real browser, with no colour codes and no console errors', async ({}, testInfo) => {
    // In CI the browser is part of the contract (.ci/run installs it); elsewhere its absence is a reason to skip.
    test.skip(!chromiumInstalled() && !process.env.CI, `${CHROMIUM} is not installed (.ci/run installs Debian's chromium)`);
    const summary = expectReportFiles(run);
    expect(summary.baseline?.newlyFailing).toEqual(expect.arrayContaining(['LIST-03', 'ERR-02']));
    expect(readFileSync(path.join(run.reportDir, 'index.html'), 'utf8')).not.toMatch(/\u001b|\[\d+m/);
    expect(run.stdout).toContain('Since the baseline of 2026-01-01T03:17:00.000Z: newly failing: ');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('request', (request) => !request.url().startsWith('file:') && problems.push(`network request to ${request.url()}`));
      await page.goto(`file://${path.join(run.reportDir, 'index.html')}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not conformant');
      // What changed, then the failed MUSTs, in that order, before anything else.
      const headings = await page.locator('main > section > h2, main > div > h2, main > .since').allInnerTexts();
      expect(headings[0]).toMatch(/^Since the run of 2026-01-01T03:17:00.000Z/);
      expect(headings[1]).toMatch(/^Failed MUSTs \(\d+\)$/);
      await expect(page.locator('#since-baseline')).toContainText('Newly failing: ');
      await expect(page.locator('#since-baseline')).toContainText('Fixed: PAGE-06');
      await expect(page.locator('#since-baseline')).toContainText('The spec changed in between');
      const failure = page.locator('.failure').first();
      await expect(failure).toBeVisible();
      await expect(failure).toContainText('Received');
      await expect(failure).toContainText('How to fix');
      await expect(failure.locator('pre').first()).toContainText('POST');
      await expect(page.locator('.card').first()).toContainText('The spec says');
      // The first failure starts on the first screen: nobody scrolls past the passes to find it.
      const top = (await page.locator('.card').first().boundingBox())!.y;
      expect(top).toBeLessThan(900);
      expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/\u001b|\[\d+m/);
      await page.screenshot({ path: testInfo.outputPath('report-desktop.png'), fullPage: false });
      // Keyboard: the first Tab reaches the skip link, and it leads to the failures.
      await page.keyboard.press('Tab');
      await expect(page.locator('a.skip')).toBeFocused();
      await expect(page.locator('a.skip')).toHaveAttribute('href', '#failed-musts');
      // Phone width: nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await page.screenshot({ path: testInfo.outputPath('report-phone.png') });
      // The badge renders on its own, as a README would show it.
      await page.setViewportSize({ width: 520, height: 40 });
      await page.goto(`file://${path.join(run.reportDir, 'badge.svg')}`);
      await page.screenshot({ path: testInfo.outputPath('badge.png') });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test('a failing run writes a valid exchanges.har with the failure exchanges, and summary.md with its failed MUST, appended to GITHUB_STEP_SUMMARY', () => {
    expect(run.status, run.stdout.slice(-3000)).toBe(1);
    const summary = readJson<ConformanceSummary>(path.join(run.reportDir, 'conformance.json'));
    expect(summary.verdict).toBe('non-conformant');
    const har = expectValidHar(path.join(run.reportDir, 'exchanges.har'));
    const list = har.log.entries.filter((e) => e._evidenceOf.some((x) => x.requirement === 'LIST-03'));
    expect(list.length, 'the LIST-03 failure carries its exchanges').toBeGreaterThan(0);
    expect(list[0].request.url.startsWith(server!.url)).toBe(true);
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
});
