/**
 * The programs behind `agc certify` and `agc verify` (bin/agc.mjs runs this file through tsx with
 * the command first). bin/agc.mjs has already turned the run options into the environment (and read
 * .env), as for `agc run`; what is left here is the certification's own options.
 *
 * Exit status (common/exit-codes.mjs): certify exits as `agc run` does, with the combined verdict
 * (the worst of its runs'); verify exits 0 when everything matches, 1 when anything does not, 3
 * on a usage error (an unreadable certificate or key included).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { oneLine } from '../client/safe-text';
import { ProfileError } from '../schemas/profile';
import { WaiverError } from '../reporters/waivers';
import { EXIT, EXIT_HELP } from '../common/exit-codes.mjs';
import { KeyError, privateKeyFrom, publicKeyFrom } from './certificate';
import { certify, CertifyError } from './certify';
import { DEFAULT_SPAN, parseSpan, SPAN_USAGE } from './durability';
import { CertificateError, verifyCertificate } from './verify';

export const VERIFY_HELP = `Usage: agc verify CERT [--public-key FILE]

Checks a certificate written by agc certify: the sha256 of every run's conformance.json and exchanges.har it names
(paths relative to the certificate's folder), the certificate's seeds and verdicts against those
reports, and, with --public-key, its Ed25519 signature. Prints each mismatch on its own line.

Options:
  --public-key FILE           the signer's Ed25519 public key (PEM); without it the signature is not checked
  -h, --help                  show this help

Exit status: 0 everything matches; 1 something does not; 3 a usage error (no CERT, an unreadable
certificate or key).
${EXIT_HELP}`;

class UsageError extends Error {}

function readText(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${option} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

function parse<const T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function runCertify(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    runs: { type: 'string' },
    'sign-key': { type: 'string' },
    workers: { type: 'string' },
    span: { type: 'string' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const runs = values.runs ?? '3';
  if (!/^[1-9]\d*$/.test(runs) || Number(runs) > 100) throw new UsageError(`--runs must be a whole number from 1 to 100, not ${runs}`);
  const span = values.span ?? DEFAULT_SPAN;
  const spanMs = parseSpan(span);
  if (spanMs === undefined) throw new UsageError(`${SPAN_USAGE}, not ${JSON.stringify(span)}`);
  if (spanMs > 0 && Number(runs) < 2) throw new UsageError(`--span ${span} spreads runs over time: it needs --runs 2 or more`);
  // Each run against the embedded server starts a server of its own: there is nothing of an earlier run to read back later.
  if (spanMs > 0 && !process.env.AG_BASE_URL)
    throw new UsageError(
      `--span ${span} needs --base-url: without it each run starts its own embedded reference server, and nothing lasts from one run to the next`,
    );
  const seed = process.env.AG_SEED?.trim();
  if (seed && !/^-?\d+$/.test(seed)) throw new UsageError(`--seed (AG_SEED) must be a whole number, not ${seed}`);
  const keyFile = values['sign-key'];
  const signKey = keyFile ? privateKeyFrom(readText(path.resolve(keyFile), '--sign-key'), keyFile) : undefined;
  return certify({
    runs: Number(runs),
    reportDir: path.resolve(process.env.AG_REPORT_DIR || 'certification'),
    seed: seed ? Number(seed) : undefined,
    signKey,
    workers: values.workers,
    spanMs,
    env: process.env,
  });
}

function runVerify(args: string[]): number {
  const { values, positionals } = parse(args, { 'public-key': { type: 'string' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) return (console.log(VERIFY_HELP), EXIT.ok);
  if (positionals.length !== 1) throw new UsageError('agc verify takes one CERT: the certificate.json written by agc certify (agc verify --help)');
  const keyFile = values['public-key'];
  const publicKey = keyFile ? publicKeyFrom(readText(path.resolve(keyFile), '--public-key'), keyFile) : undefined;
  const result = verifyCertificate(positionals[0], publicKey);
  for (const problem of result.problems) console.log(`mismatch: ${oneLine(problem)}`);
  const hars = result.harsMatched.length;
  const reports = `${result.matched.length} run report${result.matched.length === 1 ? '' : 's'} matched ${result.matched.length === 1 ? 'its' : 'their'} sha256${hars ? `, and ${hars} exchanges.har ${hars === 1 ? 'its' : 'theirs'}` : ''}`;
  const signature = result.signatureChecked ? 'the signature was checked' : 'the signature was NOT checked (no --public-key)';
  if (result.problems.length) {
    console.log(
      `agc verify: the certificate does not hold: ${result.problems.length} mismatch${result.problems.length === 1 ? '' : 'es'}; ${reports}; ${signature}`,
    );
    return EXIT.nonConformant;
  }
  console.log(`agc verify: the certificate holds: ${reports}; ${result.signatureChecked ? 'the signature matches the given public key' : signature}`);
  return EXIT.ok;
}

async function main([command, ...args]: string[]): Promise<number> {
  if (command === 'certify') return runCertify(args);
  if (command === 'verify') return runVerify(args);
  throw new UsageError(`certify/main.ts runs certify or verify, not ${command}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    const command = process.argv[2] === 'verify' ? 'verify' : 'certify';
    const expected = [UsageError, KeyError, CertificateError, CertifyError, ProfileError, WaiverError].some((kind) => error instanceof kind);
    const text = expected ? (error as Error).message : String((error as Error)?.stack ?? error);
    console.error(
      `agc ${command}: ${text
        .split('\n')
        .map((line) => oneLine(line))
        .join('\n')}`,
    );
    process.exit(EXIT.error);
  },
);
