import type { FullConfig } from '@playwright/test';
import { ConfigError, kitConfigOf, withReferenceURL, type KitConfig } from './config';
import { Api } from './api';
import type { Exchange } from '../client/exchange';
import { clearPhaseDone, markPhaseDone, saveDataset } from './dataset';
import { buildDataset } from './dataset-setup';
import { loadProfile } from '../schemas/profile';
import { clearTargetGone, ensureRunDir, keepTemp, removeRunDir } from '../client/run-dir';
import { oneLine } from '../client/safe-text';
import { redactText, secretPattern, secretsOf } from '../client/redact';

/**
 * One request before anything else. A target that is down, hangs, or answers something that is
 * not this API (an HTML 502 from a proxy, a login page, megabytes of garbage) is reported in
 * seconds with that reason, instead of after every test has timed out one by one.
 */
export async function preflight(config: KitConfig & { baseURL: string }): Promise<string | undefined> {
  return (await firstList(config)).problem;
}

/** The preflight's list ({}), with the problem it shows if any; the suites read the answer too (ENV, LIST-01). */
async function firstList(config: KitConfig & { baseURL: string }): Promise<{ problem?: string; exchange: Exchange }> {
  const api = new Api(config, (_role, variable) => {
    throw new Error(`${variable} is not configured`);
  });
  const exchange = await api.call('ListAssetGroups', {});
  return { problem: diagnose(config, exchange), exchange };
}

/** A body that parses as JSON once a leading byte-order mark or surrounding whitespace is dropped, and holds the envelope. */
function spoiledJson(body: string): boolean {
  try {
    const parsed = JSON.parse(body.replace(/^\uFEFF/, '').trim()) as { ResponseMetadata?: unknown };
    return typeof parsed === 'object' && parsed !== null && 'ResponseMetadata' in parsed;
  } catch {
    return false;
  }
}

function diagnose(config: KitConfig & { baseURL: string }, exchange: Exchange): string | undefined {
  const where = `${config.baseURL}`;
  if (!exchange.response) return `target unreachable at ${where}: ${exchange.networkError}`;
  const { status, headers, truncated, json, jsonError } = exchange.response;
  const type = headers['content-type'] ?? 'no Content-Type';
  if (truncated)
    return `target at ${where} answered an empty list request with more than the kit reads (HTTP ${status}, ${type}); is AG_BASE_URL the asset-group API?`;
  // JSON the target spoiled in a small way (a byte-order mark before it, RFC 8259 §8.1) is still this API: the run
  // goes on, and every check that reads the body finds it unreadable, which is ENV-05's finding.
  if (json === undefined && spoiledJson(exchange.response.body)) return undefined;
  if (json === undefined)
    return `target at ${where} did not answer with JSON (HTTP ${status}, ${type}: ${jsonError}); is AG_BASE_URL the base URL of the asset-group API?`;
  return undefined;
}

/** An error Playwright prints as its message alone: this is the target's state, not a kit crash. Target text in it is one line. */
function plainError(message: string, tokens: (string | undefined)[]): Error {
  message = oneLine(redactText(message, secretPattern(secretsOf(tokens))), 4000);
  const error = new Error(message);
  error.stack = message;
  return error;
}

/**
 * Runs once per run (per shard), after the embedded reference server is up: the shared
 * create-and-wait phase, which goes on while the workers start. Its teardown waits for the phase, then removes the run's private folder (AG_KEEP_TEMP=1 keeps it).
 */
export default async function globalSetup(fullConfig: FullConfig): Promise<() => void | Promise<void>> {
  // Resolved once, by playwright.config.ts; the embedded server's URL joins it now that the webServer is up.
  const resolved = kitConfigOf(fullConfig);
  if (!resolved) throw new ConfigError("no kit configuration in the Playwright config: run the suites with the kit's playwright.config.ts (use.kitConfig)");
  const config = withReferenceURL(resolved);
  ensureRunDir(config.runId);
  clearTargetGone(config.runId);
  const teardown = () => {
    if (!keepTemp()) removeRunDir(config.runId);
  };
  if (!config.baseURL) return teardown; // the kit fixture reports the missing target in every test
  const target = { ...config, baseURL: config.baseURL };
  const { problem, exchange } = await firstList(target);
  if (problem) {
    teardown();
    throw plainError(problem, Object.values(config.tokens));
  }
  // The phase runs on while Playwright starts the workers (seconds of loading on a small machine); the kit fixture
  // waits for its marker before any test sends, and the teardown for its end.
  clearPhaseDone(config.runId);
  const phase = (async (): Promise<Error | undefined> => {
    try {
      saveDataset(await buildDataset(target, loadProfile(config.profilePath), exchange));
      markPhaseDone(config.runId);
      return undefined;
    } catch (error) {
      const failed = plainError(error instanceof Error ? error.message : String(error), Object.values(config.tokens));
      markPhaseDone(config.runId, failed.message);
      return failed;
    }
  })();
  return async () => {
    const failed = await phase;
    teardown();
    if (failed) throw failed;
  };
}
