/** Each role's token source, read from the environment and checked (docs/tokens.md): a command, or OAuth client credentials. */
import { parseCommand, TokenSourceError, type TokenSource } from './token-source';

/** Hosts a token endpoint may be reached on over plain http: the client secret crosses no network there. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The variables of one role's sources, each starting with its token variable (`prefix`). */
export const sourceVariables = (prefix: string) => ({
  command: `${prefix}_COMMAND`,
  clientId: `${prefix}_CLIENT_ID`,
  clientSecret: `${prefix}_CLIENT_SECRET`,
  url: `${prefix}_URL`,
  scope: `${prefix}_SCOPE`,
  audience: `${prefix}_AUDIENCE`,
  clientAuth: `${prefix}_CLIENT_AUTH`,
});

const value = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
};

/**
 * Each role's token source from the environment, checked: one source per role at most, every variable it needs set.
 * The endpoint's URL, scope, audience and client authentication of another role default to the primary's (one identity
 * provider, a client per role). Throws TokenSourceError naming the variable.
 */
export function tokenSourcesFromEnv<Role extends string>(
  env: NodeJS.ProcessEnv,
  tokenVariables: Record<Role, string> & { primary: string },
): Partial<Record<Role, TokenSource>> {
  const primary = sourceVariables(tokenVariables.primary);
  const sources: Partial<Record<Role, TokenSource>> = {};
  for (const [role, prefix] of Object.entries(tokenVariables) as [Role, string][]) {
    const names = sourceVariables(prefix);
    const command = value(env, names.command);
    const clientId = value(env, names.clientId);
    const given = [env[prefix] !== undefined && prefix, command && names.command, clientId && names.clientId].filter(Boolean);
    if (given.length > 1) throw new TokenSourceError(`${given.join(' and ')} are both set: give the ${role} token one way`);
    if (value(env, names.clientSecret) && !clientId) throw new TokenSourceError(`${names.clientSecret} is set without ${names.clientId}`);
    if (command) sources[role] = { kind: 'command', variable: names.command, argv: parseCommand(command, names.command) };
    if (!clientId) continue;
    const inherit = (own: string, fallback: string) => value(env, own) ?? value(env, fallback);
    const url = inherit(names.url, primary.url);
    if (!url)
      throw new TokenSourceError(`${names.url}${role === 'primary' ? '' : ` (or ${primary.url})`} is required with ${names.clientId}: the token endpoint`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TokenSourceError(`${names.url} is not a URL`);
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)))
      throw new TokenSourceError(`${names.url} must be https (plain http only on 127.0.0.1 or localhost): the client secret is sent to it`);
    if (!value(env, names.clientSecret)) throw new TokenSourceError(`${names.clientSecret} is required with ${names.clientId}`);
    const clientAuth = inherit(names.clientAuth, primary.clientAuth) ?? 'basic';
    if (clientAuth !== 'basic' && clientAuth !== 'post')
      throw new TokenSourceError(`${names.clientAuth} must be basic or post, not ${JSON.stringify(clientAuth)}`);
    const scope = inherit(names.scope, primary.scope);
    const audience = inherit(names.audience, primary.audience);
    sources[role] = {
      kind: 'clientCredentials',
      variable: names.clientId,
      url,
      clientId,
      secretVariable: names.clientSecret,
      clientAuth,
      ...(scope ? { scope } : {}),
      ...(audience ? { audience } : {}),
    };
  }
  return sources;
}
