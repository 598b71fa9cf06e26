// @ts-check
// The installed kit's copy: installed under some project's node_modules, the kit runs Playwright from a private copy of
// itself, kept per version and pruned, so that the project's own Playwright configuration is never in the way.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateDir } from '../common/private-dir.cjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Resolved as dependencies, not under ROOT/node_modules: installed into another project, the kit's
// dependencies sit beside it in that project's node_modules.
const require = createRequire(import.meta.url);
const TSX_DIR = path.dirname(require.resolve('tsx/package.json'));

/** @typedef {import('./options.mjs').Env} Env */

/**
 * Where Playwright runs the suites from: the kit itself, except when it is installed under some
 * project's node_modules. Playwright never compiles TypeScript below a node_modules folder, and the
 * suites are TypeScript; so an installed kit runs from a copy of itself (keptCopy), which finds the
 * kit's dependencies through NODE_PATH and its webServer's `node_modules/tsx` through a link.
 * @param {Env} env the child's environment; NODE_PATH is set in it for an installed kit
 * @returns {string}
 */
export function playwrightRoot(env) {
  if (!ROOT.split(path.sep).includes('node_modules')) return ROOT;
  env.NODE_PATH = [...(require.resolve.paths('@playwright/test') ?? []), env.NODE_PATH].filter(Boolean).join(path.delimiter);
  const kept = keptCopy();
  if (kept) return kept;
  // No folder of the user's own to keep it in: a copy for this run alone.
  const stage = mkdtempSync(path.join(os.tmpdir(), 'agc-kit-'));
  process.on('exit', () => rmSync(stage, { recursive: true, force: true }));
  copyKit(stage);
  return stage;
}

/** Copies of an installed kit kept at once: the one in use, and the last others used (another project's, an older version). */
const COPIES_KEPT = 3;

/**
 * The installed kit's copy, kept for the next run. Playwright keeps what it compiles by file path: from a new copy on
 * every run, each run compiled the kit again (an installed embedded run took 9.7 CPU-s every time; from a kept copy,
 * 10.4 the first time and 5.7 after). The copy lives in a folder of the user's own (agc-kit-<uid> in the system's
 * temporary folder, used only if it is a real folder, the user's, that no one else may read or write) and is named by
 * the kit's files (each one's path, size and time of change) and the tsx it links: a changed kit is a new copy. It is
 * made beside its place and renamed into it, so a run sees a whole copy or none. Undefined where there is no such folder.
 * @returns {string | undefined}
 */
function keptCopy() {
  const home = path.join(os.tmpdir(), `agc-kit-${process.geteuid?.() ?? 'user'}`);
  if (!privateDir(home)) return undefined;
  const copy = path.join(home, `kit-${kitFingerprint()}`);
  if (!existsSync(copy)) {
    const draft = mkdtempSync(`${copy}.draft-`);
    try {
      copyKit(draft);
      renameSync(draft, copy);
    } catch (error) {
      rmSync(draft, { recursive: true, force: true });
      // Another run, started at the same time, renamed its copy into place first: that one is as good.
      if (!existsSync(copy)) throw error;
    }
  }
  const now = new Date();
  utimesSync(copy, now, now);
  pruneCopies(home, copy);
  return copy;
}

/** @param {string} dest */
function copyKit(dest) {
  cpSync(ROOT, dest, { recursive: true });
  if (!existsSync(path.join(dest, 'node_modules', 'tsx'))) {
    mkdirSync(path.join(dest, 'node_modules'), { recursive: true });
    symlinkSync(TSX_DIR, path.join(dest, 'node_modules', 'tsx'), 'dir');
  }
}

/** @returns {string} a hash of the kit's files as they are (path, size, time of change) and of the tsx a copy links */
function kitFingerprint() {
  const hash = createHash('sha256').update(`${TSX_DIR}\n`);
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = lstatSync(full);
        hash.update(`${path.relative(ROOT, full)}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  walk(ROOT);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Removes the copies beyond the COPIES_KEPT last used, and drafts an hour old (a run that died copying); a draft
 * younger than that may be another run's, copying now.
 * @param {string} home
 * @param {string} inUse
 */
function pruneCopies(home, inUse) {
  try {
    const entries = readdirSync(home).map((name) => ({ full: path.join(home, name), name, mtimeMs: lstatSync(path.join(home, name)).mtimeMs }));
    const old = entries.filter((e) => e.name.includes('.draft-') && Date.now() - e.mtimeMs > 3_600_000);
    const copies = entries.filter((e) => !e.name.includes('.draft-') && e.full !== inUse).sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const e of [...old, ...copies.slice(COPIES_KEPT - 1)]) rmSync(e.full, { recursive: true, force: true });
  } catch {
    // Tidying is no reason to fail a run.
  }
}
