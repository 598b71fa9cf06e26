import path from 'node:path';
import type { RequirementStatus, Verdict } from '../reporters/verdict';
import type { ReadReport, ReadRequirement, ReadSource } from './read';

/**
 * The comparison `agc compare` writes as compare.json and lays out as compare.html: a row per requirement, a column per
 * implementation, the rows where they differ first, and the portability notes. Pure: it decides nothing about any
 * implementation (each report's own statuses and verdict are shown as they are); it only lines them up.
 */

export const COMPARE_FORMAT = 'agc-compare/1';

export type CellStatus = RequirementStatus | 'absent';

export interface Cell {
  status: CellStatus;
  /** The status as the kit's report words it: `not assessable` for a profile mismatch, `not in the report` where absent. */
  label: string;
  reason: string | null;
  /** Relative to the comparison's folder: the implementation's own report page, at this requirement. */
  href: string | null;
  /** The first failure's evidence, as text, for a report with no page beside it. */
  evidence: string | null;
}

export interface Row {
  id: string;
  family: string;
  level: string;
  title: string;
  differs: boolean;
  cells: Cell[];
}

export interface Implementation {
  key: string;
  name: string;
  kind: 'report' | 'certificate';
  /** The file it was read from, as given or found. */
  source: string;
  verdict: Verdict;
  firstReason: string | null;
  kitVersion: string;
  specHash: string;
  date: string;
  runs: number;
  target: { baseURL: string | null; embedded: boolean; service: string | null };
  profile: { name: string; path: string | null; settings: 'from the report' | 'the reference profile of this kit' | 'unknown' };
  badge: string;
  counts: Record<CellStatus, number>;
}

export interface SettingNote {
  setting: string;
  /** One per implementation, in column order: the value, `unset`, or null where its settings are unknown. */
  values: (string | null)[];
  /** The requirements whose tests read this setting. */
  readBy: string[];
}

export interface Comparison {
  format: typeof COMPARE_FORMAT;
  generatedAt: string;
  implementations: Implementation[];
  differing: number;
  rows: Row[];
  portability: { among: string[]; notes: SettingNote[]; unknown: string[] };
  warnings: string[];
}

export interface CompareOptions {
  /** Where compare.html is written: links are relative to it. */
  outDir: string;
  /** Names given with --name, by the resolved path of a report, a certificate or their folder. */
  names: Map<string, string>;
  /** This kit's reference profile, less $defs: the settings of a report of the reference profile that carries none. */
  referenceSettings: Record<string, unknown>;
  /** The catalogue's `settings:` of each requirement. */
  settingsReadBy: { id: string; settings: readonly string[] }[];
  now: Date;
}

const SEVERITY: CellStatus[] = ['failed', 'waived', 'blocked', 'skipped', 'absent', 'passed', 'not-assessed'];
const LABELS: Partial<Record<CellStatus, string>> = { 'not-assessed': 'not assessed', absent: 'not in the report' };

/** A base URL with no user, password, query or fragment (where a token could hide); one that does not parse, not shown. */
export function displayUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(a base URL that does not parse)';
  }
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'implementation';

const hrefTo = (outDir: string, html: string, id: string) =>
  `${path.relative(outDir, html).split(path.sep).map(encodeURIComponent).join('/')}#${encodeURIComponent(id)}`;

function cellOf(r: ReadRequirement | undefined, html: string | null, outDir: string): Cell {
  if (!r) return { status: 'absent', label: LABELS.absent!, reason: null, href: null, evidence: null };
  return {
    status: r.status,
    label: r.notAssessable ? 'not assessable' : (LABELS[r.status] ?? r.status),
    reason: r.reason,
    href: html ? hrefTo(outDir, html, r.id) : null,
    evidence: r.evidence,
  };
}

/** A certificate's runs as one column: where they agree, their status; where not, the worst, saying how each run went. */
function combinedCell(reports: ReadReport[], id: string, outDir: string): Cell {
  const cells = reports.map((report) =>
    cellOf(
      report.requirements.find((r) => r.id === id),
      report.html,
      outDir,
    ),
  );
  const worst = [...cells].sort((a, b) => SEVERITY.indexOf(a.status) - SEVERITY.indexOf(b.status))[0];
  if (cells.every((c) => c.status === worst.status)) return worst;
  const each = cells.map((c, i) => `run ${i + 1} ${c.label}`).join(', ');
  return { ...worst, reason: `the runs differ (${each})${worst.reason ? `; ${worst.reason}` : ''}` };
}

/** Settings as dotted paths to their values; lists are values. */
function flatten(value: Record<string, unknown>, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [key, v] of Object.entries(value)) {
    if (!prefix && (key === 'name' || key === '$defs')) continue;
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) flatten(v as Record<string, unknown>, at, out);
    else if (out.size < 500) out.set(at, typeof v === 'string' ? v.slice(0, 200) : JSON.stringify(v).slice(0, 200));
  }
  return out;
}

function nameOf(source: ReadSource, names: Map<string, string>): string {
  const given = names.get(source.file) ?? names.get(path.dirname(source.file));
  if (given) return given;
  const target = source.reports[0].target;
  // An embedded server's port is new on every run: it names nothing.
  if (target.embedded) return 'embedded reference server';
  return displayUrl(target.baseURL) ?? 'unknown target';
}

