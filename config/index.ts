import { randomBytes } from 'node:crypto';
import path from 'node:path';
import dotenv from 'dotenv';
import type { FullConfig } from '@playwright/test/reporter';
import { evidenceBytes } from '../client/evidence';
import { networkProblems } from '../client/network';
import { TokenSourceError } from '../client/token-source';
import { tokenSourcesFromEnv } from '../client/token-env';

// A .env beside the kit is read once, and never overrides what the environment already says.
dotenv.config({ path: path.resolve(__dirname, '..', '.env'), quiet: true });

/** Which token a request uses: the roles of the configuration, or none. */
export type TokenRole = 'primary' | 'otherUser' | 'channelA' | 'channelB';

/**
 * Workers of a run unless --workers says otherwise. Against a far target the tests' round trips are spread over them
 * (bench/results.md: "the tests' chains, spread over 3 workers"); each further worker costs about 1.7 CPU-s to start,
 * which on 2 cores outweighs what it saves (the bench's --workers 6 scenarios).
 */
export const KIT_WORKERS = 3;

/**
 * Set in the runner's environment by the reporter of the kit's own matrices (tests/helpers/matrix-reporter.ts), and so in
 * every worker's: Playwright forks its workers after it has made the reporters. Where it is set, a test that failed is
 * marked as expected to fail once it has ended (suites/fixtures.ts, keepWorker), and Playwright keeps its worker: it would
 * otherwise start a new one after every failed test, and the matrices judge some hundred servers that each fail tests
 * (measured: `npm test` 3.2 min with the mark, 4.7 min without). A run of the kit never sets it (playwright.config.ts
 * removes an inherited one): there Playwright's outcome of every test is its own, true for any reporter a user adds.
 */
export const FAILURES_KEEP_WORKER = 'AG_FAILURES_KEEP_WORKER';

export const TOKEN_VARIABLES: Record<TokenRole, string> = {
  primary: 'AG_TOKEN',
  otherUser: 'AG_TOKEN_OTHER_USER',
  channelA: 'AG_TOKEN_CHANNEL_A',
  channelB: 'AG_TOKEN_CHANNEL_B',
};

/** Tokens the embedded reference server is started with; see reference/config.ts. */
export const REFERENCE_TOKEN_VARIABLES: Record<TokenRole, string> = {
  primary: 'AG_REF_TOKEN',
  otherUser: 'AG_REF_TOKEN_OTHER_USER',
  channelA: 'AG_REF_TOKEN_CHANNEL_A',
  channelB: 'AG_REF_TOKEN_CHANNEL_B',
};

export interface KitConfig {
  /** Undefined for the embedded reference server until its webServer has printed its URL. */
  baseURL: string | undefined;
  embedded: boolean;
  tokens: Partial<Record<TokenRole, string>>;
  /**
   * Roles whose token is fetched from a command or a token endpoint (config/tokens.ts) and renewed during the run;
   * `tokens` holds each one's current token once the runner has fetched it (global setup, and each worker's kit fixture).
   */
  fetchedRoles: TokenRole[];
  profilePath: string | undefined;
  visibilityTimeoutMs: number;
  requestTimeoutMs: number;
  /** How far a target's clock may be from the kit's before a timestamp is taken for local time (SCHEMA-03). */
  clockSkewMs: number;
  reportDir: string;
  /** AG_WAIVERS, as given: the target's waiver file. */
  waiversPath: string | undefined;
  /** AG_BASELINE, as given: a previous run's conformance.json. */
  baselinePath: string | undefined;
  /** Characters of the target's text one report may hold (AG_REPORT_TARGET_BYTES). */
  reportTargetBytes: number;
  /** Characters of one body, or one error text, kept as evidence (AG_EVIDENCE_BYTES). */
  evidenceBytes: number;
  /** AG_STRICT_WAIVERS=1: a stale or expired waiver fails the run (reporters/waivers.ts). */
  strictWaivers: boolean;
  /** AG_HAR_ALL=1 (set by agc certify): exchanges.har holds every exchange of the run, not only the evidence. */
  harAll: boolean;
  /**
   * AG_KEEP_CREATED=1 (set by agc certify against a target of its own): the run leaves created.json in its report folder,
   * its groups by Id with the values sent (facts/created.ts), for the certification to read back after later runs.
   */
  keepCreated: boolean;
  seed: number;
  numRuns: number;
  runId: string;
  /** Every name the kit creates starts with this, so a run only ever reads back its own data. */
  namePrefix: string;
}

