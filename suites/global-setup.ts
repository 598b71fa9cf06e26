import { loadConfig, type KitConfig } from './config';
import { Api } from './api';
import type { Exchange } from './exchange';
import { buildDataset, saveDataset } from './dataset';
import { profile } from '../schemas';

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

function diagnose(config: KitConfig & { baseURL: string }, exchange: Exchange): string | undefined {
  const where = `${config.baseURL}`;
  if (!exchange.response) return `target unreachable at ${where}: ${exchange.networkError}`;
  const { status, headers, truncated, json, jsonError } = exchange.response;
  const type = headers['content-type'] ?? 'no Content-Type';
  if (truncated) return `target at ${where} answered an empty list request with more than the kit reads (HTTP ${status}, ${type}); is AG_BASE_URL the asset-group API?`;
  if (json === undefined) return `target at ${where} did not answer with JSON (HTTP ${status}, ${type}: ${jsonError}); is AG_BASE_URL the base URL of the asset-group API?`;
  return undefined;
}

/** An error Playwright prints as its message alone: this is the target's state, not a kit crash. */
function plainError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/** Runs once per run (per shard), after the embedded reference server is up: the shared create-and-wait phase. */
export default async function globalSetup(): Promise<void> {
  const config = loadConfig();
  if (!config.baseURL) return; // the kit fixture reports the missing target in every test
  const target = { ...config, baseURL: config.baseURL };
  const { problem, exchange } = await firstList(target);
  if (problem) throw plainError(problem);
  saveDataset(await buildDataset(target, profile, exchange));
}
