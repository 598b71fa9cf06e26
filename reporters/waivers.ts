import { readFileSync } from 'node:fs';
import { parseYaml } from '../schemas/yaml';

/**
 * A target's known, accepted failures (AG_WAIVERS=path.yaml), as the OpenID Foundation's suite
 * keeps them per target: a waived failure is shown with its reason and does not flip the verdict.
 *
 *   waivers:
 *     - id: PAGE-03
 *       reason: staging defaults PageSize to 20 until the fix ships
 *       link: https://tracker.example.com/ISSUE-1
 *       expires: 2027-01-31        # optional; after this day the waiver no longer applies
 */
export interface Waiver {
  id: string;
  reason: string;
  link: string;
  expires?: string;
}

export class WaiverError extends Error {}

export function loadWaivers(file: string | undefined, knownIds: Set<string>): Waiver[] {
  if (!file) return [];
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new WaiverError(`AG_WAIVERS: cannot read ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = (parsed as { waivers?: unknown } | null)?.waivers;
  if (!Array.isArray(list)) throw new WaiverError(`AG_WAIVERS: ${file} must hold a list under "waivers:"`);
  const problems: string[] = [];
  const waivers = list.map((entry, i) => {
    const w = (entry ?? {}) as Record<string, unknown>;
    const where = `waivers[${i}]`;
    if (typeof w.id !== 'string' || !knownIds.has(w.id)) problems.push(`${where}.id ${JSON.stringify(w.id)} is not a requirement ID of spec/requirements.yaml`);
    if (typeof w.reason !== 'string' || !w.reason.trim()) problems.push(`${where}.reason is required`);
    if (typeof w.link !== 'string' || !w.link.trim()) problems.push(`${where}.link is required (where the failure is tracked)`);
    const expires = w.expires instanceof Date ? w.expires.toISOString().slice(0, 10) : w.expires;
    if (expires !== undefined && (typeof expires !== 'string' || Number.isNaN(Date.parse(expires))))
      problems.push(`${where}.expires must be a date like 2027-01-31`);
    return { id: String(w.id), reason: String(w.reason), link: String(w.link), ...(expires !== undefined ? { expires: String(expires) } : {}) };
  });
  if (problems.length) throw new WaiverError(`AG_WAIVERS: ${file} is not usable:\n  - ${problems.join('\n  - ')}`);
  return waivers;
}

/** A waiver applies through the whole day it expires on. */
export function isExpired(waiver: Waiver, now: Date): boolean {
  return waiver.expires !== undefined && Date.parse(`${waiver.expires.slice(0, 10)}T23:59:59.999Z`) < now.getTime();
}

/** What the requirements' results hold that the waivers need: a status that a waiver may turn into "waived". */
interface Waivable {
  id: string;
  status: string;
  reason: string | null;
  waiver?: Waiver;
  staleWaiver?: Waiver;
}

export interface WaiverResult {
  /** In force, and its requirement failed: the failure is shown as "waived" and does not flip the verdict. */
  applied: Waiver[];
  /** Past its day: it waives nothing any more. */
  expired: Waiver[];
  /** In force, and its requirement passed in this run: it waives nothing and can go. */
  stale: Waiver[];
  /** In force, and its requirement was not judged in this run (blocked, skipped, not assessed): it may still be needed. */
  unused: Waiver[];
  /** AG_STRICT_WAIVERS (`agc run --strict-waivers`): a stale or expired waiver fails the run. */
  strict: boolean;
  /** Under strict: why the waivers fail the run, naming each; null when they do not. */
  failure: string | null;
}

/**
 * A failure with a waiver in force becomes "waived"; a waiver whose requirement passed is stale, as OpenID's suite and
 * MCP's conformance runner call an expected failure that no longer happens: a list nobody must act on goes unread, so
 * under `strict` a stale or expired waiver fails the run (its own exit status, common/exit-codes.mjs), whatever the verdict.
 */
export function applyWaivers(requirements: Waivable[], waivers: Waiver[], now: Date, strict = false): WaiverResult {
  const result: WaiverResult = { applied: [], expired: [], stale: [], unused: [], strict, failure: null };
  for (const waiver of waivers) {
    const target = requirements.find((r) => r.id === waiver.id);
    if (isExpired(waiver, now)) result.expired.push(waiver);
    else if (target?.status === 'failed') {
      target.status = 'waived';
      target.reason = `waived: ${waiver.reason} (${waiver.link}); the failure was: ${target.reason}`;
      target.waiver = waiver;
      result.applied.push(waiver);
    } else if (target?.status === 'passed') {
      target.staleWaiver = waiver;
      result.stale.push(waiver);
    } else result.unused.push(waiver);
  }
  if (strict && (result.stale.length || result.expired.length)) result.failure = waiverFailure(result);
  return result;
}

/** One line: which waivers fail a strict run, and why each. */
function waiverFailure({ stale, expired }: WaiverResult): string {
  const parts = [
    ...(stale.length ? [`stale (the requirement passed, the waiver can go): ${stale.map((w) => w.id).join(', ')}`] : []),
    ...(expired.length ? [`expired: ${expired.map((w) => `${w.id} (${w.expires})`).join(', ')}`] : []),
  ];
  return `waivers to update (--strict-waivers): ${parts.join('; ')}`;
}

/** What the console, summary.md and JUnit say of stale waivers, in a strict run or not; null when there are none. */
export function staleLine(result: Pick<WaiverResult, 'stale'>): string | null {
  return result.stale.length
    ? `stale waiver${result.stale.length === 1 ? '' : 's'} (the requirement passed; remove ${result.stale.length === 1 ? 'it' : 'them'} from the waiver file): ${result.stale.map((w) => w.id).join(', ')}`
    : null;
}
