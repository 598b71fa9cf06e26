/** Global setup of tests/matrix.config.ts: the kit's own (suites/global-setup.ts), once per server, side by side. */
import type { FullConfig, FullProject } from '@playwright/test';
import kitGlobalSetup from '../suites/global-setup';
import { targetProjects } from './matrix-reporter';

export default async function matrixSetup(config: FullConfig): Promise<() => Promise<void>> {
  const teardowns = await Promise.all(targetProjects(config).map((project) => kitGlobalSetup({ ...config, projects: [project as FullProject] })));
  return async () => {
    for (const teardown of teardowns) await teardown();
  };
}