/** Names made unique: a second of the same name takes its folder's name too, then a number. */
function uniqueNames(sources: ReadSource[], names: Map<string, string>): string[] {
  const first = sources.map((s) => nameOf(s, names));
  const taken = new Set<string>();
  return first.map((name, i) => {
    let unique = first.indexOf(name) === i ? name : `${name} (${path.basename(path.dirname(sources[i].file))})`;
    for (let n = 2; taken.has(unique); n++) unique = `${name} (${n})`;
    taken.add(unique);
    return unique;
  });
}

export function buildComparison(sources: ReadSource[], options: CompareOptions): Comparison {
  const names = uniqueNames(sources, options.names);
  const keys = new Set<string>();
  const implementations: Implementation[] = sources.map((source, i) => {
    let key = slug(names[i]);
    for (let n = 2; keys.has(key); n++) key = `${slug(names[i])}-${n}`;
    keys.add(key);
    const first = source.reports[0];
    const inferred = !first.profile.settings && first.profile.name === 'reference' && first.profile.path === null;
    return {
      key,
      name: names[i],
      kind: source.kind,
      source: source.file,
      verdict: source.verdict,
      firstReason: source.kind === 'report' ? first.firstReason : (source.reports.find((r) => r.verdict === source.verdict)?.firstReason ?? null),
      kitVersion: source.kitVersion,
      specHash: first.kit.specHash,
      date: source.date,
      runs: source.reports.length,
      target: { ...first.target, baseURL: displayUrl(first.target.baseURL) },
      profile: {
        name: first.profile.name,
        path: first.profile.path,
        settings: first.profile.settings ? 'from the report' : inferred ? 'the reference profile of this kit' : 'unknown',
      },
      badge: `badge-${key}.svg`,
      counts: Object.fromEntries(SEVERITY.map((s) => [s, 0])) as Record<CellStatus, number>,
    };
  });
  // Every requirement any report has, in the order the reports list them (the catalogue's).
  const catalogue = new Map<string, ReadRequirement>();
  for (const source of sources) for (const report of source.reports) for (const r of report.requirements) if (!catalogue.has(r.id)) catalogue.set(r.id, r);
  const all: Row[] = [...catalogue.values()].map((r) => {
    const cells = sources.map((source) => combinedCell(source.reports, r.id, options.outDir));
    cells.forEach((c, i) => implementations[i].counts[c.status]++);
    return { id: r.id, family: r.family, level: r.level, title: r.title, differs: new Set(cells.map((c) => c.label)).size > 1, cells };
  });
  const rows = [...all.filter((r) => r.differs), ...all.filter((r) => !r.differs)];
  return {
    format: COMPARE_FORMAT,
    generatedAt: options.now.toISOString(),
    implementations,
    differing: all.filter((r) => r.differs).length,
    rows,
    portability: portability(sources, implementations, options),
    warnings: warnings(sources, implementations),
  };
}

/**
 * The points the spec leaves open where conforming implementations chose differently: each setting of their profiles on
 * which two of them differ, with every implementation's value beside it (null where its settings are unknown).
 */
function portability(sources: ReadSource[], implementations: Implementation[], options: CompareOptions): Comparison['portability'] {
  const settings = sources.map((source) => {
    const own = source.reports[0].profile.settings;
    if (own) return flatten(own);
    return implementations[sources.indexOf(source)].profile.settings === 'unknown' ? null : flatten(options.referenceSettings);
  });
  const conforming = implementations.map((impl, i) => (impl.verdict === 'conformant' && settings[i] ? i : -1)).filter((i) => i >= 0);
  const paths = [...new Set(conforming.flatMap((i) => [...settings[i]!.keys()]))].sort();
  const notes = paths
    .filter((setting) => new Set(conforming.map((i) => settings[i]!.get(setting) ?? 'unset')).size > 1)
    .map((setting) => ({
      setting,
      values: settings.map((s) => (s ? (s.get(setting) ?? 'unset') : null)),
      readBy: options.settingsReadBy.filter((r) => r.settings.some((s) => setting === s || setting.startsWith(`${s}.`))).map((r) => r.id),
    }));
  return {
    among: conforming.map((i) => implementations[i].name),
    notes,
    unknown: implementations.filter((impl) => impl.profile.settings === 'unknown').map((impl) => impl.name),
  };
}

function warnings(sources: ReadSource[], implementations: Implementation[]): string[] {
  const out: string[] = [];
  const hashes = new Set(sources.flatMap((s) => s.reports.map((r) => r.kit.specHash)));
  if (hashes.size > 1)
    out.push(
      `the reports were made against ${hashes.size} versions of the spec and catalogue (spec hashes ${[...hashes].map((h) => h.slice(0, 12)).join(', ')}): a difference may be the kit's, not the implementations'`,
    );
  const absent = implementations.filter((impl) => impl.counts.absent > 0);
  for (const impl of absent) out.push(`${impl.name}: ${impl.counts.absent} requirement(s) are not in its report`);
  return out;
}
