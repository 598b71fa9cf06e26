/**
 * `agc compare` (bin/agc.mjs runs this file through tsx, in the user's folder): several implementations' reports side by
 * side. It reads conformance.json files and certificates (compare/read.ts), lines them up (compare/model.ts) and writes
 * compare.json, compare.html (compare/html.ts) and a badge per implementation. With --targets it first makes the runs
 * itself, one `agc run` per target (compare/targets.ts).
 *
 * Exit status (common/exit-codes.mjs): 0 when the comparison is written, whatever the implementations' verdicts; 3 on a usage
 * error (an input that is not a report, a bad option), said in one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { oneLine } from '../client/safe-text';
import { loadCatalogue } from '../schemas/requirements';
import { ProfileError } from '../schemas/profile';
import { guardFile } from '../reporters/collect';
import { profileSettings } from '../reporters/json';
import { EXIT, EXIT_HELP } from '../common/exit-codes.mjs';
import { CompareInputError, readInputs } from './read';
import { buildComparison } from './model';
import { badgeOf, renderComparePage } from './html';
import { runTargets, TargetsError } from './targets';

export const COMPARE_HELP = `Usage: agc compare [REPORT | CERTIFICATE | FOLDER]... [--out DIR] [--name PATH=NAME]... [--targets FILE]

Sets several implementations' results side by side: one row per requirement, one column per
implementation, the rows where they differ first, and portability notes (the profile settings
on which conformant implementations chose differently). Works offline from the files alone.

Inputs: conformance.json files, certificates (certificate.json or *.certificate.json, with their
runs' reports beside them), or folders searched for both (a CI matrix's downloaded artifacts).

Options:
  --out DIR                   where compare.html, compare.json and badge-*.svg go (default conformance-compare)
  --name PATH=NAME            name the implementation read from PATH (a report, certificate or their folder);
                              by default each is named by its base URL, without credentials, query or fragment
  --targets FILE              a YAML list of targets to run first (name, baseUrl, profile, tokens: the names
                              of the variables holding each role's token); their runs go to DIR/runs/NAME
  --workers N                 parallel workers of each run of --targets (default agc run's)
  -h, --help                  show this help

${EXIT_HELP}`;

class UsageError extends Error {}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        out: { type: 'string' },
        name: { type: 'string', multiple: true },
        targets: { type: 'string' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function namesOf(given: string[] = []): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of given) {
    const at = entry.lastIndexOf('=');
    const name = entry.slice(at + 1).trim();
    if (at <= 0 || !name) throw new UsageError(`--name takes PATH=NAME, not ${entry}`);
    if (name.length > 80) throw new UsageError(`--name ${entry.slice(0, at)}: a name of at most 80 characters`);
    names.set(path.resolve(entry.slice(0, at)), oneLine(name, 80));
  }
  return names;
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) return (console.log(COMPARE_HELP), EXIT.ok);
  const outDir = path.resolve(values.out || 'conformance-compare');
  const names = namesOf(values.name);
  const inputs = [...positionals];
  if (values.targets) {
    if (values.workers && !/^[1-9]\d*$/.test(values.workers)) throw new UsageError(`--workers must be a positive whole number, not ${values.workers}`);
    const runs = await runTargets(path.resolve(values.targets), path.join(outDir, 'runs'), values.workers);
    for (const run of runs) {
      names.set(run.reportDir, run.name);
      inputs.push(run.reportDir);
    }
  }
  if (!inputs.length) throw new UsageError('agc compare needs reports, certificates or folders to compare, or --targets FILE (agc compare --help)');
  const sources = readInputs(inputs);
  if (sources.length < 2) throw new UsageError(`${sources.length} implementation found in ${inputs.join(', ')}: compare needs two at least`);
  const catalogue = loadCatalogue();
  const comparison = buildComparison(sources, {
    outDir,
    names,
    referenceSettings: profileSettings(null) ?? {},
    settingsReadBy: catalogue.requirements.filter((r) => r.settings?.length).map((r) => ({ id: r.id, settings: r.settings! })),
    now: new Date(),
  });
  mkdirSync(outDir, { recursive: true });
  const written = [path.join(outDir, 'compare.json'), path.join(outDir, 'compare.html')];
  writeFileSync(written[0], `${JSON.stringify(comparison, null, 2)}\n`);
  writeFileSync(written[1], renderComparePage(comparison));
  for (const impl of comparison.implementations) {
    written.push(path.join(outDir, impl.badge));
    writeFileSync(written[written.length - 1], badgeOf(impl));
  }
  // The reports are redacted already; this is the last guard, as every report of the kit has.
  for (const file of written) guardFile(file);
  console.log(
    `agc compare: ${comparison.implementations.length} implementations, ${comparison.differing} of ${comparison.rows.length} requirements differ, ${comparison.portability.notes.length} portability note(s)`,
  );
  for (const impl of comparison.implementations) console.log(`  ${oneLine(impl.name, 100)}: ${impl.verdict}`);
  console.log(`Comparison: ${path.join(outDir, 'compare.html')}`);
  return EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    const expected = [UsageError, CompareInputError, TargetsError, ProfileError].some((kind) => error instanceof kind);
    const text = expected ? (error as Error).message : String((error as Error)?.stack ?? error);
    console.error(
      `agc compare: ${text
        .split('\n')
        .map((line) => oneLine(line))
        .join('\n')}`,
    );
    process.exit(EXIT.error);
  },
);
