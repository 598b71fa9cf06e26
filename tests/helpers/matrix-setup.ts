/** Global setup of tests/helpers/matrix.config.ts: the kit's own (suites/global-setup.ts), once per server, side by side. */
import type { FullConfig } from '@playwright/test';
import kitGlobalSetup from '../../suites/global-setup';
import { targetProjects } from './matrix-targets';

export default async function matrixSetup(config: FullConfig): Promise<() => Promise<void>> {
  const teardowns = await Promise.all(targetProjects(config).map((project) => kitGlobalSetup({ ...config, projects: [project] })));
  return async () => {
    for (const teardown of teardowns) await teardown();
  };
}
