import type { FullConfig } from '@playwright/test';
import { EXIT } from '../common/exit-codes.mjs';
import { ConfigError, kitConfigOf, TOKEN_VARIABLES, withReferenceURL, type KitConfig } from '../config';
import { Api } from './api';
import type { Exchange } from '../client/exchange';
import { clearPhaseDone, createdOf, markPhaseDone, saveDataset } from './dataset';
import { writeCreated } from '../facts/created';
import { phaseExchanges } from './dataset-needs';
import { buildDataset } from './dataset-setup';
import { loadProfile, type Profile } from '../schemas/profile';
import type { Dataset } from './dataset';
import { sendAheadLanes, type PlannedRequest } from './plans';
import { withSpareRequests } from './run-budget';
import { groupFreeRequests, sentAheadFor } from './families';
import { Lanes } from '../client/concurrency';
import { withinShareBounds } from '../client/read-cache';
import { isThrottled } from '../client/retry';
import { endSelection, selectedPlans, selectionReported } from './selection';
import { clearTargetGone, ensureRunDir, keepTemp, removeRunDir } from '../client/run-dir';
import { clearExchangeLog, exchangeLogDir } from '../client/exchange-log';
import { oneLine } from '../client/safe-text';
import { redactText, registeredSecrets, secretPattern, secretsFromEnv, secretsOf } from '../client/redact';
import { routeNote } from '../client/network';
import { startTokens, TokenSourceError } from '../config/tokens';

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

/**
 * A body that is not JSON but holds, after something printed before it (a byte-order mark, RFC 8259 §8.1; a runtime's
 * warning line), a JSON object with the envelope: the client found where (`jsonAfter`), this reads what.
 */
