/** What tests/suite-run.ts (runSuitesBatch) hands tests/matrix.config.ts: one entry per server, as JSON in the environment. */
export interface MatrixTarget {
  /** The project's name: the mutant's or variant's. */
  name: string;
  baseURL: string;
  runId: string;
  reportDir: string;
  /** Requirements of one test each that this server should fail (suites/config.ts, KitWorkerOptions.expectedFailures). */
  expectedFailures: string[];
}

export const MATRIX_VARIABLE = 'AG_MATRIX_TARGETS';
