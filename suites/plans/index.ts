/**
 * The planned requests of the suites, by family: requests a test sends whatever the target answers, as data, which
 * the runner may send first (declared with their tests in suites/families/). See plan.ts for why each plan is a pure function of the run.
 */
export * from './plan';
export * from './auth';
export * from './input';
export * from './page';
export * from './reads';
