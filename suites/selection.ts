/**
 * Which tests this run selected, for the runner's requests sent ahead (suites/plans/): Playwright
 * runs global setup before it loads the test files, so only a reporter's onBegin, which comes after
 * the load and before any worker starts, sees the tests that -g, file arguments, --shard or
 * test.only left. This reporter displays nothing and decides nothing: it hands the keys of those tests'
 * plans (their `plan` annotations, suites/families/), in the order the tests come, to the
 * create-and-wait phase, which runs on in the same process (suites/global-setup.ts). Without it (a
 * --reporter on the command line that leaves it out) nothing is sent ahead: every test sends its own.
 */
import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';
import { ANNOTATION } from '../facts/record';

interface Pending {
  keys?: Promise<string[] | undefined>;
  settle?: (titles: string[] | undefined) => void;
}

/** Shared by the reporter and global setup through the runner's global object: each may be loaded by its own loader. */
const SLOT = Symbol.for('agc.selection');
const pending = (): Pending => ((globalThis as Record<symbol, Pending>)[SLOT] ??= {});

function keys(): Promise<string[] | undefined> {
  const slot = pending();
  slot.keys ??= new Promise((resolve) => (slot.settle = resolve));
  return slot.keys;
}

/** Whether this run's reporters include this one: only then will the selection come. */
export function selectionReported(config: FullConfig): boolean {
  return config.reporter.some(([name]) => /[\\/]suites[\\/]selection\.ts$/.test(name));
}

/** The plan keys of the selected tests, in the order they run, once onBegin has seen them; undefined if the run ends first (endSelection). */
export const selectedPlans = (): Promise<string[] | undefined> => keys();

/** The run ends without a selection (global teardown after a failed load): whoever waits for one stops waiting. */
export function endSelection(): void {
  void keys();
  pending().settle?.(undefined);
}

export default class Selection implements Reporter {
  onBegin(_config: FullConfig, suite: Suite): void {
    void keys();
    pending().settle?.(suite.allTests().flatMap((test) => test.annotations.filter((a) => a.type === ANNOTATION.plan).map((a) => a.description ?? '')));
  }

  printsToStdio(): boolean {
    return false;
  }
}