function envelopeAfterPrefix(response: NonNullable<Exchange['response']>): boolean {
  if (response.jsonAfter === undefined) return false;
  try {
    const parsed = JSON.parse(response.body.slice(response.jsonAfter)) as { ResponseMetadata?: unknown };
    return typeof parsed.ResponseMetadata === 'object' && parsed.ResponseMetadata !== null && !Array.isArray(parsed.ResponseMetadata);
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
  // The envelope after a prefix the target printed before it (a byte-order mark, PHP's "Deprecated: …" line) is still
  // this API: the run goes on, and every check that reads the body finds it unreadable, which is ENV-05's finding.
  if (json === undefined && envelopeAfterPrefix(exchange.response)) return undefined;
  if (status >= 300 && status < 400 && headers.location) return redirected(where, exchange, headers.location);
  if (json === undefined)
    return `target at ${where} did not answer with JSON (HTTP ${status}, ${type}: ${jsonError}); is AG_BASE_URL the base URL of the asset-group API?`;
  return undefined;
}

/**
 * A redirect (http to https, a moved host) is followed by no request of the kit: its tokens would go wherever the target
 * says. Where the address it names ends as the request's did, what comes before is the base URL to use instead.
 */
function redirected(where: string, exchange: Exchange, location: string): string {
  const path = exchange.request.url.slice(where.replace(/\/+$/, '').length);
  const base = path && location.endsWith(path) ? location.slice(0, -path.length) : undefined;
  return (
    `target at ${where} answered HTTP ${exchange.response!.status}, redirecting to ${location.slice(0, 300)}; the kit follows no redirect, ` +
    `since its tokens would go there too: ${base ? `if that is the asset-group API, set AG_BASE_URL to ${base}` : 'set AG_BASE_URL to the address of the asset-group API itself'}`
  );
}

/** One limit for every target of the run (a matrix batch has several). */
let lanes: Lanes | undefined;

/**
 * The create-and-wait phases under way in this process (a matrix batch runs one per target): requests are sent ahead
 * only once none is, so that no target's visibility polls wait behind another target's requests or their planning.
 */
const phasesRunning = new Set<Promise<unknown>>();
async function everyPhaseOver(): Promise<void> {
  while (phasesRunning.size) await Promise.allSettled([...phasesRunning]);
}

/**
 * Requests of the selected tests that need no earlier answer, sent by the runner (suites/families/): claimed at once, sent
 * a few at a time. Nothing where the phase failed: each test sends its own then, as before.
 */
function sendAhead(config: KitConfig & { baseURL: string }, dataset: Dataset, requests: () => PlannedRequest[], workers: number): Promise<void> {
  if (dataset.error) return Promise.resolve();
  // Not to a target that throttled the phase (every 429 or 503 a create got is counted in its retries; a throttled last
  // answer is among the phase's exchanges), or answered it past the evidence bounds (megabytes of error page): such
  // answers are not shared, so each test would send its request again, and the runner would hold many at once.
  if (dataset.retries[429] || dataset.retries[503] || phaseExchanges(dataset).some((ex) => isThrottled(ex) || !withinShareBounds(ex))) return Promise.resolve();
  try {
    const api = new Api(config, (_role, variable) => {
      throw new Error(`${variable} is not configured`);
    });
    lanes ??= new Lanes(sendAheadLanes(workers));
    return api.sendAhead(requests(), lanes).catch(() => undefined);
  } catch {
    // Sending ahead only saves time: whatever goes wrong here, each test sends its own requests.
    return Promise.resolve();
  }
}

/** What the runner sent while the phase waited for its groups: those plans' keys, and when their answers are in. */
interface SentEarly {
  keys: Set<string>;
  sent: Promise<void>;
}

/**
 * The selected plans that read none of the run's groups (AUTH, INPUT…), sent once the phase's creates are answered, while
 * it polls: the run no longer waits out the visibility lag before them. Fair to a target that limits creates: the phase's
 * creates were all answered first, and the polls it still sends are reads. Not in a process that runs several phases
 * (a matrix batch), where another target's polls would wait behind them.
 */
async function sendEarly(
  config: KitConfig & { baseURL: string },
  profile: Profile,
  partial: Dataset,
  selection: Promise<string[] | undefined>,
  workers: number,
): Promise<SentEarly> {
  const keys = phasesRunning.size > 1 ? undefined : await selection;
  if (!keys) return { keys: new Set(), sent: Promise.resolve() };
  const free = groupFreeRequests(keys, { config, profile });
  return { keys: free.keys, sent: sendAhead(config, partial, () => free.requests, workers) };
}

/** An error Playwright prints as its message alone: this is the target's state, not a kit crash. Target text in it is one line. */
function plainError(message: string, tokens: (string | undefined)[]): Error {
  message = oneLine(redactText(message, secretPattern(secretsOf([...tokens, ...registeredSecrets()]))), 4000);
  const error = new Error(message);
  error.stack = message;
  return error;
}

/**
 * Every fetched token, before anything is sent (config/tokens.ts). One that cannot be fetched is a mistake in the
 * configuration, said as playwright.config.ts says one: a line naming the variable, and the exit status of a
 * configuration error, before any worker starts.
 */
async function fetchTokensOrExit(config: KitConfig): ReturnType<typeof startTokens> {
  try {
    return await startTokens(config, TOKEN_VARIABLES);
  } catch (error) {
    if (!(error instanceof TokenSourceError)) throw error;
    console.error(`conformance kit: configuration error: ${oneLine(redactText(error.message, secretPattern(secretsFromEnv())), 1000)}`);
    if (!keepTemp()) removeRunDir(config.runId);
    // As playwright.config.ts exits on a configuration error.
    process.exit(EXIT.error);
  }
}

/** The create-and-wait phase, counted among those running in this process while it runs. */
async function runPhase(...args: Parameters<typeof buildDataset>): Promise<Dataset> {
  const building = buildDataset(...args);
  phasesRunning.add(building);
  try {
    return await building;
  } finally {
    phasesRunning.delete(building);
  }
}

/**
 * Runs once per run (per shard), after the embedded reference server is up: the shared
 * create-and-wait phase, which goes on while the workers start. Its teardown waits for the phase, then removes the run's private folder (AG_KEEP_TEMP=1 keeps it).
 */
export default async function globalSetup(fullConfig: FullConfig): Promise<() => void | Promise<void>> {
  // Resolved once, by playwright.config.ts; the embedded server's URL joins it now that the webServer is up.
  const resolved = kitConfigOf(fullConfig);
  if (!resolved) throw new ConfigError("no kit configuration in the Playwright config: run the suites with the kit's playwright.config.ts (use.kitConfig)");
  ensureRunDir(resolved.runId);
  clearTargetGone(resolved.runId);
  const tokens = await fetchTokensOrExit(withReferenceURL(resolved));
  const config = tokens.config;
  if (config.harAll) clearExchangeLog(exchangeLogDir(config.reportDir, config.runId));
  const teardown = () => {
    tokens.close();
    if (!keepTemp()) removeRunDir(config.runId);
  };
  if (!config.baseURL) return teardown; // the kit fixture reports the missing target in every test
  const target = { ...config, baseURL: config.baseURL };
  // Said once, by the runner: which proxy the run goes through, and whether it can read the tokens.
  const route = routeNote(config.baseURL);
  if (route) console.log(`agc: ${oneLine(route, 400)}`);
  const { problem, exchange } = await firstList(target);
  if (problem) {
    teardown();
    throw plainError(problem, Object.values(config.tokens));
  }
  // The phase runs on while Playwright starts the workers (seconds of loading on a small machine); the kit fixture
  // waits for its marker before any test sends, and the teardown for its end.
  clearPhaseDone(config.runId);
  const selection = selectionReported(fullConfig) ? selectedPlans() : Promise.resolve(undefined);
  const phase = (async (): Promise<Error | undefined> => {
    try {
      const profile = loadProfile(config.profilePath);
      // From here on the runner holds the dataset as the workers read it (bounded, evidence.ts), not the phase's
      // answers whole: it plans from what they will ask, and keeps no megabytes of a target's answers for the run.
      let early: Promise<SentEarly> | undefined;
      const built = await runPhase(target, profile, exchange, (partial) => (early = sendEarly(target, profile, partial, selection, fullConfig.workers)));
      const keys = await selection;
      const dataset = saveDataset(withSpareRequests(keys, { config, profile, dataset: built }));
      // For agc certify, which reads these groups back by Id after each later run (AG_KEEP_CREATED=1).
      if (config.keepCreated) writeCreated(config.reportDir, createdOf(dataset));
      // Planned and claimed once no other target's phase polls in this process (a matrix batch): that work, a few
      // hundred files and the properties' draws per target, held their polls up past the visibility timeout. Before the
      // marker: no test may ask for a request sent ahead before the runner has claimed it (suites/plans/).
      if (keys) await everyPhaseOver();
      const sentEarly = (await early) ?? { keys: new Set<string>(), sent: Promise.resolve() };
      const rest = keys?.filter((key) => !sentEarly.keys.has(key));
      const ahead = rest?.length ? sendAhead(target, dataset, () => sentAheadFor(rest, { config, profile, dataset }), fullConfig.workers) : Promise.resolve();
      markPhaseDone(config.runId);
      await Promise.all([ahead, sentEarly.sent]);
      return undefined;
    } catch (error) {
      const failed = plainError(error instanceof Error ? error.message : String(error), Object.values(config.tokens));
      markPhaseDone(config.runId, failed.message);
      return failed;
    }
  })();
  return async () => {
    // A run that ended before its tests were loaded has no selection to wait for.
    endSelection();
    const failed = await phase;
    teardown();
    if (failed) throw failed;
  };
}
