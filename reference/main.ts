/**
 * `npm run reference -- [options]`: runs the reference server in the foreground.
 *
 * Prints `AG_REFERENCE_URL=...` as its first stdout line (the kit's config captures it with a regex),
 * then the tokens as .env lines unless --no-print-tokens. Errors are one line on stderr, never a
 * stack trace; exit statuses are common/exit-codes.mjs's, the same for every agc command: 0 stopped
 * (or help and lists printed), 3 a usage error or a failure to start or to stop.
 */
import { parseArgs } from 'node:util';
import { referenceTokens, TOKEN_ROLES } from './config';
import { DURABILITY_MUTANTS, findMutant, MUTANTS, type Mutant } from './mutants';
import { findVariant, VARIANTS, type Variant } from './variants';
import { findProfileVariant, PROFILE_VARIANTS } from './profile-variants';
import { profileFromOverride } from '../schemas/profile';
import { DEFAULT_CREATE_RATE, startReferenceServer, type ReferenceOptions } from './server';
import { EXIT, EXIT_HELP } from '../common/exit-codes.mjs';

const DEFAULT_PORT = 8787;

const HELP = `Usage: npm run reference -- [options]

Runs the asset-group reference server on 127.0.0.1.

Options:
  --port N                    port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --lag MS                    ListAssetGroups snapshot refresh period in ms (default 300; 0 = none)
  --create-rate N|off         CreateAssetGroup creates per second per token, burst 2*N
                              (default ${DEFAULT_CREATE_RATE.perSecond}); "off" disables the limit
  --latency MS                delay added to every response in ms (default 0)
  --print-tokens              print the tokens as AG_TOKEN...= lines (default)
  --no-print-tokens           do not print the tokens
  --mutant NAME               serve a deliberately broken variant (see reference/mutants.ts)
  --list-mutants              list the mutants and exit
  --variant NAME              serve a legitimate variant: one choice the spec leaves open (see reference/variants.ts)
  --list-variants             list the variants and exit
  -h, --help                  show this help

Token values come from AG_REF_TOKEN, AG_REF_TOKEN_OTHER_USER, AG_REF_TOKEN_CHANNEL_A and
AG_REF_TOKEN_CHANNEL_B when set, else fixed defaults.

${EXIT_HELP}`;

class UsageError extends Error {}

function integerOption(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function parseCommandLine(
  argv: string[],
):
  | { help: true }
  | { listMutants: true }
  | { listVariants: true }
  | { help: false; options: ReferenceOptions; printTokens: boolean; mutant?: Mutant; variant?: Variant } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      tokens: true,
      options: {
        port: { type: 'string' },
        lag: { type: 'string' },
        'create-rate': { type: 'string' },
        latency: { type: 'string' },
        'print-tokens': { type: 'boolean' },
        'no-print-tokens': { type: 'boolean' },
        mutant: { type: 'string' },
        'list-mutants': { type: 'boolean' },
        variant: { type: 'string' },
        'list-variants': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // Node's messages name the option but run on with advice about "--"; keep the first sentence.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split(/\.\s/)[0].replace(/\.$/, ''));
  }
  const { values, tokens } = parsed;
  if (values.help) return { help: true };
  if (values['list-mutants']) return { listMutants: true };
  if (values['list-variants']) return { listVariants: true };

  const options: ReferenceOptions = { port: integerOption('port', values.port, 0, 65535) ?? DEFAULT_PORT };
  options.lagMs = integerOption('lag', values.lag, 0, 86_400_000);
  options.latencyMs = integerOption('latency', values.latency, 0, 600_000);
  const rate = values['create-rate'];
  if (rate !== undefined) {
    if (rate.toLowerCase() === 'off') options.createRate = null;
    else if (/^\d+(\.\d+)?$/.test(rate) && Number(rate) > 0) options.createRate = { perSecond: Number(rate), burst: Math.max(1, 2 * Number(rate)) };
    else throw new UsageError(`--create-rate must be a positive number or "off", got ${JSON.stringify(rate)}`);
  }
  // The last of --print-tokens / --no-print-tokens wins, as with a negatable flag.
  let printTokens = true;
  for (const token of tokens ?? []) {
    if (token.kind === 'option' && token.name === 'print-tokens') printTokens = true;
    if (token.kind === 'option' && token.name === 'no-print-tokens') printTokens = false;
  }
  for (const key of ['lagMs', 'latencyMs'] as const) if (options[key] === undefined) delete options[key];
  const mutant = values.mutant === undefined ? undefined : findMutant(values.mutant);
  if (values.mutant !== undefined && !mutant) throw new UsageError(`--mutant: no mutant named ${JSON.stringify(values.mutant)} (--list-mutants lists them)`);
  if (mutant) options.hooks = mutant.hooks;
  const profileVariant = values.variant === undefined ? undefined : findProfileVariant(values.variant);
  const variant =
    values.variant === undefined ? undefined : (findVariant(values.variant) ?? (profileVariant && { ...profileVariant, hooks: profileVariant.hooks ?? {} }));
  if (values.variant !== undefined && !variant)
    throw new UsageError(`--variant: no variant named ${JSON.stringify(values.variant)} (--list-variants lists them)`);
  if (variant && mutant) throw new UsageError('--variant and --mutant exclude each other');
  if (variant) options.hooks = variant.hooks;
  // A variant of a profile choice serves its own profile: run the kit against it with AG_PROFILE, or see the mismatch named without.
  if (profileVariant) options.profile = profileFromOverride(profileVariant.profile, profileVariant.name);
  return { help: false, options, printTokens, mutant, variant };
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`reference: ${error.message} (see --help)\n`);
    process.exit(EXIT.error);
  }
  if ('listMutants' in command) {
    process.stdout.write([...MUTANTS, ...DURABILITY_MUTANTS].map((m) => `${m.name}  (${m.breaks})  ${m.description}\n`).join(''));
    return;
  }
  if ('listVariants' in command) {
    process.stdout.write(VARIANTS.map((v) => `${v.name}  ${v.description}\n`).join(''));
    process.stdout.write(PROFILE_VARIANTS.map((v) => `${v.name}  (profile) ${v.description}\n`).join(''));
    return;
  }
  if (command.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }

  let server;
  try {
    server = await startReferenceServer(command.options);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const reason = e.code === 'EADDRINUSE' ? `port ${command.options.port} is already in use` : (e.message ?? String(error)).split('\n')[0];
    process.stderr.write(`reference: cannot start: ${reason}\n`);
    process.exit(EXIT.error);
  }

  // On stderr: the first stdout line stays AG_REFERENCE_URL, which the kit's config waits for.
  if (command.variant) process.stderr.write(`reference: serving variant ${command.variant.name}: ${command.variant.description}\n`);
  if (command.mutant)
    process.stderr.write(`reference: serving mutant ${command.mutant.name}, which breaks ${command.mutant.breaks}: ${command.mutant.description}\n`);
  const lines = [`AG_REFERENCE_URL=${server.url}`];
  if (command.printTokens) {
    const tokens = referenceTokens();
    for (const info of TOKEN_ROLES) lines.push(`${info.clientEnv}=${tokens[info.role]}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(EXIT.ok),
      () => process.exit(EXIT.error),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`reference: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
  process.exit(EXIT.error);
});
