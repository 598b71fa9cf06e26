import { CHROMIUM, chromiumInstalled, launchChromium } from '../scripts/chromium';
import { test, expect, REFERENCE_DEFAULTS } from './helpers/fixtures';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceServer, type ReferenceServer } from '../reference/server';
import { findMutant } from '../reference/mutants';
import { PROFILE_VARIANTS } from '../reference/profile-variants';
import { referenceUsers, TOKEN_ROLES } from '../reference/config';
import { profileFromOverride } from '../schemas/profile';
import { validateReport } from '../schemas';
import { filesBelow, readJson, runAgc, type KitRun } from './helpers/harness';
import { sha256 } from '../certify/certificate';
import { displayUrl, type Comparison } from '../compare/model';
import { renderComparePage } from '../compare/html';
import { EXIT, EXIT_LINES } from '../common/exit-codes.mjs';

/**
 * `agc compare` on three real runs, made by the command itself from a targets file: the reference server, a mutant that
 * fails a MUST (createIdOutsideResult: ENV-06 fails, and the thirty requirements that need a created group are blocked),
 * and a profile variant run with its own profile (shortFilterNames: conformant, other filter names). Three kit runs in
 * all; everything else reads their files.
 */
test.describe('agc compare on a conformant run, a non-conformant one and one with another profile', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(180_000);

  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-compare-'));
  const out = path.join(work, 'compare');
  // Distinctive tokens, so that a trace of one anywhere is unmistakable; the targets file names their variables only.
  const serverEnv = Object.fromEntries(TOKEN_ROLES.map((r) => [r.serverEnv, `SECRET-cmp-${r.role}-${Math.random().toString(36).slice(2, 12)}`]));
  const tokenVars = Object.fromEntries(TOKEN_ROLES.map((r) => [`CMP_${r.clientEnv}`, serverEnv[r.serverEnv]]));
  const variant = PROFILE_VARIANTS.find((v) => v.name === 'shortFilterNames')!;
  const servers: ReferenceServer[] = [];
  let run: KitRun;
  let comparison: Comparison;

  test.beforeAll(async () => {
    const users = referenceUsers(serverEnv);
    servers.push(
      await startReferenceServer({ ...REFERENCE_DEFAULTS, users }),
      await startReferenceServer({ ...REFERENCE_DEFAULTS, users, hooks: findMutant('createIdOutsideResult')!.hooks }),
      await startReferenceServer({ ...REFERENCE_DEFAULTS, users, profile: profileFromOverride(variant.profile, variant.name), hooks: variant.hooks }),
    );
    writeFileSync(path.join(work, 'short-names.yaml'), JSON.stringify(variant.profile));
    const tokens = `{ ${TOKEN_ROLES.map((r) => `${r.clientEnv}: CMP_${r.clientEnv}`).join(', ')} }`;
    writeFileSync(
      path.join(work, 'targets.yaml'),
      `targets:
  - { name: reference, baseUrl: '${servers[0].url}', tokens: ${tokens} }
  - { name: mutant, baseUrl: '${servers[1].url}', tokens: ${tokens} }
  - { name: variant, baseUrl: '${servers[2].url}', profile: short-names.yaml, tokens: ${tokens} }
`,
    );
    run = await runAgc(
      ['compare', '--targets', path.join(work, 'targets.yaml'), '--out', out, '--workers', '1'],
      { ...tokenVars, AG_VISIBILITY_TIMEOUT_MS: '5000', AG_NUM_RUNS: '5' },
      { timeoutMs: 170_000 },
    );
    comparison = readJson<Comparison>(path.join(out, 'compare.json'));
  });
  test.afterAll(async () => Promise.all(servers.map((s) => s.close())));

  const row = (c: Comparison, id: string) => c.rows.find((r) => r.id === id)!;
  const labels = (c: Comparison, id: string) => row(c, id).cells.map((cell) => cell.label);

  test('compare.json: a column per implementation with its verdict, the rows that differ first, each status as its report has it', () => {
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(EXIT.ok);
    expect(comparison.implementations.map((i) => [i.name, i.verdict, i.profile.name])).toEqual([
      ['reference', 'conformant', 'reference'],
      ['mutant', 'non-conformant', 'reference'],
      ['variant', 'conformant', 'shortFilterNames'],
    ]);
    const differs = comparison.rows.map((r) => r.differs);
    expect(comparison.differing).toBeGreaterThan(10);
    expect(differs.indexOf(false), 'every differing row comes before every agreeing one').toBe(comparison.differing);
    expect(differs.lastIndexOf(true)).toBe(comparison.differing - 1);
    expect(comparison.rows[0].id).toBe('ENV-06');
    expect(labels(comparison, 'ENV-06')).toEqual(['passed', 'failed', 'passed']);
    expect(labels(comparison, 'CREATE-01')).toEqual(['passed', 'blocked', 'passed']);
    expect(labels(comparison, 'ENV-01')).toEqual(['passed', 'passed', 'passed']);
    expect(row(comparison, 'ENV-01').differs).toBe(false);
    // Each status against the report it came from.
    comparison.implementations.forEach((impl, i) => {
      const report = readJson(path.join(out, 'runs', impl.name, 'conformance.json'));
      expect(validateReport(report).errors).toEqual([]);
      for (const r of report.requirements as { id: string; status: string }[])
        expect(row(comparison, r.id).cells[i].status, `${impl.name} ${r.id}`).toBe(r.status);
    });
    expect(row(comparison, 'ENV-06').cells[1].href).toBe('runs/mutant/index.html#ENV-06');
    expect(comparison.implementations.map((i) => i.counts.failed)).toEqual([0, 1, 0]);
  });

  test('portability notes: the settings on which the conformant implementations chose differently, side by side', () => {
    const variantReport = readJson(path.join(out, 'runs', 'variant', 'conformance.json'));
    expect(variantReport.profile.settings.list.filters).toEqual({ groupIds: 'Id', assetSpaceId: 'SpaceId', groupType: 'Type', name: 'Keyword' });
    expect(comparison.portability.among).toEqual(['reference', 'variant']);
    expect(comparison.portability.notes.map((n) => [n.setting, n.values])).toEqual([
      ['list.filters.assetSpaceId', ['AssetSpaceId', 'AssetSpaceId', 'SpaceId']],
      ['list.filters.groupIds', ['GroupIds', 'GroupIds', 'Id']],
      ['list.filters.groupType', ['GroupType', 'GroupType', 'Type']],
      ['list.filters.name', ['Name', 'Name', 'Keyword']],
    ]);
    expect(comparison.portability.notes[2].readBy).toContain('LIST-03');
  });

  test('a badge per implementation, and no token in any file written or on the console', () => {
    for (const impl of comparison.implementations) {
      const svg = readFileSync(path.join(out, impl.badge), 'utf8');
      expect(svg).toContain(`${impl.verdict} · kit`);
    }
    const leaks: string[] = [];
    for (const file of filesBelow(out)) {
      const text = readFileSync(file).toString('latin1');
      for (const token of Object.values(serverEnv)) if (text.includes(token)) leaks.push(`${path.relative(out, file)} contains ${token}`);
    }
    for (const token of Object.values(serverEnv)) if (`${run.stdout}${run.stderr}`.includes(token)) leaks.push('the console');
    expect(leaks).toEqual([]);
    expect(readFileSync(path.join(work, 'targets.yaml'), 'utf8')).not.toContain('SECRET-');
  });

  test("from a CI matrix's downloaded artifacts: found in one folder, named by base URL, evidence in place where no page is beside", async () => {
    const artifacts = path.join(work, 'artifacts');
    for (const name of ['reference', 'mutant', 'variant'])
      cpSync(path.join(out, 'runs', name), path.join(artifacts, `conformance-${name}`), { recursive: true });
    rmSync(path.join(artifacts, 'conformance-mutant', 'index.html'));
    const again = await runAgc(
      ['compare', artifacts, '--out', path.join(work, 'offline'), '--name', `${path.join(artifacts, 'conformance-variant')}=Short names`],
      {},
    );
    expect(again.status, again.stderr).toBe(EXIT.ok);
    const c = readJson<Comparison>(path.join(work, 'offline', 'compare.json'));
    // Folder order: conformance-mutant, conformance-reference, conformance-variant.
    expect(c.implementations.map((i) => i.name)).toEqual([displayUrl(servers[1].url), displayUrl(servers[0].url), 'Short names']);
    expect(c.differing).toBe(comparison.differing);
    const env06 = row(c, 'ENV-06').cells[0];
    expect(env06).toMatchObject({ status: 'failed', href: null });
    expect(env06.evidence).toMatch(/^check: resultPresent\nreceived: /);
    expect(readFileSync(path.join(work, 'offline', 'compare.html'), 'utf8')).toContain('<pre aria-label="evidence of ENV-06 for http://127.0.0.1:');
  });

  test('compare.html in chromium: nothing fetched, the differences first, the notes, a screenshot', async ({}, testInfo) => {
    test.skip(!chromiumInstalled() && !process.env.CI, `${CHROMIUM} is not installed`);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const requests: string[] = [];
      const problems: string[] = [];
      // Anything but the file itself is recorded and refused, so a fetch would show here and never leave the machine.
      page.on('request', (request) => requests.push(request.url()));
      await page.route(/^(?!file:)/, (route) => route.abort());
      page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      const file = `file://${path.join(out, 'compare.html')}`;
      await page.goto(file);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('3 implementations compared');
      const differ = page.locator('table.matrix').first();
      await expect(differ.locator('thead th')).toHaveText(['Requirement', 'reference', 'mutant', 'variant']);
      await expect(differ.locator('tbody tr').first().locator('th')).toContainText('ENV-06');
      await expect(differ.locator('tbody tr').first().locator('td')).toHaveText(['passed', 'failed', 'passed']);
      await expect(differ.locator('tbody tr').first().locator('td').nth(1).locator('a')).toHaveAttribute('href', 'runs/mutant/index.html#ENV-06');
      await expect(page.locator('table.notes tbody tr')).toHaveCount(4);
      await expect(page.locator('table.notes')).toContainText('Keyword');
      await expect(page.locator('table.impls')).toContainText('non-conformant');
      const headings = await page.locator('main h2').allInnerTexts();
      expect(headings.slice(0, 4)).toEqual([
        'Implementations',
        `Where they differ (${comparison.differing})`,
        'Portability notes',
        expect.stringMatching(/^Where they agree/),
      ]);
      await page.screenshot({ path: testInfo.outputPath('compare.png') });
      await page.locator('#portability').scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath('compare-portability.png') });
      // Phone width: the tables scroll in their own boxes, the page itself is no wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
      await page.screenshot({ path: testInfo.outputPath('compare-phone.png') });
      expect(requests, 'the page fetched nothing but itself').toEqual([file]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("a certificate is one column: its runs' statuses, the worst where they differ; a changed report is refused", async () => {
    // A certificate whose two runs disagree (the reference's report and the mutant's), as agc certify lays them out.
    const cert = path.join(work, 'cert');
    const runs = ['reference', 'mutant'].map((name, i) => {
      cpSync(path.join(out, 'runs', name), path.join(cert, `run-${i + 1}`), { recursive: true });
      const report = `run-${i + 1}/conformance.json`;
      return { run: i + 1, report, reportSha256: sha256(readFileSync(path.join(cert, report))), html: `run-${i + 1}/index.html` };
    });
    const certificate = {
      format: 'agc-certificate/1',
      verdict: 'non-conformant',
      kit: { name: 'k', version: '9.9.9' },
      issuedAt: '2026-01-02T00:00:00.000Z',
      runs,
    };
    writeFileSync(path.join(cert, 'certificate.json'), JSON.stringify(certificate));
    const done = await runAgc(['compare', cert, path.join(out, 'runs', 'variant'), '--out', path.join(work, 'with-cert')], {});
    expect(done.status, done.stderr).toBe(EXIT.ok);
    const c = readJson<Comparison>(path.join(work, 'with-cert', 'compare.json'));
    expect(c.implementations.map((i) => [i.kind, i.runs, i.verdict])).toEqual([
      ['certificate', 2, 'non-conformant'],
      ['report', 1, 'conformant'],
    ]);
    expect(row(c, 'ENV-06').cells[0]).toMatchObject({ status: 'failed', href: '../cert/run-2/index.html#ENV-06' });
    expect(row(c, 'ENV-06').cells[0].reason).toMatch(/^the runs differ \(run 1 passed, run 2 failed\)/);
    // One byte of a certified report changed: the certificate no longer holds, and compare says so in one line.
    const report = path.join(cert, 'run-1', 'conformance.json');
    writeFileSync(report, readFileSync(report, 'utf8').replace('"conformant"', '"non-conformant"'));
    const refused = await runAgc(['compare', cert, path.join(out, 'runs', 'variant'), '--out', path.join(work, 'refused')], {});
    expect(refused.status).toBe(EXIT.error);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^agc compare: .*run-1\/conformance\.json does not match the sha256 the certificate gives/),
    ]);
  });
});