/** What the reporters need of the configuration: where to write, and what to compare and waive. */
export type ReportSettings = Pick<KitConfig, 'reportDir' | 'waiversPath' | 'baselinePath' | 'reportTargetBytes' | 'evidenceBytes' | 'strictWaivers' | 'harAll'>;

/** The kit's configuration as a Playwright worker-scoped option (`use: { kitConfig }` in playwright.config.ts). */
export interface KitWorkerOptions {
  kitConfig: KitConfig | undefined;
  /**
   * The kit's own matrices only (tests/helpers/matrix.config.ts); no run of the kit sets it: several targets judged in one
   * project, so that one worker judges them all, where a project per target cost a worker process start each. Every
   * suite is declared once per target (declareMatrixTargets), each test told its target by the `kitTarget` option.
   */
  kitTargets?: Record<string, KitConfig>;
}

/** Where tests/helpers/matrix.config.ts leaves its targets' names: a global, so that no environment variable can set it for a run of the kit. */
const MATRIX_TARGETS = Symbol.for('asset-group-conformance-kit.matrixTargets');

/**
 * Called by tests/helpers/matrix.config.ts, which Playwright evaluates in the runner and in every worker before it loads the
 * suites: the names of the targets suites/fixtures.ts declares every suite for. No run of the kit calls it.
 */
export function declareMatrixTargets(names: string[]): void {
  (globalThis as Record<symbol, unknown>)[MATRIX_TARGETS] = names;
}

/** The target names of a multi-target run, as suites/fixtures.ts declares the suites for them at load time; [] for a run of the kit. */
export function matrixTargetNames(): string[] {
  return ((globalThis as Record<symbol, unknown>)[MATRIX_TARGETS] as string[] | undefined) ?? [];
}

