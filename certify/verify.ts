import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { CERTIFICATE_FORMAT, combinedVerdict, sha256, signatureProblem, type Certificate, type CertifiedRun } from './certificate';
import type { ConformanceSummary, Verdict } from '../reporters/verdict';

/**
 * `agc verify CERT [--public-key FILE]`: does the certificate hold? Its signature under the given
 * public key, and every run's conformance.json it names against the sha256 it records; then the
 * certificate's own facts against those reports (seed, verdict, the combined verdict), which
 * catches an edit to an unsigned certificate too.
 */

export class CertificateError extends Error {}

export interface Verification {
  /** One line per thing that does not match, each naming the file. */
  problems: string[];
  /** The reports whose hash matched. */
  matched: string[];
  /** The exchanges.har files whose hash matched. */
  harsMatched: string[];
  /** Set when a public key was given: whether the signature held. */
  signatureChecked: boolean;
}

/** A path a certificate names, inside the certificate's folder; a path leading out of it is a mismatch, never read. */
function reportPath(certDir: string, relative: unknown): string | undefined {
  if (typeof relative !== 'string' || !relative || path.isAbsolute(relative)) return undefined;
  const full = path.resolve(certDir, relative);
  return full.startsWith(certDir + path.sep) ? full : undefined;
}

export function readCertificate(file: string): Certificate {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CertificateError(`cannot read the certificate ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const c = parsed as Partial<Certificate> | null;
  if (!c || typeof c !== 'object' || c.format !== CERTIFICATE_FORMAT || !Array.isArray(c.runs))
    throw new CertificateError(`${file} is not a certificate of agc certify (no "format": "${CERTIFICATE_FORMAT}" with its "runs")`);
  return c as Certificate;
}

/** The run's exchanges.har against the sha256 the certificate records, when it names one (certificates before it did not). */
function checkHar(certDir: string, r: Partial<CertifiedRun>, problems: string[], matched: string[]): void {
  if (r.har === undefined) return;
  const full = reportPath(certDir, r.har);
  if (!full) problems.push(`${String(r.har)}: the certificate names a path outside its folder; not read`);
  else if (!existsSync(full)) problems.push(`${r.har}: missing (the certificate names it, at ${full})`);
  else {
    const actual = sha256(readFileSync(full));
    if (actual !== r.harSha256) problems.push(`${r.har}: sha256 ${actual} does not match the certificate's ${String(r.harSha256)}`);
    else matched.push(r.har);
  }
}

export function verifyCertificate(file: string, publicKey: KeyObject | undefined): Verification {
  const certificate = readCertificate(file);
  const certDir = path.dirname(path.resolve(file));
  const name = path.basename(file);
  const problems: string[] = [];
  const matched: string[] = [];
  const harsMatched: string[] = [];

  if (publicKey) {
    const problem = signatureProblem(certificate as unknown as Record<string, unknown>, publicKey);
    if (problem) problems.push(`${name}: ${problem}`);
  }

  const verdicts: Verdict[] = [];
  for (const [i, run] of certificate.runs.entries()) {
    const r = (run ?? {}) as Partial<CertifiedRun>;
    const label = typeof r.report === 'string' ? r.report : `runs[${i}].report`;
    const full = reportPath(certDir, r.report);
    if (!full) {
      problems.push(`${label}: the certificate names a path outside its folder; not read`);
      continue;
    }
    if (!existsSync(full)) {
      problems.push(`${label}: missing (the certificate names it, at ${full})`);
      continue;
    }
    const bytes = readFileSync(full);
    const actual = sha256(bytes);
    if (actual !== r.reportSha256) {
      problems.push(`${label}: sha256 ${actual} does not match the certificate's ${String(r.reportSha256)}`);
      continue;
    }
    matched.push(label);
    checkHar(certDir, r, problems, harsMatched);
    // The hash holds, so the report is the one certified; the certificate's own words must agree with it.
    let report: Partial<ConformanceSummary>;
    try {
      report = JSON.parse(bytes.toString('utf8')) as Partial<ConformanceSummary>;
    } catch {
      problems.push(`${label}: not JSON`);
      continue;
    }
    if (report.seed !== r.seed) problems.push(`${label}: seed ${String(report.seed)}, the certificate says ${String(r.seed)} for run ${String(r.run)}`);
    if (report.verdict !== r.verdict)
      problems.push(`${label}: verdict ${String(report.verdict)}, the certificate says ${String(r.verdict)} for run ${String(r.run)}`);
    if (report.verdict) verdicts.push(report.verdict);
  }
  const seeds = certificate.runs.map((r) => r?.seed);
  if (JSON.stringify(certificate.seeds) !== JSON.stringify(seeds))
    problems.push(`${name}: seeds ${JSON.stringify(certificate.seeds)} are not its runs' seeds ${JSON.stringify(seeds)}`);
  if (verdicts.length === certificate.runs.length && certificate.verdict !== combinedVerdict(verdicts))
    problems.push(`${name}: verdict ${String(certificate.verdict)}, but its runs' reports make it ${combinedVerdict(verdicts)}`);
  return { problems, matched, harsMatched, signatureChecked: publicKey !== undefined };
}
