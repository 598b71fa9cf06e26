import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { CERTIFICATE_FORMAT, certificateVerdict, sha256, signatureProblem, type Certificate, type CertifiedRun } from './certificate';
import { readBackVerdict } from './durability';
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

/**
 * A file of the run against the sha256 the certificate records, when it names one: its exchanges.har (certificates
 * before it did not), its created.json (only against a target of its own, which the read-backs judged against).
 */
function checkFile(certDir: string, file: unknown, expected: unknown, problems: string[], matched: string[]): void {
  if (file === undefined) return;
  const full = reportPath(certDir, file);
  if (!full) problems.push(`${String(file)}: the certificate names a path outside its folder; not read`);
  else if (!existsSync(full)) problems.push(`${String(file)}: missing (the certificate names it, at ${full})`);
  else {
    const actual = sha256(readFileSync(full));
    if (actual !== expected) problems.push(`${String(file)}: sha256 ${actual} does not match the certificate's ${String(expected)}`);
    else matched.push(String(file));
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
    checkFile(certDir, r.har, r.harSha256, problems, harsMatched);
    checkFile(certDir, r.created, r.createdSha256, problems, []);
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
  // The read-backs between the runs have no report of their own: their verdict is the certificate's own findings'.
  const durability = certificate.durability;
  if (durability?.verdict && Array.isArray(durability.findings) && Array.isArray(durability.notAssessed)) {
    const own = readBackVerdict(durability.findings, durability.notAssessed);
    if (durability.verdict !== own) problems.push(`${name}: durability verdict ${String(durability.verdict)}, but its findings make it ${own}`);
  }
  const combined = certificateVerdict(verdicts, durability);
  if (verdicts.length === certificate.runs.length && certificate.verdict !== combined)
    problems.push(
      `${name}: verdict ${String(certificate.verdict)}, but its runs' reports${durability?.verdict ? ' and its read-backs' : ''} make it ${combined}`,
    );
  return { problems, matched, harsMatched, signatureChecked: publicKey !== undefined };
}
