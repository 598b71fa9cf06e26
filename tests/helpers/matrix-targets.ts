import type { FullConfig, FullProject } from '@playwright/test/reporter';
import type { KitWorkerOptions } from '../../config';

/** What tests/helpers/suite-run.ts (runSuitesBatch) hands tests/helpers/matrix.config.ts: one entry per server, as JSON in the environment. */
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

/**
 * One project per server, as the kit's own global setup and reporter read a run's (tests/helpers/matrix-setup.ts,
 * tests/helpers/matrix-reporter.ts): named after it, with its configuration as `kitConfig`.
 */
export function targetProjects(config: Pick<FullConfig, 'projects'>): FullProject[] {
  const [project] = config.projects;
  const targets = (project.use as Partial<KitWorkerOptions>).kitTargets ?? {};
  return Object.entries(targets).map(([name, kitConfig]) => ({ ...project, name, use: { ...project.use, kitConfig } }) as FullProject);
}