test('bad inputs are a usage error in one line, never a stack trace', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-compare-bad-'));
  writeFileSync(path.join(dir, 'not-json.json'), '{ nope');
  writeFileSync(path.join(dir, 'other.json'), '{"verdict":"great","requirements":[]}');
  mkdirSync(path.join(dir, 'empty'));
  writeFileSync(path.join(dir, 'unset.yaml'), 'targets:\n  - { name: a, baseUrl: "http://127.0.0.1:9/", tokens: { AG_TOKEN: CMP_UNSET_VARIABLE } }\n');
  writeFileSync(path.join(dir, 'literal.yaml'), 'targets:\n  - { name: a, baseUrl: "http://127.0.0.1:9/", tokens: { AG_TOKEN: "Bearer abc.def" } }\n');
  const cases: [string[], RegExp][] = [
    [[], /needs reports, certificates or folders/],
    [[path.join(dir, 'not-json.json'), path.join(dir, 'other.json')], /not-json\.json: not JSON/],
    [[path.join(dir, 'other.json'), path.join(dir, 'other.json')], /other\.json: not a conformance\.json/],
    [[path.join(dir, 'empty')], /empty: no conformance\.json or certificate below it/],
    [[path.join(dir, 'missing')], /missing: no such file or folder/],
    [['--name', 'x', dir], /--name takes PATH=NAME/],
    // Before any run: a targets file names variables, never tokens, and each must be set.
    [['--targets', path.join(dir, 'unset.yaml')], /target a: CMP_UNSET_VARIABLE \(its AG_TOKEN\) is not set/],
    [['--targets', path.join(dir, 'literal.yaml')], /tokens\.AG_TOKEN must be the name of a variable, not a token/],
  ];
  const results = await Promise.all(cases.map(([args]) => runAgc(['compare', ...args, '--out', path.join(dir, 'out')], {})));
  results.forEach((result, i) => {
    expect(result.status, cases[i][1].source).toBe(EXIT.error);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^agc compare: /);
    expect(lines[0]).toMatch(cases[i][1]);
  });
  expect(readdirSync(dir)).not.toContain('out');
  const help = await runAgc(['compare', '--help'], {});
  expect(help.status).toBe(EXIT.ok);
  for (const [code, meaning] of EXIT_LINES) expect(help.stdout).toContain(`  ${code}  ${meaning}`);
});

