/**
 * `agc profile discover --out FILE`: probes a target and drafts its profile file. The command itself,
 * given its arguments, environment and output (discover/main.ts gives it the process's): the kit's own
 * tests run several side by side in one process.
 *
 * The target is chosen as for `agc run`: AG_BASE_URL (or --base-url) and AG_TOKEN from the
 * environment or .env. Without a base URL the embedded reference server is started and discovered,
 * which drafts the reference profile's own values: a demonstration, and a check of the tool.
 *
 * Exit status (common/exit-codes.mjs, the same for every agc command): 0 the draft is written and
 * passes the kit's profile validation; 2 the target could not be probed (unreachable, hung, not
 * this API, no group could be created); 3 a usage or configuration error (a refused token
 * included), or a draft the kit's validation refuses.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, prepareRunEnvironment, TOKEN_VARIABLES, type KitConfig } from '../config';
import { startTokens, TokenSourceError } from '../config/tokens';
import { loadProfile, ProfileError } from '../schemas/profile';
import { BUDGET, Discoverer, TargetError, TokenError } from './discovery';
import { renderDraft } from './draft';
import { EXIT, EXIT_HELP } from '../common/exit-codes.mjs';
import { neverProxy, routeNote } from '../client/network';

const HELP = `Usage: agc profile discover --out FILE [options]

Probes the target and writes a draft profile file for it: the choices it made where the spec says
"not shown" (field names of the list filters and of paging, where an error body carries its kind,
how the Name filter matches, required create fields, their length bounds and the unit they count
in, the largest and the default page size, what a larger page size and a page past the end get,
the timestamp format). Each setting in the draft says what was sent and what came back; what the
answers do not settle stays at the reference value (spec/profile.yaml) with a note saying why.
Review the draft, then run the kit with it: AG_PROFILE=FILE npx agc run.

What it does to the target: at most ${BUDGET.requests} requests and at most ${BUDGET.creates} groups created, each with a
Name starting with agc-<run-id>-; a refused create creates nothing and counts as a request only.
The list is probed first; the length bounds last, with the creates left. Once the Id filter is
found, every list request is limited to those groups. Field names are guessed among the conventions of this API family (PageNumber/PageSize,
PageNo, Page/Size, Limit, GroupIds, Ids, GroupIdList, ...) and recognised only by their effect on the
run's own groups. The groups cannot be deleted: the spec shows no delete operation.

Options:
  --out FILE                  where to write the draft (required)
  --force                     overwrite FILE if it exists
  --name NAME                 the profile's name in the draft (default: discovered)
  --base-url URL              the target's base URL [AG_BASE_URL]; without one, the embedded
                              reference server is started and discovered (a demonstration)
  --request-timeout MS        ms one request may take (default 15000) [AG_REQUEST_TIMEOUT_MS]
  --visibility-timeout MS     ms a created group may take to appear in lists (default 60000;
                              10000 embedded) [AG_VISIBILITY_TIMEOUT_MS]
  --ca-file FILE              a CA certificate (PEM) to trust besides Node's, for a target
                              behind a private CA [AG_CA_FILE]
  -h, --help                  show this help

The token comes from AG_TOKEN in the environment or .env, never from an option; it is never
written to the draft or the output. AG_PROFILE is ignored: discovery starts from the reference
profile.

For agc profile discover: 0 draft written and valid; 2 the target could not be probed
(unreachable, hung, not this API); 3 usage or configuration error (e.g. AG_TOKEN missing or refused).

${EXIT_HELP}`;

class UsageError extends Error {}

/** Where the command reads its settings and writes what it says. */
export interface DiscoverIo {
  /** Read, and given the run's own values (prepareRunEnvironment): a copy, unless it is the process's own. */
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The command: its exit status (common/exit-codes.mjs); every error it expects is said on stderr. */
export async function discoverProfile(argv: string[], io: DiscoverIo): Promise<number> {
  /** Token values seen in this run; blotted out of anything printed or written. */
  const secrets: string[] = [];
  const redact = (text: string): string => {
    let out = text;
    for (const secret of secrets) if (secret) out = out.split(secret).join('<AG_TOKEN>');
    return out;
  };
  const say = (line: string) => io.stdout(`${redact(line)}\n`);
  const fail = (message: string) => io.stderr(`agc profile discover: ${redact(message)}\n`);
  try {
    return await main(argv, io.env, { secrets, redact, say, fail });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof ProfileError) {
      fail(error.message);
      return EXIT.error;
    }
    fail(`internal error: ${(error as Error)?.stack ?? error}`);
    return EXIT.error;
  }
}

interface Output {
  secrets: string[];
  redact: (text: string) => string;
  say: (line: string) => void;
  fail: (message: string) => void;
}

