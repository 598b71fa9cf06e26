/** What tests/suite-run.ts (runSuitesBatch) hands tests/matrix.config.ts: one entry per server, as JSON in the environment. */
export interface MatrixTarget {
  /** The target's name (the mutant's or variant's): the describe its tests run in (suites/fixtures.ts). */
  name: string;
  baseURL: string;
  runId: string;
  reportDir: string;
  /** The profile file the kit judges this server by; default the batch's AG_PROFILE. */
  profilePath?: string;
}

export const MATRIX_VARIABLE = 'AG_MATRIX_TARGETS';