export class ConfigError extends Error {}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) <= 0) throw new ConfigError(`${name} must be a positive whole number, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

function checkBaseURL(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`AG_BASE_URL is not a URL: ${JSON.stringify(raw)} (expected e.g. https://staging.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`AG_BASE_URL must be http or https, not ${url.protocol}`);
  if (url.search || url.hash)
    throw new ConfigError('AG_BASE_URL must not carry a query or fragment: give the base only; the kit adds /v1/media_assets/?Action=…');
  return raw;
}

/**
 * Run-wide values the runner decides once and its workers inherit through the environment:
 * Playwright evaluates the config in every worker, and a second random draw there would give
 * each worker its own run prefix and its own reference tokens.
 */
export function prepareRunEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  env.AG_RUN_ID ||= `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  env.AG_SEED ||= String(randomBytes(4).readUInt32BE() >>> 1);
  if (!env.AG_BASE_URL) {
    for (const name of Object.values(REFERENCE_TOKEN_VARIABLES)) env[name] ||= `ref-${randomBytes(12).toString('hex')}`;
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): KitConfig {
  const embedded = !env.AG_BASE_URL;
  const baseURL = embedded ? env.AG_REFERENCE_URL : checkBaseURL(env.AG_BASE_URL!);
  const tokens: Partial<Record<TokenRole, string>> = {};
  const variables = embedded ? REFERENCE_TOKEN_VARIABLES : TOKEN_VARIABLES;
  for (const [role, name] of Object.entries(variables) as [TokenRole, string][]) {
    const value = env[name];
    if (value === undefined) continue;
    // A set-but-empty token is a mistake in a CI secret, not a request to skip the checks.
    if (value.trim() === '') throw new ConfigError(`${name} is set but empty; unset it to skip the checks that need it, or give the token`);
    tokens[role] = value.trim();
  }
  let fetchedRoles: TokenRole[] = [];
  try {
    if (!embedded) fetchedRoles = Object.keys(tokenSourcesFromEnv(env, TOKEN_VARIABLES)) as TokenRole[];
  } catch (error) {
    throw error instanceof TokenSourceError ? new ConfigError(error.message) : error;
  }
  if (!embedded && !tokens.primary && !fetchedRoles.includes('primary'))
    throw new ConfigError(
      "AG_TOKEN is required with AG_BASE_URL: the primary user's Bearer token (or AG_TOKEN_COMMAND, or AG_TOKEN_CLIENT_ID: docs/tokens.md)",
    );
  const runId = env.AG_RUN_ID || 'local';
  // The run id is part of every Name the kit creates; a long one would push them past the profile's bounds.
  if (!/^[a-z0-9-]{1,16}$/.test(runId)) throw new ConfigError(`AG_RUN_ID must be 1 to 16 characters of a-z, 0-9 and -, not ${JSON.stringify(runId)}`);
  // A proxy variable that names no HTTP(S) proxy, or a --ca-file that holds no certificate, is said before any request.
  const [network] = networkProblems(embedded ? undefined : baseURL, env);
  if (network) throw new ConfigError(network);
  const seedRaw = env.AG_SEED ?? '';
  if (seedRaw !== '' && !/^-?\d+$/.test(seedRaw.trim())) throw new ConfigError(`AG_SEED must be a whole number, not ${JSON.stringify(seedRaw)}`);
  return {
    baseURL,
    embedded,
    tokens,
    fetchedRoles,
    profilePath: env.AG_PROFILE ? path.resolve(env.AG_PROFILE) : undefined,
    visibilityTimeoutMs: positiveInt(env, 'AG_VISIBILITY_TIMEOUT_MS', embedded ? 10_000 : 60_000),
    requestTimeoutMs: positiveInt(env, 'AG_REQUEST_TIMEOUT_MS', 15_000),
    clockSkewMs: positiveInt(env, 'AG_CLOCK_SKEW_MS', 300_000),
    ...loadReportSettings(env),
    keepCreated: isOn(env.AG_KEEP_CREATED),
    seed: Number(seedRaw || 0),
    numRuns: positiveInt(env, 'AG_NUM_RUNS', 25),
    runId,
    namePrefix: `agc-${runId}-`,
  };
}

/** A switch of the environment: 1 or true, as AG_KEEP_TEMP reads. */
const isOn = (value: string | undefined) => value === '1' || value === 'true';

/** The report settings alone; lenient, as the reporters always were: a value that is not a positive number falls back to the default. */
export function loadReportSettings(env: NodeJS.ProcessEnv = process.env): ReportSettings {
  const raw = env.AG_REPORT_TARGET_BYTES;
  return {
    reportDir: path.resolve(env.AG_REPORT_DIR || 'conformance-report'),
    waiversPath: env.AG_WAIVERS || undefined,
    baselinePath: env.AG_BASELINE || undefined,
    reportTargetBytes: raw && /^\d+$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : 16 * 1024 * 1024,
    evidenceBytes: evidenceBytes(env),
    strictWaivers: isOn(env.AG_STRICT_WAIVERS),
    harAll: isOn(env.AG_HAR_ALL),
  };
}

/** The configuration playwright.config.ts resolved and handed to the run as `use.kitConfig`, if this Playwright config carries it. */
export function kitConfigOf(config: Pick<FullConfig, 'projects'>): KitConfig | undefined {
  const use = config.projects?.[0]?.use as Partial<KitWorkerOptions> | undefined;
  return use?.kitConfig ?? undefined;
}

/**
 * The reporters' settings, from the configuration the run resolved. A Playwright config that does
 * not carry it gives them through the environment, by the same rules: merge-reports (a blob report
 * keeps nothing of `use` but testIdAttribute; `agc merge` passes its options as the environment, as
 * `agc run` does) and configs that are not the kit's (the kit's own tests of its reporters).
 */
export function reportSettingsOf(config: Pick<FullConfig, 'projects'>): ReportSettings {
  return kitConfigOf(config) ?? loadReportSettings();
}

/**
 * The embedded reference server's URL is known only once its webServer has printed it: Playwright
 * sets AG_REFERENCE_URL from the `wait` pattern's named group. A configuration resolved before that
 * (the runner's, which global setup reads) takes it from there.
 */
export function withReferenceURL(config: KitConfig, env: NodeJS.ProcessEnv = process.env): KitConfig {
  return config.embedded && !config.baseURL && env.AG_REFERENCE_URL ? { ...config, baseURL: env.AG_REFERENCE_URL } : config;
}