async function main(argv: string[], env: NodeJS.ProcessEnv, { secrets, redact, say, fail }: Output): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: 'string' },
        force: { type: 'boolean' },
        name: { type: 'string' },
        'base-url': { type: 'string' },
        'request-timeout': { type: 'string' },
        'visibility-timeout': { type: 'string' },
        'ca-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    say(HELP);
    return EXIT.ok;
  }
  if (!values.out) throw new UsageError('--out FILE is required: where to write the draft profile');
  const out = path.resolve(values.out);
  if (existsSync(out) && !values.force) throw new UsageError(`${out} exists; pass --force to overwrite it`);
  const name = values.name ?? 'discovered';
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name))
    throw new UsageError(`--name must be 1 to 64 letters, digits, dots, dashes or underscores, not ${JSON.stringify(name)}`);
  for (const [option, variable] of [
    ['base-url', 'AG_BASE_URL'],
    ['request-timeout', 'AG_REQUEST_TIMEOUT_MS'],
    ['visibility-timeout', 'AG_VISIBILITY_TIMEOUT_MS'],
  ] as const) {
    const value = values[option];
    if (value === '') throw new UsageError(`--${option} needs a value`);
    if (value !== undefined) env[variable] = value;
  }
  if (values['ca-file'] === '') throw new UsageError('--ca-file needs a value');
  if (values['ca-file'] !== undefined) env.AG_CA_FILE = path.resolve(values['ca-file']);
  if (env.AG_PROFILE) {
    say(`AG_PROFILE is ignored: discovery starts from the reference profile (spec/profile.yaml)`);
    delete env.AG_PROFILE;
  }

  prepareRunEnvironment(env);
  // A fetched token (docs/tokens.md) is fetched once: a discovery sends a few hundred requests, and renews nothing.
  const config = await withFetchedTokens(loadConfig(env), env);
  for (const token of Object.values(config.tokens)) if (token) secrets.push(token);
  const reference = loadProfile();

  let baseURL = config.baseURL;
  let close = async () => {};
  if (config.embedded) {
    const { startReferenceServer } = await import('../reference/server');
    const { referenceUsers } = await import('../reference/config');
    const server = await startReferenceServer({ port: 0, users: referenceUsers(env) });
    baseURL = server.url;
    neverProxy(baseURL);
    close = () => server.close();
    say(`no AG_BASE_URL: discovering the embedded reference server at ${baseURL} (a demonstration; set AG_BASE_URL and AG_TOKEN for your target)`);
  }
  const token = config.tokens.primary;
  if (!baseURL || !token) throw new ConfigError("AG_TOKEN is required with AG_BASE_URL: the primary user's Bearer token");

  say(
    `discovering the profile of ${baseURL} (run ${config.runId}; at most ${BUDGET.requests} requests and ${BUDGET.creates} groups created, Names starting with ${config.namePrefix})`,
  );
  const route = routeNote(baseURL, env);
  if (route) say(route);
  const discoverer = new Discoverer(
    { baseURL, env, token, requestTimeoutMs: config.requestTimeoutMs, visibilityTimeoutMs: config.visibilityTimeoutMs, runId: config.runId },
    reference,
    (line) => say(`  ${line.length > 240 ? `${line.slice(0, 240)}…` : line}`),
  );
  const shown = path.relative(process.cwd(), out).startsWith('..') ? out : path.relative(process.cwd(), out) || out;
  const used = () => `${discoverer.requests} requests of ${BUDGET.requests}, ${discoverer.created.length} groups created of ${BUDGET.creates}`;
  try {
    const discovery = await discoverer.run();
    const { text } = renderDraft(discovery, reference, { name, target: baseURL, date: new Date().toISOString(), file: shown });
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, redact(text));
    // The kit's own validation, on the file as written: shape, then settings against $defs.
    const { checkProfileConsistency } = await import('../schemas');
    let problems: string[];
    try {
      problems = checkProfileConsistency(loadProfile(out));
    } catch (error) {
      problems = [(error as Error).message];
    }
    if (problems.length) {
      fail(`the draft at ${out} does not pass the kit's profile validation (a bug of discover; please report it):\n  - ${problems.join('\n  - ')}`);
      return EXIT.error;
    }
    const found = [...discovery.decisions.values()].filter((d) => d.determined).length;
    say(`draft written: ${out}`);
    say(
      `${found} settings found, ${discovery.decisions.size - found} kept at the reference value; used ${used()} (${discovery.createRequests} create requests)`,
    );
    say(`review it, then: AG_PROFILE=${shown} npx agc run`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof TargetError) {
      fail(`${error.message}\nno draft written; used ${used()}`);
      return EXIT.incomplete;
    }
    if (error instanceof TokenError) {
      fail(`${error.message}\nno draft written; used ${used()}`);
      return EXIT.error;
    }
    throw error;
  } finally {
    await close();
  }
}

/** The configuration with its fetched tokens; one that cannot be fetched is a configuration error naming its variable. */
async function withFetchedTokens(config: KitConfig, env: NodeJS.ProcessEnv): Promise<KitConfig> {
  try {
    return (await startTokens(config, TOKEN_VARIABLES, env)).config;
  } catch (error) {
    throw error instanceof TokenSourceError ? new ConfigError(error.message) : error;
  }
}
