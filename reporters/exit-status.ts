import type { FullResult } from '@playwright/test/reporter';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary } from './verdict';
import { baselineLine } from './baseline';
import { oneLine } from '../client/safe-text';
import { staleLine } from './waivers';

/**
 * Makes the run's exit status the verdict's: a failed SHOULD or MAY is a warning and leaves a
 * conforming run green; anything short of "conformant" fails it, and so do waivers to update under
 * --strict-waivers (the verdict's `waivers.failure`). Prints the verdict last, after any stale waiver.
 */
export default class ExitStatusReporter extends ConformanceReporter {
  private summary?: ConformanceSummary;

  printsToStdio(): boolean {
    return true;
  }

  protected write(summary: ConformanceSummary): void {
    this.summary = summary;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    await super.onEnd(result);
    const summary = this.summary!;
    const warnings = summary.warnings.length ? ` (SHOULD not met: ${summary.warnings.join(', ')})` : '';
    const since = summary.baseline ? `\n${baselineLine(summary.baseline)}` : '';
    const stale = staleLine(summary.waivers);
    const waivers = [...(stale ? [`Waivers: ${stale}`] : []), ...(summary.waivers.failure ? [`Waivers fail the run: ${summary.waivers.failure}`] : [])];
    console.log(
      `\nVerdict: ${summary.verdict}${warnings}${summary.firstReason ? `\n  ${oneLine(summary.firstReason)}` : ''}${since}${waivers.map((l) => `\n${oneLine(l, 1000)}`).join('')}\nReport: ${this.reportDir}/index.html`,
    );
    if (result.status === 'interrupted' || result.status === 'timedout') return { status: result.status };
    return { status: summary.verdict === 'conformant' && !summary.waivers.failure ? 'passed' : 'failed' };
  }
}
