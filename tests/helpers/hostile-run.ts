/**
 * How tests/hostile.test.ts runs the kit against a hostile target and reads what it wrote: the run,
 * its memory, an independent search for a token in every encoding, and the expectations every attack shares.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect } from '@playwright/test';
import { SaxesParser } from 'saxes';
import { cleanEnv, filesBelow, ROOT } from './harness';
import { startHostileTarget, type HostileMode, type HostileTarget } from './hostile-target';
import { loadCatalogue } from '../../schemas/requirements';

/** Each run's folder (reports, console.txt): kept while a test fails, for a look, removed once it passes (tests/hostile.test.ts). */
export const workDirs: string[] = [];

export const AGC = path.join(ROOT, 'bin', 'agc.mjs');
export const KIT_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
export const MiB = 1024 * 1024;
export const assessed = loadCatalogue()
  .requirements.filter((r) => r.level !== 'NOT-ASSESSED')
  .map((r) => r.id);

export interface HostileRun {
  status: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  runId: string;
  durationMs: number;
  /** Peak of the summed resident memory of agc, Playwright and its workers, sampled every 250 ms. */
  maxTreeRssMb: number;
}

/** Resident memory of a process and all its descendants, in bytes, from /proc. */
export function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // One read per process, every 250 ms: status holds both the parent and the resident memory (in kB).
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
      const kb = /^VmRSS:\s+(\d+)/m.exec(status);
      rss.set(Number(name), kb ? Number(kb[1]) * 1024 : 0);
    } catch {
      // The process ended while being read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** `agc run` against the target, one worker, with its own report folder and run id; bounded by SIGINT. */
export async function runKit(
  target: HostileTarget,
  label: string,
  extra: { env?: Record<string, string>; args?: string[]; timeoutMs?: number } = {},
): Promise<HostileRun> {
  const work = mkdtempSync(path.join(os.tmpdir(), `agc-hostile-${label}-`));
  workDirs.push(work);
  const reportDir = path.join(work, 'report');
  const runId = `h${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.slice(0, 16);
  const env = {
    ...cleanEnv(),
    ...target.tokenEnv,
    AG_BASE_URL: target.url,
    AG_REPORT_DIR: reportDir,
    AG_RUN_ID: runId,
    AG_VISIBILITY_TIMEOUT_MS: '3000',
    AG_REQUEST_TIMEOUT_MS: '5000',
    AG_NUM_RUNS: '5',
    AG_SEED: '7',
    CI: '1',
    // Playwright's own colours off, so that any escape on the console would be the target's.
    FORCE_COLOR: '0',
    NO_COLOR: '1',
    ...extra.env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [AGC, 'run', '--workers', '1', ...(extra.args ?? [])], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, treeRss(child.pid!))), 250);
  const timer = setTimeout(() => {
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  }, extra.timeoutMs ?? 240_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  clearTimeout(timer);
  writeFileSync(path.join(work, 'console.txt'), `${stdout}\n----- stderr\n${stderr}`);
  return { status, stdout, stderr, reportDir, runId, durationMs: Date.now() - started, maxTreeRssMb: Math.round(maxRss / MiB) };
}

// ---------------------------------------------------------------- looking for a token, independently of client/redact.ts

/** The forms the hostile target writes a secret in. (JSON inside JSON doubles backslashes: the search collapses them first.) */
export function formsOf(secret: string): string[] {
  const unicode = (upper: boolean, alternate: boolean) =>
    [...secret]
      .map((c, i) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[(alternate ? i % 2 === 1 : upper) ? 'toUpperCase' : 'toLowerCase']()}`)
      .join('');
  const base64: string[] = [];
  for (const pad of ['', 'a', 'ab']) {
    const encoded = Buffer.from(pad + secret).toString('base64');
    const stable = encoded.slice(Math.ceil((pad.length * 8) / 6), Math.floor((pad.length + secret.length) / 3) * 4);
    base64.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  const forms = [
    secret,
    secret.toLowerCase(),
    secret.replace(/\//g, '\\/'),
    unicode(false, false),
    unicode(true, false),
    unicode(false, true),
    encodeURIComponent(secret),
    encodeURIComponent(secret).toLowerCase(),
    ...base64,
  ];
  return [...new Set(forms)];
}

export function findSecrets(texts: { name: string; text: string }[], secrets: string[]): string[] {
  const hits: string[] = [];
  const collapsed = texts.map(({ name, text }) => ({ name, text: text.replace(/\\+/g, '\\') }));
  for (const secret of secrets)
    for (const form of formsOf(secret)) for (const { name, text } of collapsed) if (text.includes(form)) hits.push(`${name}: ${form}`);
  return hits;
}

export const filesOf = (dir: string) => (existsSync(dir) ? filesBelow(dir).map((file) => ({ name: file, text: readFileSync(file, 'latin1') })) : []);

/** The search finds each form: planted in a file among noise, one form a file. */
export function expectSearchFinds(secret: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-plant-'));
  try {
    formsOf(secret).forEach((form, i) =>
      writeFileSync(path.join(dir, `planted-${i}.txt`), `noise ${'x'.repeat(i)} ${JSON.stringify({ planted: form })} noise`),
    );
    const hits = findSecrets(filesOf(dir), [secret]);
    for (let i = 0; i < formsOf(secret).length; i++)
      expect(
        hits.some((h) => h.includes(`planted-${i}.txt`)),
        `planted form ${i} found`,
      ).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function summaryOf(run: HostileRun): { verdict: string; requirements: { id: string; status: string }[] } {
  return JSON.parse(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'));
}

export const statusOf = (run: HostileRun, id: string) => summaryOf(run).requirements.find((r) => r.id === id)?.status;

/** Every assessed requirement has a result in the report, and no file of it is over 64 MiB. */
export function expectWholeAndBounded(run: HostileRun): Record<string, number> {
  const ids = new Set(
    summaryOf(run)
      .requirements.filter((r) => r.status !== 'not-assessed')
      .map((r) => r.id),
  );
  expect(
    assessed.filter((id) => !ids.has(id)),
    `requirements missing from conformance.json\n${run.stderr.slice(-2000)}`,
  ).toEqual([]);
  const sizes: Record<string, number> = {};
  for (const file of filesBelow(run.reportDir)) {
    sizes[path.relative(run.reportDir, file)] = statSync(file).size;
    expect(statSync(file).size, `${file} size`).toBeLessThan(64 * MiB);
  }
  return sizes;
}

/** No console line a CI runner would read as a command, and no terminal escape. */
export function expectInertConsole(text: string): void {
  const lines = text.split(/\r?\n|\r/);
  expect(
    lines.filter((l) => /^\s*(::|##)/.test(l) || l.includes('##vso[')),
    'console lines that are workflow commands',
  ).toEqual([]);
  expect(text.includes('\u001b'), 'an ESC on the console').toBe(false);
}

export function expectValidJunit(run: HostileRun): void {
  expectWellFormedXml(path.join(run.reportDir, 'junit.xml'));
}

/**
 * XML 1.0 well-formedness, as `xmllint --noout` checks it (a control character, an undefined entity,
 * a stray `]]>` or `<` all fail), without a system tool: saxes is the strict parser jsdom uses.
 */
export function expectWellFormedXml(file: string): void {
  const errors: string[] = [];
  const parser = new SaxesParser();
  parser.on('error', (error) => errors.push(error.message));
  try {
    parser.write(readFileSync(file, 'utf8')).close();
  } catch (error) {
    errors.push((error as Error).message);
  }
  expect(errors.slice(0, 3), `${path.basename(file)} is well-formed XML`).toEqual([]);
}

/** Opens index.html in Debian's chromium with every request routed: the page must fetch nothing. */
export async function fetchesOf(file: string): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const fetched: string[] = [];
    const own = `file://${file}`;
    await page.route('**/*', (route) => {
      if (route.request().url() === own) return route.continue();
      fetched.push(route.request().url());
      return route.abort();
    });
    await page.goto(own);
    await page.waitForLoadState('load');
    await page.close();
    return fetched;
  } finally {
    await browser.close();
  }
}

export const figures = (label: string, run: HostileRun, sizes: Record<string, number>) =>
  console.log(
    `${label}: exit ${run.status}, ${(run.durationMs / 1000).toFixed(1)} s, peak RSS of the process tree ${run.maxTreeRssMb} MiB, files: ${Object.entries(sizes)
      .filter(([name]) => !name.includes('test-output'))
      .map(([name, size]) => `${name} ${(size / 1024).toFixed(0)} KiB`)
      .join(', ')}`,
  );

export async function withTarget<T>(mode: HostileMode, body: (target: HostileTarget) => Promise<T>): Promise<T> {
  const target = await startHostileTarget(mode);
  try {
    return await body(target);
  } finally {
    await target.close();
  }
}
