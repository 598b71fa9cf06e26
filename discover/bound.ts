/**
 * `agc profile discover`: the search for the largest value a target accepts (a page size, a
 * length), knowing one value it accepts and one it refuses.
 *
 * A refusal's message usually names the bound ("at most 64 characters"): it is then checked with
 * two probes, bound + 1 and bound. Otherwise common bounds are searched, then exact values. For
 * creates an accepted probe leaves a group behind and spends the create budget, a refused one
 * costs nothing: the search is then told how many acceptances it may afford (`eggs`) and places
 * its probes as in the egg-drop puzzle, so that it never needs more; with one to spare it walks
 * down from the top, where every probe but the last is refused.
 */
import type { DiscoverSession } from './client';

/** Bounds implementers commonly pick, tried first when an error message names none. */
export const COMMON_BOUNDS = [
  16, 20, 25, 30, 32, 40, 50, 60, 64, 80, 100, 120, 128, 150, 200, 250, 255, 256, 300, 400, 500, 512, 1000, 1024, 2000, 2048, 4096, 5000,
];

export type Outcome = 'accepted' | 'refused';

export interface BoundOptions {
  /** What the value counts, for the notes ("characters", "items per page"). */
  unit: string;
  /** Probes this setting may send in all. */
  maxProbes: number;
  /** How many more acceptances the search may afford, asked before every probe; Infinity for lists. */
  eggs: () => number;
  /**
   * The spec shows no such bound: the largest value accepted means the target has none up to it, a
   * finding (the setting null) rather than a value left undetermined. Unset: kept at the reference value.
   */
  noBound?: boolean;
}

/** Candidates k acceptances and d probes can tell apart: C(d,1) + … + C(d,k). */
function reach(k: number, d: number): number {
  let total = 0;
  let term = 1;
  for (let i = 1; i <= Math.min(k, d); i++) {
    term = (term * (d - i + 1)) / i;
    total += term;
  }
  return total;
}

/** Which of n ascending candidates to probe next with k acceptances to spare. */
function pick(n: number, k: number): number {
  if (k >= Math.ceil(Math.log2(n + 1))) return Math.floor(n / 2);
  let d = 1;
  while (reach(k, d) < n) d++;
  // Above the probe, at most what k - 1 acceptances and d - 1 probes can still search.
  return Math.max(0, n - 1 - reach(k - 1, d - 1));
}

/**
 * The largest value `probe` accepts, knowing `lo` is accepted. Returns undefined (and keeps the
 * reference value, with the reason) when it cannot tell within the probes or the acceptances it
 * may afford. `outcomes` collects the evidence, one line per probe.
 */
export async function bound(
  session: DiscoverSession,
  lo: number,
  big: number,
  probe: (value: number) => Promise<Outcome>,
  setting: string,
  outcomes: string[],
  options: BoundOptions,
): Promise<number | undefined> {
  const { unit, maxProbes, eggs } = options;
  let probes = 0;
  const ask = async (value: number) => {
    probes++;
    return probe(value);
  };
  const stop = (why: string): undefined => {
    session.keep(setting, ...outcomes, why);
    return undefined;
  };
  if (eggs() < 1) return stop(`not probed: the create budget is spent`);
  if ((await ask(big)) === 'accepted') {
    if (options.noBound) {
      session.decide(setting, null, ...outcomes, `${big} ${unit} were accepted: no bound up to that, and the spec shows none; null states none`);
      return undefined;
    }
    return stop(
      `${big} ${unit} were accepted: no bound below that; the kit expects a refusal above the profile's bound, so set it to what the target documents`,
    );
  }
  let hi = big;
  // The numbers a refusal names, largest first, between what is known to pass and to fail.
  const hints = [...new Set((session.lastMessage ?? '').match(/\d+/g)?.map(Number) ?? [])].filter((n) => n > lo && n < hi).sort((a, b) => b - a);
  for (const hint of hints.slice(0, 2)) {
    if (eggs() < 1) break;
    if ((await ask(hint + 1)) === 'accepted') {
      lo = hint + 1;
      continue;
    }
    hi = hint + 1;
    if (eggs() < 1) break;
    if ((await ask(hint)) === 'accepted') return hint;
    hi = hint;
  }
  // Common bounds, keeping one acceptance for the exact value past the one found; then values.
  let exact = false;
  for (;;) {
    if (hi - lo <= 1) return lo;
    const common = COMMON_BOUNDS.filter((c) => c > lo && c < hi);
    if (!common.length && !exact) {
      // The likeliest bound is the accepted value itself (often a common bound): just above it first.
      exact = true;
      if (eggs() < 1) break;
      if (probes >= maxProbes) break;
      if ((await ask(lo + 1)) === 'accepted') lo = lo + 1;
      else hi = lo + 1;
      continue;
    }
    const left = eggs();
    const spare = common.length ? (left === Infinity ? left : Math.max(1, left - 1)) : left;
    if (left < 1 || probes >= maxProbes) break;
    const values = common.length ? common : Array.from({ length: hi - lo - 1 }, (_, i) => lo + 1 + i);
    const value = values[pick(values.length, spare)];
    if ((await ask(value)) === 'accepted') lo = value;
    else hi = value;
  }
  const spent = eggs() < 1 ? 'the create budget is spent' : 'the probe budget for this setting is spent';
  return stop(`between ${lo} (accepted) and ${hi} (refused) ${unit}; ${spent}`);
}
