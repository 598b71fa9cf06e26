// @ts-check
// The options of agc's commands, their help, and the environment each option sets: the CLI's one table of what it takes.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_HELP } from '../common/exit-codes.mjs';

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
 * Each option: its flag, the variable it sets, and its help line. Tokens are never options: argv is visible to every user of the machine.
 * @type {Record<string, Option>}
 */
export const RUN_OPTIONS = {
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
export const MERGE_OPTIONS = {
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
export const CERTIFY_OPTIONS = {
  'base-url': RUN_OPTIONS['base-url'],
  'report-dir': {
    ...RUN_OPTIONS['report-dir'],
    help: "where certificate.json, index.html and each run's reports (run-1/, run-2/, …) go (default certification)",
  },
  profile: RUN_OPTIONS.profile,
  waivers: RUN_OPTIONS.waivers,
  'strict-waivers': RUN_OPTIONS['strict-waivers'],
  seed: { ...RUN_OPTIONS.seed, help: "the first run's seed; run k uses seed + k - 1 (default random, recorded)" },
  runs: { type: 'string', arg: 'N', help: 'how many runs, each with its own seed; conformant only if every run is (default 3)' },
  span: {
    type: 'string',
    arg: 'DURATION',
    help: "spread the runs' starts evenly over this (20s, 5m, 1h): each run after the first re-reads the earlier runs' groups (default 0, back to back)",
  },
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
export function usage() {
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

export class UsageError extends Error {}

/**
 * @param {string[]} args
 * @param {Record<string, Option>} options
 * @returns {{ values: Values, positionals: string[] }}
 */
export function parse(args, options) {
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
export function text(values, name) {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * @param {Values} values
 * @param {Record<string, Option>} options
 * @returns {Env}
 */
export function environmentFor(values, options) {
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
