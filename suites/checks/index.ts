/**
 * Checks are small named pure functions over captured exchanges: they never send a request. A
 * check's function name is its key in reports and docs. Find one by its requirement's family:
 * envelope.ts (ENV, VER), errors.ts (AUTH, ERR, INPUT), lists.ts (CREATE, LIST, PAGE, SCOPE, CHAN,
 * SCHEMA), multi.ts (over several exchanges: CREATE-03, ENV-04, PAGE-05, VIS-01); kit.ts holds the
 * types and the precondition rules (`owned`). Everything exported here is a check, a factory of
 * checks, or one of those types and rules (tests/mutants.test.ts tells them apart).
 */
export { OPERATIONS, owned, formatFailure } from './kit';
export type { Failure, CheckContext, Check, MultiCheck, Owned, Step, OperationId } from './kit';
export * from './envelope';
export * from './errors';
export * from './lists';
export * from './multi';
