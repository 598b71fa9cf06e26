/**
 * Mutants: the reference server plus ONE small named modifier each, to prove that every check of
 * the kit can fail. A modifier is a function replacing or wrapping one step of
 * `ReferenceHooks` (reference/behaviour.ts); everything else stays the reference behaviour.
 *
 * Each mutant breaks one requirement the way a real implementation might, and is written once, in
 * the file of that requirement's family (reference/mutants/env.ts, …): its name, the requirement
 * it breaks, its description and its modifier side by side. What a real stack does by default
 * (a framework's own error page, a body parser's leniency) is a mutant of the family it breaks too. Which requirements the suites then
 * actually fail is data, in reference/mutants.expected.yaml, and tests/matrices/mutants.test.ts runs the
 * suites against every mutant to prove that file right.
 *
 * `npm run reference -- --mutant NAME` serves one; `--list-mutants` lists them.
 *
 * Rules that keep kills deterministic: no randomness and no wall-clock conditions in a modifier;
 * per-server state lives in a WeakMap keyed by the server's HookContext (`perServer`). The one exception is
 * DURABILITY_MUTANTS: faults that are time itself (a snapshot that stops refreshing, groups dropped with age), which
 * only `agc certify --span` can show; they are apart from MUTANTS, so the kill matrix never runs them.
 */
import { ENV } from './mutants/env';
import { VER } from './mutants/ver';
import { AUTH } from './mutants/auth';
import { ERR } from './mutants/err';
import { CREATE } from './mutants/create';
import { LIST } from './mutants/list';
import { PAGE } from './mutants/page';
import { SCOPE } from './mutants/scope';
import { CHAN } from './mutants/chan';
import { VIS, VIS_DURABILITY } from './mutants/vis';
import { SCHEMA } from './mutants/schema';
import { INPUT } from './mutants/input';
import type { Mutant } from './mutants/helpers';

export type { Mutant } from './mutants/helpers';

/**
 * Every mutant, in the order of `--list-mutants` and of the kill matrix: the catalogue's families
 * in order, and within a family the order of its file. A new mutant goes at the end of its family.
 */
export const MUTANTS: readonly Mutant[] = [ENV, VER, AUTH, ERR, CREATE, LIST, PAGE, SCOPE, CHAN, VIS, SCHEMA, INPUT].flatMap((family) => Object.values(family));

/**
 * Mutants whose fault shows only over time (reference/mutants/vis.ts, VIS_DURABILITY): no single run of the kit is
 * expected to kill them, and the kill matrix does not run them; `agc certify --runs 2 --span 20s` must
 * (tests/certify.test.ts). `--mutant` serves them, `--list-mutants` lists them after the others.
 */
export const DURABILITY_MUTANTS: readonly Mutant[] = Object.values(VIS_DURABILITY);

export function findMutant(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name) ?? DURABILITY_MUTANTS.find((m) => m.name === name);
}
