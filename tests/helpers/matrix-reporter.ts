/**
 * The kit's conformance.json for each server of tests/helpers/matrix.config.ts: one instance of the kit's
 * own reporter (reporters/json.ts) per server, each begun with a view of the configuration whose one
 * project is that server's (where it reads its settings and report folder) and given only its tests:
 * those of the describe named after it (suites/fixtures.ts).
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import JsonReporter from './conformance-json';
import { FAILURES_KEEP_WORKER } from '../../config';
import { targetProjects } from './matrix-targets';

/** The server a test ran against: the describe named after it, just inside the file. */
function targetOf(test: TestCase): string | undefined {
  let suite: Suite | undefined = test.parent;
  while (suite?.parent && suite.parent.type !== 'file') suite = suite.parent;
  return suite?.parent ? suite.title : undefined;
}

export default class MatrixReporter implements Reporter {
  private readonly byTarget = new Map<string, InstanceType<typeof JsonReporter>>();

  constructor() {
    // As the kit's console does (config/index.ts): these reports, and the matrices, read each test's status, so a failed
    // test keeps the batch's worker.
    process.env[FAILURES_KEEP_WORKER] = '1';
  }

  /**
   * True though it prints nothing: where no reporter prints, Playwright adds its own (dot, under CI), which writes a
   * character per test, some two thousand a batch, each through the kit's console guard (reporters/collect.ts), to a
   * console the matrices never read: they read statuses from files.
   */
  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    for (const project of targetProjects(config)) {
      const reporter = new JsonReporter();
      reporter.onBegin({ ...config, projects: [project] }, suite);
      this.byTarget.set(project.name, reporter);
    }
  }

  onError(error: TestError): void {
    for (const reporter of this.byTarget.values()) reporter.onError(error);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.byTarget.get(targetOf(test) ?? '')?.onTestEnd(test, result);
  }

  async onEnd(result: FullResult): Promise<void> {
    for (const reporter of this.byTarget.values()) await reporter.onEnd(result);
  }
}
