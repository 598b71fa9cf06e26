import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadProfile } from '../schemas/profile';
import { loadCatalogue } from '../schemas/requirements';
import { isExpired, loadWaivers } from '../reporters/waivers';
import type { ConformanceSummary } from '../reporters/verdict';
import { redactDeep, redactText, secretPattern, secretsFromEnv } from '../client/redact';
import { oneLine } from '../client/safe-text';
import { ConfigError, REFERENCE_TOKEN_VARIABLES } from '../config';
import { TokenSourceError } from '../config/tokens';
import { EXIT, SIGNALLED, exitForVerdict } from '../common/exit-codes.mjs';
import { runChild } from '../common/child.mjs';
import {
  buildCertificate,
  canonicalJson,
  sha256,
  signCertificate,
  type Certificate,
  type CertifiedRun,
  type CertifiedWaiver,
  type ProfileInForce,
} from './certificate';
import { renderCertificatePage } from './html';
import { readCertificate } from './verify';
import { certifiedDurability, runOffsets, showSpan, type CertifiedDurability } from './durability';
import { readBack, type ReadBack } from './read-back';
import { CREATED_FILE } from '../facts/created';
import type { KeyObject } from 'node:crypto';

/**
 * `agc certify`: the suites run N times against one target through `agc run` itself, each with its own seed (S, S+1, …)
 * and report folder (DIR/run-1, …). Against a target of its own, each run leaves the groups it created (created.json),
 * read back by Id after every later run (certify/durability.ts); `spanMs` spreads the runs' starts evenly over a span,
 * so that those reads come that much later. Then DIR/certificate.json and DIR/index.html.
 */

const ROOT = path.resolve(__dirname, '..');
const AGC = path.join(ROOT, 'bin', 'agc.mjs');

export class CertifyError extends Error {}

export interface CertifyOptions {
  runs: number;
  reportDir: string;
  /** The first run's seed; random when undefined. */
  seed: number | undefined;
  signKey: KeyObject | undefined;
  workers: string | undefined;
  /** Run 1 starts at once, run N this many ms later, the others evenly between (durability.ts runOffsets). */
  spanMs: number;
  env: NodeJS.ProcessEnv;
}

/** Waits until `at` (epoch ms); resolves false at once when Ctrl-C or a SIGTERM comes meanwhile. */
function waitUntil(at: number): Promise<boolean> {
  return new Promise((resolve) => {
    const stop = (done: boolean) => {
      clearTimeout(timer);
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      resolve(done);
    };
    const interrupted = () => stop(false);
    const timer = setTimeout(() => stop(true), Math.max(0, at - Date.now()));
    process.on('SIGINT', interrupted);
    process.on('SIGTERM', interrupted);
  });
}

/** Runs `agc run` once; an interrupted run ends the certification (common/child.mjs forwards Ctrl-C). */
const agcRun = (args: string[], env: NodeJS.ProcessEnv) => runChild(AGC, ['run', ...args], env, process.cwd());

/**
 * What an earlier certification left in DIR (its certificate, its page, the run folders it names) is removed, so nothing
 * stale sits beside the new one. Nothing else: only a file that is a certificate of this kit counts as an earlier one.
 */
function clearOutputs(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'certificate.json');
  if (!existsSync(file)) return;
  let previous: Certificate;
  try {
    previous = readCertificate(file);
  } catch {
    throw new CertifyError(`${file} exists and is not a certificate of agc certify: give another --report-dir`);
  }
  const runDirs = previous.runs.map((r) => String(r?.report ?? '').split('/')[0]).filter((name) => /^run-\d+$/.test(name));
  for (const name of runDirs) rmSync(path.join(dir, name), { recursive: true, force: true });
  rmSync(path.join(dir, 'index.html'), { force: true });
  rmSync(file, { force: true });
}

/** A base URL as a certificate may show it: a password in it is never written. */
function publicURL(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.username && !url.password) return raw;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return raw;
  }
}

function profileInForce(profilePath: string | undefined): ProfileInForce {
  const hash = (p: unknown) => sha256(canonicalJson(p));
  const merged = loadProfile(profilePath);
  const mergedHash = hash(merged);
  // A file that changes nothing judges exactly as the reference profile does.
  const reference = !profilePath || mergedHash === hash(loadProfile());
  return {
    name: merged.name,
    path: profilePath ?? null,
    reference,
    sha256: mergedHash,
    fileSha256: profilePath ? sha256(readFileSync(profilePath)) : null,
  };
}

function waiversInForce(file: string | undefined, reports: ConformanceSummary[], now: Date): Certificate['waivers'] {
  const entries: CertifiedWaiver[] = loadWaivers(file, new Set(loadCatalogue().requirements.map((r) => r.id))).map((w) => ({
    ...w,
    state: isExpired(w, now) ? 'expired' : 'in force',
    appliedInRuns: reports.flatMap((r, i) => (r.waivers.applied.some((a) => a.id === w.id) ? [i + 1] : [])),
  }));
  return { file: file ?? null, fileSha256: file ? sha256(readFileSync(file)) : null, entries };
}

