/**
 * The kit's conformance.json for each project of tests/matrix.config.ts: one instance of the kit's
 * own reporter (reporters/json.ts) per project, each begun with a view of the configuration that
 * holds only its project (where it reads its settings and report folder) and given only its tests.
 */
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import JsonReporter from '../reporters/json';

export default class MatrixReporter implements Reporter {
  private readonly byProject = new Map<string, JsonReporter>();

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    for (const project of config.projects) {
      const reporter = new JsonReporter();
      reporter.onBegin({ ...config, projects: [project] }, suite);
      this.byProject.set(project.name, reporter);
    }
  }

  onError(error: TestError): void {
    for (const reporter of this.byProject.values()) reporter.onError(error);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.byProject.get(test.parent.project()?.name ?? '')?.onTestEnd(test, result);
  }

  async onEnd(result: FullResult): Promise<void> {
    for (const reporter of this.byProject.values()) await reporter.onEnd(result);
  }
}
