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
