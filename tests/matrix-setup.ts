/** Global setup of tests/matrix.config.ts: the kit's own (suites/global-setup.ts), once per project, side by side. */
import type { FullConfig } from '@playwright/test';
import kitGlobalSetup from '../suites/global-setup';

export default async function matrixSetup(config: FullConfig): Promise<() => Promise<void>> {
  const teardowns = await Promise.all(config.projects.map((project) => kitGlobalSetup({ ...config, projects: [project] })));
  return async () => {
    for (const teardown of teardowns) await teardown();
  };
}
