import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';
import type { KitConfig } from './config';
import { recordCounterexample, recordNote } from '../facts/record';

/**
 * Runs one fast-check property against the target, replayably. No shrinking: against a live
 * server shrinking can send tens of thousands of requests, and the first counterexample of these
 * small generators is already readable. A failure attaches its seed and path; AG_SEED and
 * AG_FC_PATH replay exactly that case.
 */
export async function checkProperty<Ts>(testInfo: TestInfo, config: KitConfig, property: fc.IAsyncProperty<Ts>, { numRuns = config.numRuns } = {}): Promise<void> {
  const replayPath = process.env.AG_FC_PATH || undefined;
  const details = await fc.check(property, {
    seed: config.seed,
    numRuns,
    path: replayPath,
    endOnFailure: true,
    // Bounded by the test's own timeout, with room left to report.
    interruptAfterTimeLimit: Math.max(5_000, testInfo.timeout - 10_000),
    markInterruptAsFailure: true,
  });
  recordNote(testInfo, 'property', `seed ${config.seed}, ${details.numRuns} runs`);
  // A check inside the property asked to skip (the target rate-limited the kit): fast-check caught
  // that as a failure, but the test is not assessable, not failed.
  if (testInfo.expectedStatus === 'skipped') testInfo.skip(true, testInfo.annotations.findLast((a) => a.type === 'skip')?.description);
  if (details.failed) {
    const replay = `AG_SEED=${details.seed} AG_FC_PATH=${details.counterexamplePath ?? ''} npx playwright test -g ${JSON.stringify(testInfo.title.split(' ')[0])}`;
    const counterexample = {
      seed: details.seed,
      path: details.counterexamplePath,
      counterexample: details.counterexample === null ? null : fc.stringify(details.counterexample),
      interrupted: details.interrupted,
      replay,
    };
    await recordCounterexample(testInfo, counterexample);
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted: the time limit was reached');
    throw new Error(`property failed after ${details.numRuns} run(s) on ${counterexample.counterexample ?? 'no counterexample'}\n${cause}\nReplay: ${replay}`);
  }
}
