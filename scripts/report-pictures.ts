/**
 * Makes the report's pictures of the README and docs/reports.md from real runs: `agc run` against the
 * embedded reference server (conformant) and against a mutant of it (one MUST broken, so a failure shows),
 * each report's index.html opened in Debian's chromium, a first screen of each written as PNG to
 * docs/images/, with the hash of the report's template beside them (docs/images/pictures.json), which
 * tests/docs.test.ts compares with the template of the day.
 *
 *   npx tsx scripts/report-pictures.ts
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, chromiumInstalled, launchChromium } from './chromium';
import { findMutant } from '../reference/mutants';
import { referenceTokenEnv } from '../reference/config';
import { startReferenceServer } from '../reference/server';
import { PICTURES_DIR, PICTURES_RECORD, templateHash, TEMPLATE_FILES, VIEWPORT, type PicturesRecord } from './report-template';

const ROOT = path.resolve(__dirname, '..');
/** A mutant whose one failure reads at a glance: a request without Authorization answered 400, not 401. */
const MUTANT = 'missingAuthorizationIs400';

interface Shot {
  file: string;
  shows: string;
  expectVerdict: string;
  baseURL?: string;
}

/** `agc run` as a user types it, in a child; the kit's variables from the developer's shell left out. */
function agcRun(reportDir: string, baseURL: string | undefined): Promise<number | null> {
  return agc(['run', '--report-dir', reportDir, '--seed', '1', ...(baseURL ? ['--base-url', baseURL] : [])], baseURL ? referenceTokenEnv() : {});
}

/** An agc command in a child, with the kit's variables from the developer's shell left out. */
function agc(command: string[], extraEnv: Record<string, string> = {}): Promise<number | null> {
  const env: NodeJS.ProcessEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AG_'))), ...extraEnv };
  const args = [path.join(ROOT, 'bin', 'agc.mjs'), ...command];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGINT'), 180_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** The first screen of a page in chromium; any request that is not the file itself is an error. */
async function photograph(page: string, out: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
    const problems: string[] = [];
    tab.on('request', (request) => !request.url().startsWith('file:') && problems.push(`network request to ${request.url()}`));
    tab.on('pageerror', (error) => problems.push(error.message));
    await tab.goto(`file://${page}`);
    await tab.screenshot({ path: out, fullPage: false });
    if (problems.length) throw new Error(`${page}: ${problems.join('; ')}`);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  if (!chromiumInstalled()) throw new Error(`${CHROMIUM} is not installed (apt-get install -y chromium)`);
  // A .env beside the kit would steer the runs (a profile, waivers, another target): the pictures must show the kit alone.
  if (existsSync(path.join(ROOT, '.env'))) throw new Error('a .env is beside the kit: move it away while the pictures are made');
  const mutant = findMutant(MUTANT);
  if (!mutant) throw new Error(`no mutant named ${MUTANT}`);
  const server = await startReferenceServer({ hooks: mutant.hooks });
  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-pictures-'));
  const shots: Shot[] = [
    { file: 'report-conformant.png', shows: 'agc run against the embedded reference server', expectVerdict: 'conformant' },
    {
      file: 'report-failing.png',
      shows: `agc run against the reference server's mutant ${MUTANT} (${mutant.breaks}: ${mutant.description})`,
      expectVerdict: 'non-conformant',
      baseURL: server.url,
    },
  ];
  const record: PicturesRecord = { templateHash: templateHash(ROOT), templateFiles: [...TEMPLATE_FILES], madeAt: new Date().toISOString(), pictures: [] };
  try {
    mkdirSync(path.join(ROOT, PICTURES_DIR), { recursive: true });
    for (const shot of shots) {
      const reportDir = path.join(work, path.basename(shot.file, '.png'));
      const status = await agcRun(reportDir, shot.baseURL);
      const { verdict } = JSON.parse(readFileSync(path.join(reportDir, 'conformance.json'), 'utf8')) as { verdict: string };
      // A picture of the wrong verdict would mislead every reader of the docs.
      if (verdict !== shot.expectVerdict) throw new Error(`${shot.shows}: verdict ${verdict} (exit ${status}), expected ${shot.expectVerdict}`);
      await photograph(path.join(reportDir, 'index.html'), path.join(ROOT, PICTURES_DIR, shot.file));
      record.pictures.push({ file: shot.file, shows: shot.shows, verdict, ...VIEWPORT });
      process.stdout.write(`${PICTURES_DIR}/${shot.file}: ${shot.shows}, ${verdict}\n`);
    }
    // The two runs side by side, as a certifier compares implementations (docs/compare.md).
    const compared = path.join(work, 'compare');
    const status = await agc(['compare', ...shots.map((shot) => path.join(work, path.basename(shot.file, '.png'))), '--out', compared]);
    if (status !== 0) throw new Error(`agc compare exited ${status}`);
    await photograph(path.join(compared, 'compare.html'), path.join(ROOT, PICTURES_DIR, 'compare.png'));
    record.pictures.push({ file: 'compare.png', shows: 'agc compare of the two runs above', verdict: 'compare', ...VIEWPORT });
    process.stdout.write(`${PICTURES_DIR}/compare.png: agc compare of the two runs\n`);
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  writeFileSync(path.join(ROOT, PICTURES_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  process.stdout.write(`${PICTURES_RECORD}: template ${record.templateHash.slice(0, 12)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`report-pictures: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(3);
});
