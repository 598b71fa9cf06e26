import type { TestInfo } from '@playwright/test';

/** The requirement a test judges: its `requirement` annotation. */
export const ownRequirement = (testInfo: TestInfo) => testInfo.annotations.find((a) => a.type === 'requirement')?.description;

/**
 * Skips the running test as blocked by the requirements whose failure left it nothing to judge.
 * A blocked requirement counts in no failure total; the verdict is decided by the root cause.
 */
export function blocked(testInfo: TestInfo, owners: string[], reason: string): never {
  for (const owner of owners) testInfo.annotations.push({ type: 'blocked', description: owner });
  testInfo.skip(true, `blocked by ${owners.join(', ')}: ${reason}`);
  throw new Error('unreachable');
}
