import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { STATUSES, type RequirementStatus, type Verdict } from '../reporters/verdict';
import { sha256 } from '../certify/certificate';

/**
 * What `agc compare` reads: conformance.json files and certificates, given as files or found in folders (a CI matrix's
 * downloaded artifacts). Every file is untrusted: read bounded, its JSON checked field by field, its text cut; nothing of it
 * is ever evaluated, and a path it names is followed only where it stays inside the file's own folder.
 */

export class CompareInputError extends Error {}

const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_TEXT = 2000;
const MAX_DEPTH = 8;
const MAX_FOUND = 200;
export const MAX_IMPLEMENTATIONS = 50;
const VERDICTS: readonly Verdict[] = ['conformant', 'non-conformant', 'incomplete'];

/** One requirement of one report, as far as compare reads it. */
export interface ReadRequirement {
  id: string;
  level: string;
  family: string;
  title: string;
  status: RequirementStatus;
  /** The target follows another profile here: skipped as not assessable. */
  notAssessable: boolean;
  reason: string | null;
  /** The first failure's check, what was received, what the kit expected and how to fix it; null without a failure. */
  evidence: string | null;
}

/** One run's report. */
export interface ReadReport {
  file: string;
  /** index.html beside it, or null. */
  html: string | null;
  verdict: Verdict;
  firstReason: string | null;
  kit: { version: string; specHash: string };
  target: { baseURL: string | null; embedded: boolean; service: string | null };
  profile: { name: string; path: string | null; settings: Record<string, unknown> | null };
  startedAt: string;
  finishedAt: string;
  requirements: ReadRequirement[];
}

