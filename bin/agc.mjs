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
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import dotenv from 'dotenv';
import { EXIT, exitForReport } from '../common/exit-codes.mjs';
import { runChild } from '../common/child.mjs';
// What agc prints of text it did not write (an error's message, a report's field) goes through the suites' own guard.
import { oneLine as safe } from '../common/safe-text.mjs';
import { playwrightRoot } from './installed.mjs';
import { CERTIFY_OPTIONS, environmentFor, MERGE_OPTIONS, parse, RUN_OPTIONS, text, usage, UsageError } from './options.mjs';

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

/** @typedef {import('./options.mjs').Env} Env */

/**
 * Runs a child to completion. SIGINT, not SIGTERM, is forwarded: SIGTERM would orphan Playwright's webServer.
 * @param {string} command a script run by this Node
 * @param {string[]} args
 * @param {Env} env
 * @param {string} [cwd]
 * @returns {Promise<number>} the child's exit status
 */
async function run(command, args, env, cwd = ROOT) {
  return (await runChild(command, args, withHeapCap(env), cwd)).code;
}

/**
 * The kit's processes (Playwright's runner and workers, which inherit NODE_OPTIONS) with V8's old space capped at
 * 1 GiB, unless the user set a cap of their own. What the kit keeps is bounded (evidence, reports), but V8 otherwise
 * lets garbage grow toward a limit sized from the machine's memory before it collects: against a target answering
 * 4 MiB bodies, a run's processes sat near 1 GiB resident together (bench/README.md, twenty-second stop).
 * @param {Env} env
 * @returns {Env}
 */
function withHeapCap(env) {
  if (/--max-old-space-size/.test(env.NODE_OPTIONS ?? '')) return env;
  return { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, '--max-old-space-size=1024'].filter(Boolean).join(' ') };
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
    // --span is checked by certify/main.ts, which reads it.
    const span = text(values, 'span');
    const args = [
      ...(runs ? ['--runs', runs] : []),
      ...(workers ? ['--workers', workers] : []),
      ...(signKey ? ['--sign-key', path.resolve(signKey)] : []),
      // As one argument: a value that starts with a dash (-1s) is a wrong duration, not another option.
      ...(span !== undefined ? [`--span=${span}`] : []),
    ];
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