/** Values every run must share; a difference means the runs cannot be certified together. */
function same<T>(reports: ConformanceSummary[], what: string, pick: (r: ConformanceSummary) => T): T {
  const first = canonicalJson(pick(reports[0]));
  const other = reports.findIndex((r) => canonicalJson(pick(r)) !== first);
  if (other >= 0) throw new CertifyError(`run ${other + 1} has another ${what} than run 1: the runs cannot be certified together`);
  return pick(reports[0]);
}

const distinct = (values: (string | null)[]): string[] => [...new Set(values.filter((v): v is string => v !== null))];

/**
 * The read-back after run `afterRun`; a token that can no longer be fetched, or a configuration the runs took and this
 * process does not, leaves it not assessed (the certificate then says incomplete) rather than ending the certification.
 */
async function readBackOrNot(runEnv: NodeJS.ProcessEnv, reportDir: string, afterRun: number): Promise<ReadBack> {
  try {
    return await readBack(runEnv, reportDir, afterRun);
  } catch (error) {
    if (!(error instanceof TokenSourceError || error instanceof ConfigError)) throw error;
    const reason = `the read-back could not start: ${oneLine(redactText(error.message, secretPattern(secretsFromEnv(runEnv))), 500)}`;
    return {
      record: { afterRun, at: new Date().toISOString(), createdIn: [], groups: 0, requests: 0, left: 0, oldestAgeSeconds: null, verdict: 'incomplete' },
      findings: [],
      notAssessed: [{ afterRun, reason, groups: [] }],
    };
  }
}