/** One implementation: one report, or a certificate and its runs' reports. */
export interface ReadSource {
  kind: 'report' | 'certificate';
  file: string;
  verdict: Verdict;
  date: string;
  kitVersion: string;
  reports: ReadReport[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (v: unknown, max = MAX_TEXT): string => {
  const s = String(v);
  return s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;
};
const textOrNull = (v: unknown, max = MAX_TEXT): string | null => (typeof v === 'string' ? cut(v, max) : null);

function readBounded(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new CompareInputError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_FILE_BYTES) throw new CompareInputError(`${file}: ${size} bytes, more than the ${MAX_FILE_BYTES} a report may have`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function parseJson(file: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CompareInputError(`${file}: not JSON (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isObject(value)) throw new CompareInputError(`${file}: not a JSON object`);
  return value;
}

/** The first failure of a requirement's tests, in a few lines. */
function evidenceOf(r: Record<string, unknown>): string | null {
  const tests = Array.isArray(r.tests) ? r.tests : [];
  for (const t of tests) {
    const failures = isObject(t) && Array.isArray(t.failures) ? t.failures : [];
    const f = failures.find(isObject);
    if (!f) continue;
    const exchange = isObject(f.exchange) ? f.exchange : {};
    const request = isObject(exchange.request) ? exchange.request : {};
    const response = isObject(exchange.response) ? exchange.response : {};
    const lines = [
      `check: ${cut(f.check, 200)}`,
      `received: ${cut(f.received)}`,
      `expected: ${cut(f.documented)}`,
      `how to fix: ${cut(f.fix)}`,
      ...(typeof request.method === 'string' ? [`request: ${cut(request.method, 20)} ${cut(request.url, 500)}`] : []),
      ...(typeof response.status === 'number' ? [`response: HTTP ${response.status}`] : []),
    ];
    return lines.join('\n');
  }
  return null;
}

function requirementOf(file: string, r: unknown, i: number): ReadRequirement {
  const where = `${file}: requirements[${i}]`;
  if (!isObject(r)) throw new CompareInputError(`${where} is not an object`);
  if (typeof r.id !== 'string' || !/^[A-Z]{2,10}-\d{2,3}$/.test(r.id)) throw new CompareInputError(`${where}.id is not a requirement ID`);
  if (!STATUSES.includes(r.status as RequirementStatus)) throw new CompareInputError(`${where}.status is not one of ${STATUSES.join(', ')}`);
  return {
    id: r.id,
    level: typeof r.level === 'string' ? cut(r.level, 20) : '?',
    family: r.id.replace(/-\d+$/, ''),
    title: textOrNull(r.title, 300) ?? '',
    status: r.status as RequirementStatus,
    notAssessable: typeof r.profileMismatch === 'string',
    reason: textOrNull(r.reason),
    evidence: evidenceOf(r),
  };
}

/** A conformance.json, checked field by field (a report of another kit version may carry more, never less). */
export function readReport(file: string): ReadReport {
  const s = parseJson(file, readBounded(file));
  if (!VERDICTS.includes(s.verdict as Verdict))
    throw new CompareInputError(`${file}: not a conformance.json (its verdict is not one of ${VERDICTS.join(', ')})`);
  if (!Array.isArray(s.requirements)) throw new CompareInputError(`${file}: not a conformance.json (no requirements list)`);
  if (s.requirements.length > 2000) throw new CompareInputError(`${file}: ${s.requirements.length} requirements, more than a report of this kit has`);
  const requirements = s.requirements.map((r, i) => requirementOf(file, r, i));
  const ids = new Set<string>();
  for (const r of requirements) {
    if (ids.has(r.id)) throw new CompareInputError(`${file}: requirement ${r.id} is listed twice`);
    ids.add(r.id);
  }
  const kit = isObject(s.kit) ? s.kit : {};
  const target = isObject(s.target) ? s.target : {};
  const profile = isObject(s.profile) ? s.profile : {};
  const html = path.join(path.dirname(file), 'index.html');
  return {
    file,
    html: existsSync(html) ? html : null,
    verdict: s.verdict as Verdict,
    firstReason: textOrNull(s.firstReason),
    kit: { version: textOrNull(kit.version, 50) ?? '?', specHash: textOrNull(kit.specHash, 64) ?? '?' },
    target: { baseURL: textOrNull(target.baseURL, 500), embedded: target.embedded === true, service: textOrNull(target.service, 100) },
    profile: {
      name: textOrNull(profile.name, 100) ?? '?',
      path: textOrNull(profile.path, 500),
      settings: isObject(profile.settings) && JSON.stringify(profile.settings).length < 64 * 1024 ? profile.settings : null,
    },
    startedAt: textOrNull(s.startedAt, 40) ?? '',
    finishedAt: textOrNull(s.finishedAt, 40) ?? '',
    requirements,
  };
}

/** A path a certificate names, only where it stays below the certificate's folder. */
function inside(dir: string, relative: unknown, what: string): string {
  if (typeof relative !== 'string' || !relative || path.isAbsolute(relative)) throw new CompareInputError(`${what} is not a relative path`);
  const full = path.resolve(dir, relative);
  if (!full.startsWith(dir + path.sep)) throw new CompareInputError(`${what} leads outside the certificate's folder`);
  return full;
}

/** A certificate of `agc certify`, with its runs' reports, each checked against the sha256 the certificate gives. */
export function readCertificate(file: string): ReadSource {
  const c = parseJson(file, readBounded(file));
  if (typeof c.format !== 'string' || !c.format.startsWith('agc-certificate/')) throw new CompareInputError(`${file}: not a certificate of agc certify`);
  if (!VERDICTS.includes(c.verdict as Verdict)) throw new CompareInputError(`${file}: its verdict is not one of ${VERDICTS.join(', ')}`);
  if (!Array.isArray(c.runs) || !c.runs.length || c.runs.length > 100) throw new CompareInputError(`${file}: no runs, or more than 100`);
  const dir = path.dirname(path.resolve(file));
  const reports = c.runs.map((run, i) => {
    const what = `${file}: runs[${i}].report`;
    if (!isObject(run)) throw new CompareInputError(`${file}: runs[${i}] is not an object`);
    const reportFile = inside(dir, run.report, what);
    const bytes = readBounded(reportFile);
    if (sha256(bytes) !== run.reportSha256)
      throw new CompareInputError(`${file}: ${run.report as string} does not match the sha256 the certificate gives (agc verify says more)`);
    return readReport(reportFile);
  });
  const kit = isObject(c.kit) ? c.kit : {};
  return {
    kind: 'certificate',
    file,
    verdict: c.verdict as Verdict,
    date: textOrNull(c.issuedAt, 40) ?? '',
    kitVersion: textOrNull(kit.version, 50) ?? '?',
    reports,
  };
}

const isCertificateName = (name: string) => name === 'certificate.json' || name.endsWith('.certificate.json');

/** conformance.json files and certificates below a folder, bounded in depth and number; symbolic links are not followed. */
function findBelow(dir: string): { reports: string[]; certificates: string[] } {
  const reports: string[] = [];
  const certificates: string[] = [];
  const walk = (current: string, depth: number) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH && entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full, depth + 1);
      else if (entry.isFile() && entry.name === 'conformance.json') reports.push(full);
      else if (entry.isFile() && isCertificateName(entry.name)) certificates.push(full);
      if (reports.length + certificates.length > MAX_FOUND) throw new CompareInputError(`${dir}: more than ${MAX_FOUND} reports and certificates below it`);
    }
  };
  walk(dir, 0);
  return { reports, certificates };
}

/**
 * Every implementation the inputs hold, in the order given (a folder's in name order). A report that a certificate found
 * in the same inputs certifies is that certificate's run, not an implementation of its own.
 */
export function readInputs(inputs: string[]): ReadSource[] {
  const reports: string[] = [];
  const certificates: string[] = [];
  for (const input of inputs) {
    const full = path.resolve(input);
    if (!existsSync(full)) throw new CompareInputError(`${input}: no such file or folder`);
    if (statSync(full).isDirectory()) {
      const found = findBelow(full);
      if (!found.reports.length && !found.certificates.length) throw new CompareInputError(`${input}: no conformance.json or certificate below it`);
      reports.push(...found.reports);
      certificates.push(...found.certificates);
    } else if (isCertificateName(path.basename(full))) certificates.push(full);
    else reports.push(full);
  }
  const sources: ReadSource[] = [...new Set(certificates)].map(readCertificate);
  const certified = new Set(sources.flatMap((s) => s.reports.map((r) => r.file)));
  for (const file of [...new Set(reports)].filter((f) => !certified.has(f))) {
    const report = readReport(file);
    sources.push({
      kind: 'report',
      file,
      verdict: report.verdict,
      date: report.finishedAt || report.startedAt,
      kitVersion: report.kit.version,
      reports: [report],
    });
  }
  if (sources.length > MAX_IMPLEMENTATIONS) throw new CompareInputError(`${sources.length} implementations: compare takes at most ${MAX_IMPLEMENTATIONS}`);
  return sources;
}
