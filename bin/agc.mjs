#!/usr/bin/env node
// @ts-check
// agc: a thin wrapper over Playwright for people who will not learn its flags. It turns options
// into the kit's environment variables, runs the suites, and exits with the verdict; it also
// starts the reference server (reference/main.ts), `agc profile discover` (discover/main.ts), and
// `agc certify` / `agc verify` (certify/main.ts).
// Exit statuses are common/exit-codes.mjs's, the same for every command.
//
// Plain JavaScript, type-checked by `tsc` through its JSDoc (checkJs): it starts without a
// TypeScript loader; the commands written in TypeScript run in a child through tsx.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { EXIT, EXIT_HELP, exitForReport } from '../common/exit-codes.mjs';
import { runChild } from '../common/child.mjs';
import { privateDir } from '../common/private-dir.cjs';
// What agc prints of text it did not write (an error's message, a report's field) goes through the suites' own guard.
import { oneLine as safe } from '../common/safe-text.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Resolved as dependencies, not under ROOT/node_modules: installed into another project, the kit's
// dependencies sit beside it in that project's node_modules.
const require = createRequire(import.meta.url);
const PLAYWRIGHT = require.resolve('@playwright/test/cli');
const TSX_DIR = path.dirname(require.resolve('tsx/package.json'));
// The kit's TypeScript programs run under tsx's loader in one Node process: its CLI would start a second one to run it
// in, 0.17 CPU-s and 0.18 s more on every command (and on every embedded run's reference server, playwright.config.ts).
const TSX_IMPORT = ['--import', pathToFileURL(path.join(TSX_DIR, 'dist', 'loader.mjs')).href];
const CERTIFY = path.join(ROOT, 'certify', 'main.ts');
const COMPARE = path.join(ROOT, 'compare', 'main.ts');

/**
 * @typedef {object} Option one option of a command
 * @property {'string' | 'boolean'} type
 * @property {string} help its help line
 * @property {string} [arg] the name of its value in the help
 * @property {string} [env] the variable it sets
 * @property {boolean} [path] its value is a path, resolved against the working directory
 * @property {string} [short] its one-letter alias
 */
/** @typedef {Record<string, string | true | undefined>} Values the parsed options: no option is negatable or `multiple` */
/** @typedef {Record<string, string | undefined>} Env */

/**
 * Where Playwright runs the suites from: the kit itself, except when it is installed under some
 * project's node_modules. Playwright never compiles TypeScript below a node_modules folder, and the
 * suites are TypeScript; so an installed kit runs from a copy of itself (keptCopy), which finds the
 * kit's dependencies through NODE_PATH and its webServer's `node_modules/tsx` through a link.
 * @param {Env} env the child's environment; NODE_PATH is set in it for an installed kit
 * @returns {string}
 */
