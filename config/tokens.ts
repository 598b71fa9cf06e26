/**
 * Tokens fetched rather than given (docs/tokens.md): per role, a command that prints one (`<VAR>_COMMAND`) or OAuth 2.0
 * client credentials (`<VAR>_CLIENT_ID`, `<VAR>_CLIENT_SECRET`, `<VAR>_URL`, `<VAR>_SCOPE`, `<VAR>_AUDIENCE`), where
 * `<VAR>` is the role's token variable (AG_TOKEN, AG_TOKEN_OTHER_USER, …). The runner fetches them before the run and
 * serves them to its workers (client/token-broker.ts); each process fills its configuration's tokens from there.
 */
import type { KitConfig, TokenRole } from './index';
import type { Exchange } from '../client/exchange';
import { markTargetGone } from '../client/run-dir';
import { BROKER_KEY, BROKER_URL, ownerStore, startBroker, tokenStore, useTokenStore, type Held, type TokenStore } from '../client/token-broker';
import { fetchToken, TokenSourceError } from '../client/token-source';
import { tokenSourcesFromEnv } from '../client/token-env';

export { TokenSourceError } from '../client/token-source';

/** The configuration with each fetched role's current token, as `config.tokens` holds the given ones. */
async function filled(config: KitConfig, store: TokenStore): Promise<KitConfig> {
  const tokens = { ...config.tokens };
  const held = await Promise.all(config.fetchedRoles.map((role) => store.fresh(role)));
  config.fetchedRoles.forEach((role, i) => (tokens[role] = held[i].token));
  return { ...config, tokens };
}

/**
 * The runner's part, before anything is sent: every fetched token fetched (a TokenSourceError names the variable), the
 * broker started and its address put in the environment the workers inherit.
 */
export async function startTokens(
  config: KitConfig,
  tokenVariables: Record<TokenRole, string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: KitConfig; close: () => void }> {
  if (!config.fetchedRoles.length) return { config, close: () => undefined };
  const sources = tokenSourcesFromEnv(env, tokenVariables);
  const store = ownerStore((role) => fetchToken(sources[role as TokenRole]!, role, config.requestTimeoutMs, env));
  useTokenStore(store);
  const ready = await filled(config, store);
  const broker = await startBroker(store, config.fetchedRoles);
  env[BROKER_URL] = broker.url;
  env[BROKER_KEY] = broker.key;
  return { config: ready, close: broker.close };
}

/** A worker's part: the current tokens from the runner's broker. */
export async function workerTokens(config: KitConfig): Promise<KitConfig> {
  if (!config.fetchedRoles.length) return config;
  const store = tokenStore(brokerTimeoutMs(config));
  if (!store) throw new TokenSourceError(`no token broker in this process's environment (${BROKER_URL}): run the suites with the kit's playwright.config.ts`);
  return filled(config, store);
}

/** A worker waits for the runner's fetch, which may run a command for up to 30 s. */
export const brokerTimeoutMs = (config: Pick<KitConfig, 'requestTimeoutMs'>) => Math.max(config.requestTimeoutMs, 30_000) + 5_000;

/** The latest token of a fetched role this process holds; undefined for a role given as is. */
export function currentToken(config: KitConfig, role: TokenRole): string | undefined {
  return config.fetchedRoles.includes(role) ? tokenStore(brokerTimeoutMs(config))?.current(role)?.token : undefined;
}

/**
 * Sends with the role's fetched token, renewed first if it is due. A 401 to it, where `refreshOn401` allows, renews it
 * (once for every request refused at the same time) and sends the request once more: that first answer is dropped, never
 * judged. A token that cannot be renewed ends the run as a target gone away would (client/run-dir.ts): every request
 * from then on is recorded as not sent, with the reason.
 */
export async function sendWithFetched(
  config: KitConfig,
  role: TokenRole,
  refreshOn401: boolean,
  sendWith: (token: string) => Promise<Exchange>,
): Promise<Exchange> {
  const store = tokenStore(brokerTimeoutMs(config));
  const unavailable = (error: unknown) => {
    markTargetGone(config.runId, `the ${role} token could not be renewed: ${error instanceof TokenSourceError ? error.message : 'unknown error'}`);
    return sendWith(store?.current(role)?.token ?? '');
  };
  if (!store) return unavailable(new TokenSourceError(`no token broker in this process (${BROKER_URL})`));
  let held: Held;
  try {
    held = await store.fresh(role);
  } catch (error) {
    return unavailable(error);
  }
  const first = await sendWith(held.token);
  if (!refreshOn401 || first.response?.status !== 401) return first;
  try {
    held = await store.after401(role, held.generation);
  } catch (error) {
    return unavailable(error);
  }
  return sendWith(held.token);
}
