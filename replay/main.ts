/**
 * The program behind `agc replay` (bin/agc.mjs runs this file through tsx, in the user's folder):
 * reads a report, sends its failing exchanges again (replay/replay.ts) and says per finding what
 * became of it. Tokens come from the environment (or the .env of the folder), as for `agc run`.
 *
 * Exit status (common/exit-codes.mjs): 1 when a finding still fails or is flaky, 2 when none does but a request got
 * no answer, 0 otherwise (fixed, not reproducible, not re-judgeable), 3 on a usage error.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { redactText, secretPattern, secretsFromEnv } from '../client/redact';
import { oneLine } from '../client/safe-text';
import { errorKinds, profileAt } from '../schemas';
import { EXIT, EXIT_HELP } from '../common/exit-codes.mjs';
import { countsOf, findingsOf, MAX_FINDINGS, MAX_REPEAT, OUTCOMES, replay, type Replayed, type Report } from './replay';

export const REPLAY_HELP = `Usage: agc replay REPORT [--base-url URL] [--requirement ID[,ID…]] [--repeat N] [--json FILE]

Sends the failing exchanges of a report (a conformance.json, or the folder holding it) again and
judges each answer with the check that failed. Per finding it says:
  still failing      the check fails on the new answer
  fixed              the check passes, against another target than the report's (--base-url)
  not reproducible   the check passes against the report's own target: the failure did not repeat
  no answer          the request got no HTTP answer
  flaky              with --repeat N: it failed at some sendings and passed at others (both kept)
  not re-judgeable   the check or the request cannot be rebuilt from the report alone (it says why)

Tokens come from AG_TOKEN, AG_TOKEN_OTHER_USER, AG_TOKEN_CHANNEL_A and AG_TOKEN_CHANNEL_B (or .env),
never from options. At most ${MAX_FINDINGS} findings are sent again, one at a time.

Options:
  --base-url URL              send to this target instead of the report's (required for a report of
                              the embedded reference server, whose port was the run's own) [AG_BASE_URL]
  --requirement ID[,ID…]      only the findings of these requirements
  --profile FILE              the profile the checks read (default: the report's) [AG_PROFILE]
  --repeat N                  send each request N times (at most ${MAX_REPEAT}; default 1): a failure
                              that does not repeat every time is flaky
  --json FILE                 also write the outcomes as JSON
  --request-timeout MS        ms one request may take (default 15000) [AG_REQUEST_TIMEOUT_MS]
  -h, --help                  show this help

Exit status: 1 a finding still fails, or is flaky; 2 none does, but a request got no answer; 0 otherwise;
3 a usage error (no report, an unreadable one, no target).
${EXIT_HELP}`;

class UsageError extends Error {}

function readReport(file: string): { file: string; report: Report } {
  const resolved = existsSync(file) && statSync(file).isDirectory() ? path.join(file, 'conformance.json') : file;
  let report: Report;
  try {
    report = JSON.parse(readFileSync(resolved, 'utf8')) as Report;
  } catch (error) {
    throw new UsageError(`cannot read the report ${resolved}: ${(error as Error).message}`);
  }
  if (!report || !Array.isArray(report.requirements) || typeof report.target !== 'object')
    throw new UsageError(`${resolved} is not a conformance.json of the kit (no requirements or target)`);
  return { file: resolved, report };
}

function checkedURL(url: string, option: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // said below
  }
  throw new UsageError(`${option} must be an http:// or https:// URL, not ${JSON.stringify(url)}`);
}

/** One console line per finding: the target's text on one line, bounded. */
function line(r: Replayed): string {
  const status = r.after ? (r.after.status === null ? 'no answer' : `HTTP ${r.after.status}`) : 'not sent';
  return `${r.outcome.padEnd(17)} ${oneLine(r.requirement, 40)} (${oneLine(r.level, 20)}) ${oneLine(r.check, 200)} [${status}]: ${oneLine(r.detail, 500)}`;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      requirement: { type: 'string' },
      profile: { type: 'string' },
      json: { type: 'string' },
      'request-timeout': { type: 'string' },
      repeat: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return (console.log(REPLAY_HELP), EXIT.ok);
  if (positionals.length !== 1) throw new UsageError('agc replay needs one REPORT: a conformance.json or the folder holding it');
  // The .env of the folder it runs in, as agc run reads it; the environment wins.
  if (existsSync('.env')) dotenv.config({ path: path.resolve('.env'), quiet: true });
  const { file, report } = readReport(positionals[0]);
  const reportBase = report.target.baseURL;
  const given = values['base-url'] ?? process.env.AG_BASE_URL;
  if (!given && (report.target.embedded || !reportBase))
    throw new UsageError('the report was made against the embedded reference server, which is gone: name the target with --base-url');
  const targetBase = checkedURL(given || reportBase!, '--base-url');
  const timeout = values['request-timeout'] ?? process.env.AG_REQUEST_TIMEOUT_MS ?? '15000';
  if (!/^[1-9]\d*$/.test(timeout)) throw new UsageError(`--request-timeout must be a positive whole number of ms, not ${timeout}`);
  const repeat = values.repeat ?? '1';
  if (!/^[1-9]\d*$/.test(repeat) || Number(repeat) > MAX_REPEAT) throw new UsageError(`--repeat must be a whole number from 1 to ${MAX_REPEAT}, not ${repeat}`);
  const profilePath = values.profile ? path.resolve(values.profile) : (process.env.AG_PROFILE ?? report.profile?.path ?? undefined);
  if (profilePath && !existsSync(profilePath)) throw new UsageError(`the profile ${profilePath} is not there: name the target's profile with --profile`);
  const { profile, validate } = profileAt(profilePath ?? undefined);

  const findings = findingsOf(report, values.requirement?.split(',') ?? []);
  if (!findings.length) {
    console.log(`agc replay: ${file} holds no failing finding${values.requirement ? ` of ${values.requirement}` : ''}: nothing to send`);
    return EXIT.ok;
  }
  const results = await replay(findings, {
    reportBase: reportBase ?? targetBase,
    targetBase,
    context: { profile, validate, errorKinds, successes: [] },
    timeoutMs: Number(timeout),
    repeat: Number(repeat),
  });
  const redactor = secretPattern(secretsFromEnv());
  const counts = countsOf(results);
  console.log(redactText(`agc replay: ${results.length} finding(s) of ${file} sent to ${oneLine(targetBase, 300)}`, redactor));
  for (const r of results) console.log(redactText(line(r), redactor));
  if (findings.length > results.length) console.log(`(${findings.length - results.length} more findings not sent: at most ${MAX_FINDINGS})`);
  console.log(OUTCOMES.map((o) => `${counts[o]} ${o}`).join(', '));
  if (values.json) {
    const out = { report: file, reportTarget: reportBase, target: targetBase, counts, findings: results };
    writeFileSync(path.resolve(values.json), `${redactText(JSON.stringify(out, null, 2), redactor)}\n`);
  }
  return counts['still failing'] || counts.flaky ? EXIT.nonConformant : counts['no answer'] ? EXIT.incomplete : EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(`agc replay: ${usage ? '' : 'error: '}${oneLine((error as Error).message, 1000)}`);
    process.exit(EXIT.error);
  },
);