function playwrightRoot(env) {
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

/**
 * Each option: its flag, the variable it sets, and its help line. Tokens are never options: argv is visible to every user of the machine.
 * @type {Record<string, Option>}
 */
const RUN_OPTIONS = {
  'base-url': { type: 'string', arg: 'URL', env: 'AG_BASE_URL', help: "the target's base URL; omit to run against the embedded reference server" },
  'report-dir': {
    type: 'string',
    arg: 'DIR',
    env: 'AG_REPORT_DIR',
    path: true,
    help: 'where conformance.json, index.html and junit.xml go (default conformance-report)',
  },
  profile: { type: 'string', arg: 'FILE', env: 'AG_PROFILE', path: true, help: "the target's profile file, merged over spec/profile.yaml" },
  waivers: { type: 'string', arg: 'FILE', env: 'AG_WAIVERS', path: true, help: "the target's waiver file (accepted, tracked failures)" },
  'strict-waivers': {
    type: 'boolean',
    env: 'AG_STRICT_WAIVERS',
    help: 'a stale waiver (its requirement passed) or an expired one fails a conformant run: exit 4',
  },
  baseline: {
    type: 'string',
    arg: 'FILE',
    env: 'AG_BASELINE',
    path: true,
    help: "a previous run's conformance.json: every report then says what changed since it",
  },
  'visibility-timeout': {
    type: 'string',
    arg: 'MS',
    env: 'AG_VISIBILITY_TIMEOUT_MS',
    help: 'ms a created group may take to appear in lists (default 60000; 10000 embedded)',
  },
  'request-timeout': { type: 'string', arg: 'MS', env: 'AG_REQUEST_TIMEOUT_MS', help: 'ms one request may take (default 15000)' },
  seed: { type: 'string', arg: 'N', env: 'AG_SEED', help: 'seed of the property-based tests (replays a reported failure)' },
  'num-runs': { type: 'string', arg: 'N', env: 'AG_NUM_RUNS', help: 'runs per property (default 25)' },
  shard: { type: 'string', arg: 'I/N', help: 'run one shard, e.g. 1/2; use with --blob-dir, then `agc merge`' },
  'blob-dir': { type: 'string', arg: 'DIR', path: true, help: "write a blob report here for `agc merge` (a shard's verdict is decided at the merge)" },
  workers: { type: 'string', arg: 'N', help: 'parallel workers (default 3)' },
  grep: { type: 'string', arg: 'TEXT', help: 'only the requirements whose title matches, e.g. PAGE- (the verdict is then incomplete)' },
  'user-agent': { type: 'string', arg: 'TEXT', env: 'AG_USER_AGENT', help: 'the User-Agent of every request (default asset-group-conformance-kit/<version>)' },
  'ca-file': {
    type: 'string',
    arg: 'FILE',
    env: 'AG_CA_FILE',
    path: true,
    help: "a CA certificate (PEM) to trust besides Node's, for a target behind a private CA",
  },
  'keep-temp': { type: 'boolean', env: 'AG_KEEP_TEMP', help: "keep the run's private temp folder (its dataset) for debugging; removed at the end otherwise" },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

/** @type {Record<string, Option>} */
const MERGE_OPTIONS = {
  'report-dir': RUN_OPTIONS['report-dir'],
  waivers: RUN_OPTIONS.waivers,
  'strict-waivers': RUN_OPTIONS['strict-waivers'],
  baseline: RUN_OPTIONS.baseline,
  help: RUN_OPTIONS.help,
};

/**
 * `agc certify`: the run options that make sense for N runs against one target (no shard, grep or
 * baseline: a certification runs everything), and its own.
 * @type {Record<string, Option>}
 */
const CERTIFY_OPTIONS = {
  'base-url': RUN_OPTIONS['base-url'],
  'report-dir': {
    ...RUN_OPTIONS['report-dir'],
    help: "where certificate.json, index.html and each run's reports (run-1/, run-2/, …) go (default certification)",
  },
  profile: RUN_OPTIONS.profile,
  waivers: RUN_OPTIONS.waivers,
  seed: { ...RUN_OPTIONS.seed, help: "the first run's seed; run k uses seed + k - 1 (default random, recorded)" },
  runs: { type: 'string', arg: 'N', help: 'how many runs, each with its own seed; conformant only if every run is (default 3)' },
  'sign-key': { type: 'string', arg: 'FILE', path: true, help: 'an Ed25519 private key (PEM) that signs the certificate' },
  'visibility-timeout': RUN_OPTIONS['visibility-timeout'],
  'request-timeout': RUN_OPTIONS['request-timeout'],
  'num-runs': RUN_OPTIONS['num-runs'],
  workers: RUN_OPTIONS.workers,
  'user-agent': RUN_OPTIONS['user-agent'],
  'ca-file': RUN_OPTIONS['ca-file'],
  'keep-temp': RUN_OPTIONS['keep-temp'],
  help: RUN_OPTIONS.help,
};

/** @returns {string} */
function usage() {
  /** @param {Record<string, Option>} options */
  const lines = (options) =>
    Object.entries(options)
      .map(([name, o]) => `${`  --${name}${o.arg ? ` ${o.arg}` : ''}`.padEnd(30)}${o.help}${o.env ? ` [${o.env}]` : ''}`)
      .join('\n');
  return `Usage: agc <command> [options]

Commands:
  run                  run the conformance suites and write the reports
  merge BLOB_DIR       merge the blob reports of shards into one report and verdict
  reference [...]      start the reference server (agc reference --help for its options)
  profile discover --out FILE
                       probe the target and draft its profile file, for review before a run
                       (agc profile discover --help for what it sends and its options)
  certify              run the suites --runs N times (seeds S, S+1, …) and write a certificate
                       (certificate.json, index.html) that agc verify checks
  verify CERT          check a certificate: its runs' report hashes and, with --public-key FILE,
                       its signature (agc verify --help; exits 0 holds, 1 mismatch, 3 usage)
  compare REPORT|DIR...
                       implementations side by side: compare.html, compare.json, a badge each
                       (agc compare --help; exits 0 written, 3 usage)
  replay REPORT        send a report's failing exchanges again (--base-url URL: to a fixed build) and
                       say per finding: still failing, fixed, not reproducible (agc replay --help)

agc run options:
${lines(RUN_OPTIONS)}

agc merge options:
${lines(MERGE_OPTIONS)}

agc certify options (the combined verdict is the worst run's; exit status as agc run's):
${lines(CERTIFY_OPTIONS)}

Tokens come from the environment or .env only, never from options:
  AG_TOKEN (required with --base-url), AG_TOKEN_OTHER_USER, AG_TOKEN_CHANNEL_A, AG_TOKEN_CHANNEL_B
or fetched and renewed, per role (<VAR> one of those four; docs/tokens.md): <VAR>_COMMAND, a command that
prints one, or OAuth client credentials <VAR>_CLIENT_ID, <VAR>_CLIENT_SECRET, <VAR>_URL, <VAR>_SCOPE, <VAR>_AUDIENCE
Proxies as curl reads them: https_proxy/HTTPS_PROXY, http_proxy (lower case only), all_proxy, no_proxy/NO_PROXY

${EXIT_HELP}`;
}

class UsageError extends Error {}

/**
 * @param {string[]} args
 * @param {Record<string, Option>} options
 * @returns {{ values: Values, positionals: string[] }}
 */
function parse(args, options) {
  const config = Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
  try {
    const { values, positionals } = parseArgs({ args, options: config, allowPositionals: true, strict: true });
    return { values: /** @type {Values} */ (values), positionals };
  } catch (error) {
    throw new UsageError(/** @type {Error} */ (error).message);
  }
}

/**
 * A string option's value (undefined when absent).
 * @param {Values} values
 * @param {string} name
 * @returns {string | undefined}
 */
function text(values, name) {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * @param {Values} values
 * @param {Record<string, Option>} options
 * @returns {Env}
 */
function environmentFor(values, options) {
  /** @type {Env} */
  const env = { ...process.env };
  for (const [name, o] of Object.entries(options)) {
    const value = values[name];
    if (!o.env || value === undefined) continue;
    if (value === true) {
      env[o.env] = '1';
      continue;
    }
    if (value === '') throw new UsageError(`--${name} needs a value`);
    env[o.env] = o.path ? path.resolve(value) : value;
  }
  return env;
}

/**
 * Runs a child to completion. SIGINT, not SIGTERM, is forwarded: SIGTERM would orphan Playwright's webServer.
 * @param {string} command a script run by this Node
 * @param {string[]} args
 * @param {Env} env
 * @param {string} [cwd]
 * @returns {Promise<number>} the child's exit status
 */
async function run(command, args, env, cwd = ROOT) {
  return (await runChild(command, args, env, cwd)).code;
}

/**
 * @param {string} script one of the kit's TypeScript programs
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {string} [cwd]
 * @returns {Promise<number>}
 */
async function runTs(script, args, env, cwd = ROOT) {
  // certify and verify run in the user's folder (their paths are relative to it): tsx reads the kit's own tsconfig, not theirs.
  return (await runChild(script, args, { ...env, TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json') }, cwd, TSX_IMPORT)).code;
}

/**
 * The exit status is the verdict written by this run (and its waivers', under --strict-waivers); no report means the kit itself failed.
 * @param {string} reportDir
 * @param {number} childCode
 * @returns {number}
 */
function verdictExit(reportDir, childCode) {
  const file = path.join(reportDir, 'conformance.json');
  if (childCode === EXIT.error) return EXIT.error; // the config already said what is wrong
  if (!existsSync(file)) {
    console.error(`agc: no report was written to ${file}; see the output above`);
    return EXIT.error;
  }
  return exitForReport(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit status
 */
async function main(argv) {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(usage());
    // No command at all is a usage error, as every other one is.
    return command ? EXIT.ok : EXIT.error;
  }
  if (command === 'reference') return runTs(path.join(ROOT, 'reference', 'main.ts'), rest, process.env);
  if (command === 'profile') {
    const [sub, ...args] = rest;
    if (sub !== 'discover')
      throw new UsageError(
        sub
          ? `unknown command profile ${sub} (the one profile command is: agc profile discover --out FILE)`
          : 'agc profile needs a command: agc profile discover --out FILE',
      );
    return runTs(path.join(ROOT, 'discover', 'main.ts'), args, process.env);
  }
  if (command === 'run') {
    const { values, positionals } = parse(rest, RUN_OPTIONS);
    if (values.help) return (console.log(usage()), EXIT.ok);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const shard = text(values, 'shard');
    const workers = text(values, 'workers');
    const grep = text(values, 'grep');
    const blobDir = text(values, 'blob-dir');
    if (shard && !/^\d+\/\d+$/.test(shard)) throw new UsageError(`--shard must look like 1/2, not ${shard}`);
    if (workers && !/^[1-9]\d*$/.test(workers)) throw new UsageError(`--workers must be a positive whole number, not ${workers}`);
    const env = environmentFor(values, RUN_OPTIONS);
    // The .env of the project agc runs in (the kit installed into it); the environment wins.
    if (existsSync('.env')) dotenv.config({ path: path.resolve('.env'), processEnv: /** @type {Record<string, string>} */ (env), quiet: true });
    const reportDir = path.resolve(env.AG_REPORT_DIR || 'conformance-report');
    env.AG_REPORT_DIR = reportDir;
    const args = ['test'];
    if (shard) args.push(`--shard=${shard}`);
    if (workers) args.push(`--workers=${workers}`);
    if (grep) args.push(`--grep=${grep}`);
    if (blobDir) {
      // A shard writes a blob for the merge, plus the kit's console; its own verdict would be "incomplete" by design.
      const blobs = path.resolve(blobDir);
      env.PLAYWRIGHT_BLOB_OUTPUT_DIR = blobs;
      const root = playwrightRoot(env);
      // And the selection (suites/selection.ts): the shard's runner sends its own tests' requests ahead.
      args.push(`--reporter=${path.join(root, 'suites', 'selection.ts')},${path.join(root, 'reporters', 'console.ts')},blob`);
      const code = await run(PLAYWRIGHT, args, env, root);
      return code === EXIT.error || !existsSync(blobs) ? EXIT.error : EXIT.ok;
    }
    rmSync(path.join(reportDir, 'conformance.json'), { force: true });
    return verdictExit(reportDir, await run(PLAYWRIGHT, args, env, playwrightRoot(env)));
  }
  if (command === 'merge') {
    const { values, positionals } = parse(rest, MERGE_OPTIONS);
    if (values.help) return (console.log(usage()), EXIT.ok);
    if (positionals.length !== 1) throw new UsageError("agc merge takes one BLOB_DIR: the folder holding every shard's blob report");
    const blobDir = path.resolve(positionals[0]);
    // Playwright's merge-reports answers a folder without blobs with a stack trace of its own: said here in one line.
    if (!existsSync(blobDir) || !statSync(blobDir).isDirectory() || !readdirSync(blobDir).some((name) => name.endsWith('.zip')))
      throw new UsageError(`no blob reports at ${blobDir}`);
    const env = environmentFor(values, MERGE_OPTIONS);
    const reportDir = path.resolve(env.AG_REPORT_DIR || 'conformance-report');
    env.AG_REPORT_DIR = reportDir;
    rmSync(path.join(reportDir, 'conformance.json'), { force: true });
    const root = playwrightRoot(env);
    return verdictExit(reportDir, await run(PLAYWRIGHT, ['merge-reports', '--config', path.join(root, 'playwright.config.ts'), blobDir], env, root));
  }
  if (command === 'certify') {
    // The certification itself is certify/ (certify/certify.ts); it runs `agc run` once per seed.
    const { values, positionals } = parse(rest, CERTIFY_OPTIONS);
    if (values.help) return (console.log(usage()), EXIT.ok);
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const runs = text(values, 'runs');
    const workers = text(values, 'workers');
    if (runs !== undefined && !/^[1-9]\d*$/.test(runs)) throw new UsageError(`--runs must be a positive whole number, not ${runs}`);
    if (workers && !/^[1-9]\d*$/.test(workers)) throw new UsageError(`--workers must be a positive whole number, not ${workers}`);
    const env = environmentFor(values, CERTIFY_OPTIONS);
    if (existsSync('.env')) dotenv.config({ path: path.resolve('.env'), processEnv: /** @type {Record<string, string>} */ (env), quiet: true });
    const signKey = text(values, 'sign-key');
    if (signKey === '') throw new UsageError('--sign-key needs a value');
    const args = [...(runs ? ['--runs', runs] : []), ...(workers ? ['--workers', workers] : []), ...(signKey ? ['--sign-key', path.resolve(signKey)] : [])];
    return runTs(CERTIFY, ['certify', ...args], env, process.cwd());
  }
  if (command === 'verify') return runTs(CERTIFY, ['verify', ...rest], process.env, process.cwd());
  if (command === 'compare') return runTs(COMPARE, rest, process.env, process.cwd());
  if (command === 'replay') return runTs(path.join(ROOT, 'replay', 'main.ts'), rest, process.env, process.cwd());
  throw new UsageError(`unknown command ${command} (agc --help lists the commands)`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof UsageError) {
      console.error(`agc: ${safe(error.message)}`);
      process.exit(EXIT.error);
    }
    console.error(
      `agc: ${String(error?.stack ?? error)
        .split('\n')
        .map((line) => safe(line))
        .join('\n')}`,
    );
    process.exit(EXIT.error);
  },
);