test('names and pages from untrusted reports: credentials never shown, text escaped, only the comparison’s own links are links', () => {
  expect(displayUrl('https://user:SECRET@api.example.com:8443/v1/?token=SECRET#x')).toBe('https://api.example.com:8443/v1');
  expect(displayUrl('not a url SECRET')).toBe('(a base URL that does not parse)');
  const hostile = '<img src=x onerror=alert(1)>';
  const cell = (href: string | null) => ({ status: 'failed' as const, label: 'failed', reason: hostile, href, evidence: `received: ${hostile}` });
  const counts = { failed: 1, waived: 0, blocked: 0, skipped: 0, absent: 0, passed: 0, 'not-assessed': 0 };
  const facts = { kind: 'report' as const, source: hostile, verdict: 'non-conformant' as const, firstReason: hostile, kitVersion: hostile, specHash: 'f' };
  const more = { key: 'k', date: '', runs: 1, badge: 'badge-k.svg', counts, target: { baseURL: null, embedded: false, service: hostile } };
  const impl = (name: string) => ({ ...facts, ...more, name, profile: { name: hostile, path: null, settings: 'unknown' as const } });
  const html = renderComparePage({
    format: 'agc-compare/1',
    generatedAt: '2026-01-01T00:00:00.000Z',
    implementations: [impl(hostile), impl('b')],
    differing: 1,
    rows: [
      { id: 'ENV-01', family: 'ENV', level: 'MUST', title: hostile, differs: true, cells: [cell('javascript:alert(1)#ENV-01'), cell('r/index.html#ENV-01')] },
    ],
    portability: { among: [], notes: [], unknown: [hostile] },
    warnings: [hostile],
  });
  expect(html).not.toContain('<img');
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(html).not.toContain('javascript:');
  expect(html).toContain('<a href="r/index.html#ENV-01"');
  expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  expect(html).not.toMatch(/<script|<link|<iframe|src="http/);
});