/** Runs the certification; resolves to the exit status (the combined verdict's, or the kit's error). */
export async function certify(options: CertifyOptions): Promise<number> {
  const { runs, reportDir, env } = options;
  const embedded = !env.AG_BASE_URL;
  const runEnv: NodeJS.ProcessEnv = { ...env };
  // One summary for the certification, not one per run, in a CI job's page.
  delete runEnv.GITHUB_STEP_SUMMARY;
  // Every exchange of every run in its exchanges.har, passing or not, redacted and bounded as evidence is: what a
  // reviewer of the certificate reads of what was sent and received; the certificate hashes it.
  runEnv.AG_HAR_ALL = '1';
  // Files named in the environment are resolved here, once, so the runs and the certificate read the same ones.
  for (const name of ['AG_PROFILE', 'AG_WAIVERS'] as const) if (runEnv[name]) runEnv[name] = path.resolve(runEnv[name]);
  // The embedded server's tokens are chosen here, as `agc run` would, so that the certificate's
  // own redaction knows every token the runs used.
  if (embedded) for (const name of Object.values(REFERENCE_TOKEN_VARIABLES)) runEnv[name] ||= `ref-${randomBytes(12).toString('hex')}`;
  // Against a target of its own, each run leaves the groups it created for the later runs' read-back (facts/created.ts).
  // Not against the embedded server: each run starts its own, and the groups of the last are gone with it.
  if (!embedded) runEnv.AG_KEEP_CREATED = '1';
  const first = options.seed ?? randomBytes(4).readUInt32BE() >>> 1;
  const seeds = Array.from({ length: runs }, (_, i) => first + i);
  // Read before the runs: a wrong profile or waiver file costs nothing but this line.
  const profile = profileInForce(runEnv.AG_PROFILE || undefined);
  loadWaivers(runEnv.AG_WAIVERS || undefined, new Set(loadCatalogue().requirements.map((r) => r.id)));

  clearOutputs(reportDir);
  const reports: ConformanceSummary[] = [];
  const records: CertifiedRun[] = [];
  const readBacks: ReadBack[] = [];
  const offsets = runOffsets(runs, options.spanMs);
  const start = Date.now();
  if (options.spanMs > 0)
    console.log(
      `agc certify: ${runs} runs spread over ${showSpan(options.spanMs)} (--span): run 1 now, run ${runs} at ${new Date(start + options.spanMs).toISOString()}`,
    );
  for (const [i, seed] of seeds.entries()) {
    const name = `run-${i + 1}`;
    const dir = path.join(reportDir, name);
    if (start + offsets[i] > Date.now()) {
      console.log(`agc certify: run ${i + 1} starts at ${new Date(start + offsets[i]).toISOString()}, ${showSpan(offsets[i])} after run 1 (--span)`);
      if (!(await waitUntil(start + offsets[i]))) {
        console.error(`agc certify: interrupted while waiting for run ${i + 1}; no certificate is written`);
        return SIGNALLED;
      }
    }
    console.log(`agc certify: run ${i + 1} of ${runs}, seed ${seed}, reports in ${dir}`);
    const args = ['--report-dir', dir, ...(options.workers ? ['--workers', options.workers] : [])];
    const { code, interrupted } = await agcRun(args, { ...runEnv, AG_SEED: String(seed), AG_REPORT_DIR: dir });
    const file = path.join(dir, 'conformance.json');
    if (interrupted || code === SIGNALLED) {
      console.error(`agc certify: run ${i + 1} was interrupted; no certificate is written`);
      return SIGNALLED;
    }
    if (code === EXIT.error || !existsSync(file)) {
      console.error(`agc certify: run ${i + 1} ended with an error of the kit or its configuration (see above); no certificate is written`);
      return EXIT.error;
    }
    const bytes = readFileSync(file);
    const report = JSON.parse(bytes.toString('utf8')) as ConformanceSummary;
    const har = path.join(dir, 'exchanges.har');
    if (!existsSync(har)) throw new CertifyError(`run ${i + 1} wrote no exchanges.har in ${dir}: the certificate would not hold its exchanges`);
    if (report.seed !== seed) throw new CertifyError(`run ${i + 1} reports seed ${report.seed}, not the ${seed} it was given`);
    reports.push(report);
    const created = path.join(dir, CREATED_FILE);
    records.push({
      run: i + 1,
      seed,
      verdict: report.verdict,
      firstReason: report.firstReason,
      runId: report.runId,
      baseURL: report.target.baseURL === null ? null : publicURL(report.target.baseURL),
      service: report.target.service,
      region: report.target.region,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      report: `${name}/conformance.json`,
      reportSha256: sha256(bytes),
      html: `${name}/index.html`,
      har: `${name}/exchanges.har`,
      harSha256: sha256(readFileSync(har)),
      ...(existsSync(created) ? { created: `${name}/${CREATED_FILE}`, createdSha256: sha256(readFileSync(created)) } : {}),
    });
    if (!embedded && i > 0) {
      const back = await readBackOrNot(runEnv, reportDir, i + 1);
      readBacks.push(back);
      const { record } = back;
      console.log(
        `agc certify: after run ${i + 1}, ${record.groups} groups of run ${record.createdIn.join(', ') || '—'} read back by Id (${record.requests} requests, the oldest ${record.oldestAgeSeconds ?? 0} s old): ${record.verdict}${back.findings.length ? `, ${[...new Set(back.findings.map((f) => f.requirement))].join(', ')} failed` : ''}`,
      );
    }
  }
  const durability: CertifiedDurability = certifiedDurability(
    options.spanMs,
    readBacks,
    embedded ? 'without --base-url each run starts its own embedded reference server' : runs < 2 ? 'one run: nothing earlier to read back' : undefined,
  );

  const spec = same(reports, 'spec (spec/openapi.yaml, spec/requirements.yaml)', (r) => ({ sha256: r.kit.specHash, files: r.kit.files }));
  same(reports, 'profile', (r) => r.profile);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const now = new Date();
  let certificate = buildCertificate({
    kit: { name: pkg.name, version: pkg.version },
    spec,
    profile,
    target: {
      baseURL: embedded ? null : publicURL(env.AG_BASE_URL!),
      embedded,
      service: distinct(reports.map((r) => r.target.service)),
      region: distinct(reports.map((r) => r.target.region)),
    },
    issuedAt: now.toISOString(),
    runs: records,
    waivers: waiversInForce(runEnv.AG_WAIVERS || undefined, reports, now),
    durability,
  });
  // The last guard, before signing: no form of any token the runs used stays in what is handed over.
  const redactor = secretPattern(secretsFromEnv(runEnv));
  certificate = redactDeep(certificate, redactor);
  if (options.signKey) certificate = signCertificate(certificate, options.signKey);

  writeFileSync(path.join(reportDir, 'certificate.json'), `${JSON.stringify(certificate, null, 2)}\n`);
  writeFileSync(path.join(reportDir, 'index.html'), redactText(renderCertificatePage(certificate), redactor, '&lt;redacted token&gt;'));

  const readBackLine = certificate.durability?.verdict ? `, read-backs: ${certificate.durability.verdict}` : '';
  console.log(`agc certify: ${certificate.verdict} (${certificate.runs.map((r) => `run ${r.run}: ${r.verdict}`).join(', ')}${readBackLine})`);
  if (certificate.durability)
    console.log(`agc certify: durability over ${certificate.durability.span.shown}: ${oneLine(certificate.durability.summary, 1000)}`);
  if (certificate.notice) console.log(`agc certify: NOTICE: ${oneLine(certificate.notice)}`);
  console.log(`agc certify: certificate ${path.join(reportDir, 'certificate.json')}, page ${path.join(reportDir, 'index.html')}`);
  console.log(
    certificate.signature
      ? `agc certify: signed with the Ed25519 key sha256:${certificate.signature.publicKeySha256}`
      : 'agc certify: not signed (--sign-key FILE signs it)',
  );
  // Under --strict-waivers every run says whether its waivers fail it (a stale or expired one); a conformant certificate then exits as agc run does.
  const waiverFailure = reports.map((r) => r.waivers.failure).find((failure): failure is string => typeof failure === 'string');
  if (waiverFailure && certificate.verdict === 'conformant') {
    console.log(`agc certify: waivers fail the certification: ${oneLine(waiverFailure, 1000)}`);
    return EXIT.staleWaivers;
  }
  return exitForVerdict(certificate.verdict);
}
