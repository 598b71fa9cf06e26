import type { FullResult } from '@playwright/test/reporter';
import type { ConformanceSummary } from './verdict';
import { baselineLine } from './baseline';
import { oneLine } from '../client/safe-text';
import { staleLine } from './waivers';

/** The verdict as the console's last lines: its first reason, what changed since a baseline, waivers to update, and where the report is. */
export function verdictLines(summary: ConformanceSummary, reportDir: string): string {
  const warnings = summary.warnings.length ? ` (SHOULD not met: ${summary.warnings.join(', ')})` : '';
  const since = summary.baseline ? `\n${baselineLine(summary.baseline)}` : '';
  const stale = staleLine(summary.waivers);
  const waivers = [...(stale ? [`Waivers: ${stale}`] : []), ...(summary.waivers.failure ? [`Waivers fail the run: ${summary.waivers.failure}`] : [])];
  return `\nVerdict: ${summary.verdict}${warnings}${summary.firstReason ? `\n  ${oneLine(summary.firstReason)}` : ''}${since}${waivers.map((l) => `\n${oneLine(l, 1000)}`).join('')}\nReport: ${reportDir}/index.html`;
}

/**
 * The run's status as the verdict makes it: a failed SHOULD or MAY is a warning and leaves a conforming run green;
 * anything short of "conformant" fails it, and so do waivers to update under --strict-waivers (the verdict's
 * `waivers.failure`). An interrupted or timed-out run stays so.
 */
export function statusOf(result: FullResult, summary: ConformanceSummary): FullResult['status'] {
  if (result.status === 'interrupted' || result.status === 'timedout') return result.status;
  return summary.verdict === 'conformant' && !summary.waivers.failure ? 'passed' : 'failed';
}
