import fc from 'fast-check';
import type { TestInfo } from '@playwright/test';
import type { KitConfig } from '../config';
import type { Exchange } from '../client/exchange';
import type { Api } from './api';
import { drawnRuns, plannedAhead, sendPlanned, type PropertyPlan } from './plans';
import { mismatchesLast, recordCounterexample, recordNote } from '../facts/record';

/**
 * Runs one fast-check property against the target, replayably. No shrinking: against a live
 * server shrinking can send tens of thousands of requests, and the first counterexample of these
 * small generators is already readable. A failure attaches its seed and path; AG_SEED and
 * AG_FC_PATH replay exactly that case.
 */
export async function checkProperty<Ts>(
  testInfo: TestInfo,
  config: KitConfig,
  property: fc.IAsyncProperty<Ts>,
  /**
   * examples: values tried before the generated runs, every run, and counted among numRuns (fast-check's own option).
   * mismatchesLast: runs that judge one answer each, independent of one another: a run that shows another profile's
   * choice does not end the property, so that a failure no profile allows in a later run is not hidden (facts/record.ts).
   */
  { numRuns = config.numRuns, examples = [] as Ts[], mismatchesLast: holding = false } = {},
): Promise<void> {
  if (holding) return mismatchesLast(testInfo, () => checkProperty(testInfo, config, property, { numRuns, examples }));
  const replayPath = process.env.AG_FC_PATH || undefined;
  const details = await fc.check(property, {
    seed: config.seed,
    numRuns,
    examples,
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
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance ?? 'interrupted: the time limit was reached');
    throw new Error(`property failed after ${details.numRuns} run(s) on ${counterexample.counterexample ?? 'no counterexample'}\n${cause}\nReplay: ${replay}`);
  }
}

/**
 * fast-check tries a property's runs one after another. Each property below sends one request per
 * run, built from the run's values alone, so the runs' requests are sent ahead (plannedAhead, a few at
 * a time; the runner may have sent them already: suites/plans/) and each run takes the answer to its
 * values. The values are those fc.check is about to draw (drawnRuns). A run whose values were not
 * foreseen (a replay path that shrinks) sends its own.
 */
export async function sentAhead<Ts extends unknown[]>(
  api: Api,
  config: KitConfig,
  { arbitraries, examples, request }: PropertyPlan<Ts>,
): Promise<(...values: Ts) => Promise<Exchange>> {
  const runs = drawnRuns(config, arbitraries, examples);
  const answers = await plannedAhead(
    api,
    runs.map((values) => request(...values)),
  );
  const byValues = new Map(runs.map((values, i) => [JSON.stringify(values), answers[i]]));
  return (...values) => byValues.get(JSON.stringify(values)) ?? sendPlanned(api, request(...values));
}
