import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary } from './verdict';

/** conformance.json: the machine-readable verdict (shape: schemas/conformance-report.schema.json). */
export default class JsonReporter extends ConformanceReporter {
  protected files(): string[] {
    return ['conformance.json'];
  }

  protected write(summary: ConformanceSummary): void {
    writeFileSync(path.join(this.reportDir, 'conformance.json'), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
