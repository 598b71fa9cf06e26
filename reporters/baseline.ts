import { readFileSync } from 'node:fs';
import { isObject } from '../schemas/spec';

/**
 * A previous run's conformance.json (AG_BASELINE=FILE, or `agc run --baseline FILE`), so every
 * output can say what broke and what was fixed since then. Only what the comparison needs is
 * read, so a report written by an older kit still serves as a baseline.
 */
export interface Baseline {
  file: string;
  verdict: string;
  startedAt: string | null;
  kitVersion: string | null;
  specHash: string | null;
  profile: { name: string; path: string | null } | null;
  statuses: Record<string, string>;
}

/** What changed between the baseline and this run; computed once, in `summarize`. */
export interface BaselineComparison {
  file: string;
  startedAt: string | null;
  kitVersion: string | null;
  verdict: { before: string; now: string };
  specHashChanged: boolean;
  profileChanged: boolean;
  profileBefore: { name: string; path: string | null } | null;
  /** Failed now, not failed in the baseline (a requirement new to the catalogue included). */
  newlyFailing: string[];
  /** Failed or waived in the baseline, passed now. */
  fixed: string[];
  /** Every requirement whose status differs; `before` is null for one the baseline did not have. */
  changed: { id: string; before: string | null; now: string }[];
}

export class BaselineError extends Error {}

const cache = new Map<string, Baseline>();

export function loadBaseline(file: string | undefined): Baseline | undefined {
  if (!file) return undefined;
  const known = cache.get(file);
  if (known) return known;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BaselineError(`AG_BASELINE: cannot read ${file} as a previous run's conformance.json: ${(error as Error).message.split('\n')[0]}`);
  }
  const report = (isObject(parsed) ? parsed : {}) as { verdict?: unknown; requirements?: unknown; startedAt?: unknown; kit?: unknown; profile?: unknown };
  const requirements = report.requirements;
  if (
    typeof report.verdict !== 'string' ||
    !Array.isArray(requirements) ||
    !requirements.every((r): r is { id: string; status: string } => isObject(r) && typeof r.id === 'string' && typeof r.status === 'string')
  ) {
    throw new BaselineError(`AG_BASELINE: ${file} is not a conformance.json (it needs "verdict" and "requirements" with an id and a status each)`);
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const kit = isObject(report.kit) ? report.kit : {};
  const profile = isObject(report.profile) ? report.profile : {};
  const baseline: Baseline = {
    file,
    verdict: report.verdict,
    startedAt: text(report.startedAt),
    kitVersion: text(kit.version),
    specHash: text(kit.specHash),
    profile: typeof profile.name === 'string' ? { name: profile.name, path: text(profile.path) } : null,
    statuses: Object.fromEntries(requirements.map((r) => [r.id, r.status])),
  };
  cache.set(file, baseline);
  return baseline;
}

export function compareWithBaseline(
  baseline: Baseline,
  now: { verdict: string; specHash: string; profile: { name: string; path: string | null }; statuses: Record<string, string> },
): BaselineComparison {
  const changed: BaselineComparison['changed'] = [];
  for (const [id, status] of Object.entries(now.statuses)) {
    const before = baseline.statuses[id] ?? null;
    if (before !== status) changed.push({ id, before, now: status });
  }
  return {
    file: baseline.file,
    startedAt: baseline.startedAt,
    kitVersion: baseline.kitVersion,
    verdict: { before: baseline.verdict, now: now.verdict },
    specHashChanged: baseline.specHash !== null && baseline.specHash !== now.specHash,
    // The profile in force is its name and file; a different file with the same name still counts.
    profileChanged: baseline.profile !== null && (baseline.profile.name !== now.profile.name || baseline.profile.path !== now.profile.path),
    profileBefore: baseline.profile,
    newlyFailing: changed.filter((c) => c.now === 'failed').map((c) => c.id),
    fixed: changed.filter((c) => c.now === 'passed' && (c.before === 'failed' || c.before === 'waived')).map((c) => c.id),
    changed,
  };
}

/** One line for the console and for JUnit: what changed since the baseline. */
export function baselineLine(c: BaselineComparison): string {
  const list = (ids: string[]) => (ids.length ? ids.join(', ') : 'none');
  const others = c.changed.filter((x) => !c.newlyFailing.includes(x.id) && !c.fixed.includes(x.id));
  const parts = [
    `newly failing: ${list(c.newlyFailing)}`,
    `fixed: ${list(c.fixed)}`,
    `other changes: ${others.length ? others.map((x) => `${x.id} ${x.before ?? 'new'} → ${x.now}`).join(', ') : 'none'}`,
  ];
  if (c.verdict.before !== c.verdict.now) parts.unshift(`verdict ${c.verdict.before} → ${c.verdict.now}`);
  if (c.specHashChanged) parts.push('the spec changed in between (another spec hash)');
  if (c.profileChanged) parts.push(`the profile changed in between (was "${c.profileBefore?.name}")`);
  return `Since the baseline of ${c.startedAt ?? 'an unknown date'}: ${parts.join('; ')}`;
}
