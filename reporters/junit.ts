import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary, RequirementResult } from './verdict';

const xml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * junit.xml: one testcase per requirement, grouped by family, for CI dashboards. A failed SHOULD
 * is shown as a failure with "warning" in its type; the verdict is in the suite's properties.
 */
export default class JunitReporter extends ConformanceReporter {
  protected write(summary: ConformanceSummary): void {
    const families = [...new Set(summary.requirements.map((r) => r.family))];
    const suites = families.map((family) => {
      const reqs = summary.requirements.filter((r) => r.family === family);
      const count = (s: string) => reqs.filter((r) => r.status === s).length;
      const time = reqs.reduce((sum, r) => sum + r.tests.reduce((t, o) => t + o.durationMs, 0), 0) / 1000;
      return `  <testsuite name="${family}" tests="${reqs.length}" failures="${count('failed')}" skipped="${count('skipped') + count('not-assessed') + count('waived')}" time="${time.toFixed(3)}">\n${reqs.map(testcase).join('\n')}\n  </testsuite>`;
    });
    const failures = summary.requirements.filter((r) => r.status === 'failed').length;
    const body = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="asset-group conformance: ${summary.verdict}" tests="${summary.requirements.length}" failures="${failures}">
  <properties>
    <property name="verdict" value="${summary.verdict}"/>
    <property name="target" value="${xml(summary.target.baseURL ?? '')}"/>
    <property name="profile" value="${xml(summary.profile.name)}"/>
    <property name="seed" value="${summary.seed ?? ''}"/>
  </properties>
${suites.join('\n')}
</testsuites>
`;
    writeFileSync(path.join(this.reportDir, 'junit.xml'), body);
  }
}

function testcase(r: RequirementResult): string {
  const time = (r.tests.reduce((t, o) => t + o.durationMs, 0) / 1000).toFixed(3);
  const open = `    <testcase classname="${r.family}" name="${xml(`${r.id} [${r.level}] ${r.title}`)}" time="${time}">`;
  const checks = r.checks.length ? `\n      <system-out>${xml(`checks: ${r.checks.join(', ')}`)}</system-out>` : '';
  switch (r.status) {
    case 'failed': {
      const detail = r.tests.filter((t) => t.status === 'failed').map((t) => `${t.title}\n${t.error ?? ''}`).join('\n\n');
      return `${open}\n      <failure type="${r.level === 'MUST' ? 'MUST' : `${r.level} (warning)`}" message="${xml(r.reason ?? 'failed')}">${xml(detail)}</failure>${checks}\n    </testcase>`;
    }
    case 'passed':
      return `${open}${checks}\n    </testcase>`;
    default:
      return `${open}\n      <skipped message="${xml(`${r.status}: ${r.reason ?? ''}`)}"/>\n    </testcase>`;
  }
}
