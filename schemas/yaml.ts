/**
 * YAML parsed once per text, across processes. Playwright starts a runner and a worker for every
 * run, and a new worker after every failed test; each parsed the catalogue, the contract and the
 * profile again, and the `yaml` parser, loaded and run cold, cost each process about 0.1 s of CPU.
 * A parse is kept as JSON in a cache folder of the user's own, named by a hash of the text: a
 * changed file is a new name, so an entry is never stale. Only what JSON holds exactly is kept;
 * anything else (`.inf`, say) is parsed every time. YAML files hold no secret (tokens are read from
 * the environment only), so nothing kept here is one.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { privateDir } from '../common/private-dir.cjs';

/** The parser's version is part of every name: another parser may read a text otherwise. */
const PARSER = `yaml@${(require('yaml/package.json') as { version: string }).version}`;
/** Enough for the kit's own files and every profile a machine uses; beyond it the oldest go. */
const MAX_ENTRIES = 256;

/** One folder per user, as Playwright keeps its transform cache (playwright-transform-cache-<uid>). */
export const YAML_CACHE_DIR = path.join(os.tmpdir(), `agc-yaml-cache-${process.geteuid?.() ?? 'user'}`);

/** The text parsed as YAML (the `yaml` package's parse); the cache is used only where it is the user's alone. */
export function parseYaml(text: string): unknown {
  return parseYamlWith(text, YAML_CACHE_DIR);
}

/** parseYaml with its cache in `dir` (the kit's tests use their own). */
export function parseYamlWith(text: string, dir: string): unknown {
  const usable = privateDir(dir);
  const file = path.join(dir, `${createHash('sha256').update(`${PARSER}\n${text}`).digest('hex')}.json`);
  if (usable) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch {
      // Not kept yet (or cut short by a crash): parsed below, and kept again.
    }
  }
  // Required here, not at the top: a process that finds every text kept never loads the parser.
  const value = (require('yaml') as typeof import('yaml')).parse(text) as unknown;
  const json = JSON.stringify(value);
  if (usable && typeof json === 'string' && isDeepStrictEqual(JSON.parse(json), value)) keep(dir, file, json);
  return value;
}

/** Written beside and renamed into place: a worker reading at the same moment sees the whole entry or none. */
function keep(dir: string, file: string, json: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, json, { mode: 0o600 });
    renameSync(partial, file);
    prune(dir);
  } catch {
    rmSync(partial, { force: true });
  }
}

function prune(dir: string): void {
  const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  if (names.length <= MAX_ENTRIES) return;
  const byAge = names.map((name) => ({ name, at: statSync(path.join(dir, name)).mtimeMs })).sort((a, b) => a.at - b.at);
  for (const { name } of byAge.slice(0, names.length - MAX_ENTRIES / 2)) rmSync(path.join(dir, name), { force: true });
}
