/**
 * The run's private temporary folder: `agc-run-<run id>` in the system temp folder, mode 700, its
 * files 600. It holds the run's dataset (no token: exchanges keep a description of the
 * Authorization header) and the fail-fast marker every worker reads. Global setup creates it and
 * its teardown removes it, unless AG_KEEP_TEMP=1 asks to keep it for debugging.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The system temp folder, read once: os.tmpdir() reads the environment on every call, and every request asks (liveness, shared reads). */
let tmp: string | undefined;
export const runDirOf = (runId: string): string => path.join((tmp ??= os.tmpdir()), `agc-run-${runId}`);

/**
 * Every file the run's processes hand each other, by name: the one list of what crosses from the runner to its workers
 * and back through the folder (besides Playwright's own attachments and the token broker's socket, client/token-broker.ts).
 */
export const RUN_FILES = {
  /** The create-and-wait phase's groups and answers, written once by the runner (suites/dataset.ts). */
  dataset: 'dataset.json',
  /** The phase is over, with its error if it failed: the workers wait for it before any test sends (suites/dataset.ts). */
  phaseDone: 'phase-done',
  /** The answers of reads sent once per run, shared by the workers (client/read-cache.ts): a folder. */
  reads: 'reads',
  /** The test that judges the phase's answers by the run-wide oracle, claimed once (suites/oracle-watch.ts). */
  oraclePhase: 'oracle-phase',
  /** The fail-fast marker: the target stopped answering (below). */
  targetGone: 'target-gone',
} as const;

/** The path of one of the run's files. */
export const runFile = (runId: string, name: keyof typeof RUN_FILES): string => path.join(runDirOf(runId), RUN_FILES[name]);

export const keepTemp = (env: NodeJS.ProcessEnv = process.env): boolean => env.AG_KEEP_TEMP === '1' || env.AG_KEEP_TEMP === 'true';

/**
 * The folder, created private if missing. One that exists must be a real folder of this user that
 * nobody else can read or write: a name in a shared temp folder can be taken over by another user.
 */
export function ensureRunDir(runId: string): string {
  const dir = runDirOf(runId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || stat.isSymbolicLink() || (uid !== undefined && stat.uid !== uid))
    throw new Error(`${dir} is not a folder of this user; remove it or choose another AG_RUN_ID`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

/** Writes a file of the run's folder, readable by this user only. */
export function writePrivate(file: string, text: string): void {
  ensureRunDir(path.basename(path.dirname(file)).replace(/^agc-run-/, ''));
  rmSync(file, { force: true });
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
}

/**
 * Writes a file of the run's folder (or a folder in it) readable by this user only, under a temporary
 * name renamed into place: a process that waits for the file never reads half of it. The folder must exist.
 */
export function publishPrivate(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
}

export function removeRunDir(runId: string): void {
  rmSync(runDirOf(runId), { recursive: true, force: true });
}

/** The fail-fast marker: one decision for the whole run, whichever worker made it. */
const deadMarker = (runId: string) => runFile(runId, 'targetGone');

export function markTargetGone(runId: string, reason: string): void {
  try {
    if (!existsSync(deadMarker(runId))) writePrivate(deadMarker(runId), reason);
  } catch {
    // Another worker wrote it first: its reason stands.
  }
}

/** A marker left by an earlier run with the same id (kept with AG_KEEP_TEMP) is not this run's decision. */
export function clearTargetGone(runId: string): void {
  rmSync(deadMarker(runId), { force: true });
}

export function targetGone(runId: string): string {
  // Asked before every request: a missing file is the common answer, and a failed read builds an Error with its stack.
  if (!existsSync(deadMarker(runId))) return '';
  try {
    return readFileSync(deadMarker(runId), 'utf8');
  } catch {
    return '';
  }
}
