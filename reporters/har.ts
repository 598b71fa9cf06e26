import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Output } from './output';
import { exchangeLogDir } from '../client/exchange-log';
import { writeFullHar } from './har-all';
import { renderHar } from './har-entries';

/**
 * exchanges.har: the exchanges the report holds as evidence (of failures and of findings), as an
 * HTTP Archive 1.2 that browsers' network panels, HAR viewers and proxies open. It shows what
 * conformance.json holds and nothing more: every exchange was redacted when it was received and
 * bounded when it was recorded (AG_EVIDENCE_BYTES), and the report-wide bound
 * (AG_REPORT_TARGET_BYTES) was applied when the test was read, so an exchange dropped there is not
 * in this file either. Nothing is re-read or re-expanded here; the reporter decides nothing.
 */
export const harOutput: Output = {
  files: ['exchanges.har'],
  write(summary, reportDir, settings) {
    const file = path.join(reportDir, 'exchanges.har');
    // A certification's run (AG_HAR_ALL): every exchange, from the files the senders wrote (reporters/har-all.ts).
    const { harAll, reportTargetBytes } = settings;
    if (harAll && summary.runId) writeFullHar(file, summary, exchangeLogDir(reportDir, summary.runId), reportTargetBytes);
    else writeFileSync(file, `${JSON.stringify(renderHar(summary), null, 2)}\n`);
  },
};
