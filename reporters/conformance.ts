import type { FullResult } from '@playwright/test/reporter';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary } from './verdict';
import type { Output } from './output';
import { jsonOutput } from './json';
import { htmlOutput } from './html';
import { junitOutput } from './junit';
import { harOutput } from './har';
import { appendStepSummary, summaryOutput } from './summary';
import { statusOf, verdictLines } from './exit-status';

/** Every file of the report, each a rendering of the same verdict. */
export const OUTPUTS: readonly Output[] = [jsonOutput, htmlOutput, junitOutput, harOutput, summaryOutput];

/**
 * The report: the verdict is computed once for the run (collect.ts, verdict.ts), and every output renders that one
 * verdict; then the console's last lines say it, and the run's status is made the verdict's.
 */
export default class ConformanceOutputs extends ConformanceReporter {
  private summary?: ConformanceSummary;

  printsToStdio(): boolean {
    return true;
  }

  protected files(): string[] {
    return OUTPUTS.flatMap((output) => output.files);
  }

  protected write(summary: ConformanceSummary): void {
    this.summary = summary;
    for (const output of OUTPUTS) output.write(summary, this.reportDir, this.reportSettings);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    await super.onEnd(result);
    appendStepSummary(this.reportDir);
    console.log(verdictLines(this.summary!, this.reportDir));
    return { status: statusOf(result, this.summary!) };
  }
}
