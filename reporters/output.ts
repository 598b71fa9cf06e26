import type { ReportSettings } from '../config';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary } from './verdict';

/**
 * One output of the report (conformance.json, index.html and its badge, junit.xml, exchanges.har, summary.md): a
 * rendering of the verdict computed once for the run (reporters/conformance.ts). An output decides nothing.
 */
export interface Output {
  /** The files it writes in the report folder, which the last guard then reads again (collect.ts guardFile). */
  files: readonly string[];
  write(summary: ConformanceSummary, reportDir: string, settings: ReportSettings): void;
}

/** One output as a reporter of its own: for a run that wants that file alone (the self-test's matrices: conformance.json per server). */
export function reporterOf(output: Output): new () => ConformanceReporter {
  return class extends ConformanceReporter {
    protected files(): string[] {
      return [...output.files];
    }

    protected write(summary: ConformanceSummary): void {
      output.write(summary, this.reportDir, this.reportSettings);
    }
  };
}
