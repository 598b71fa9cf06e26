/**
 * Checks are small named pure functions over captured exchanges: they never send a request. A
 * check's function name is its key in reports and docs. Each lives in the file of the family of the
 * requirement that owns it (env.ts, ver.ts, … input.ts, in the catalogue's order): everything a
 * family file exports is a check, a factory of checks, or a precondition built of one (`JSON_ANSWER`).
 * What checks are built from is kit.ts (the types, `owned`, `fail`, the reading of list items); what a
 * test applies that other requirements own is preconditions.ts. Neither holds a check.
 */
import * as ENV from './env';
import * as VER from './ver';
import * as AUTH from './auth';
import * as ERR from './err';
import * as CREATE from './create';
import * as LIST from './list';
import * as PAGE from './page';
import * as SCOPE from './scope';
import * as CHAN from './chan';
import * as VIS from './vis';
import * as SCHEMA from './schema';
import * as INPUT from './input';

/** Every family's checks, by family: tests/matrices/mutants.test.ts proves each function here can fail. */
export const CHECKS_BY_FAMILY = { ENV, VER, AUTH, ERR, CREATE, LIST, PAGE, SCOPE, CHAN, VIS, SCHEMA, INPUT } as const;

export * from './kit';
export * from './preconditions';
export * from './env';
export * from './ver';
export * from './auth';
export * from './err';
export * from './create';
export * from './list';
export * from './page';
export * from './scope';
export * from './chan';
export * from './vis';
export * from './schema';
export * from './input';
