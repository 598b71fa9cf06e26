import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Output } from './output';
import { PROFILE_HINT, type ConformanceSummary, type RequirementResult } from './verdict';
import { baselineLine } from './baseline';
import { oneLine } from '../client/safe-text';
import { loadCatalogue } from '../schemas/requirements';

/** Target text in JUnit: each line its own, control characters visible, workflow-command prefixes broken. */
const eachLine = (text: string) =>
  text
    .split('\n')
    .map((l) => oneLine(l))
    .join('\n');

const xml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * junit.xml: one testcase per requirement, grouped by family, for CI dashboards. A failed SHOULD
 * is shown as a failure with "warning" in its type; blocked and not-assessable requirements are
 * skipped with their reason; the verdict, and what changed since a baseline, are in the properties.
 */
export const junitOutput: Output = {
  files: ['junit.xml'],
  write(summary, reportDir, settings) {
    writeFileSync(path.join(reportDir, 'junit.xml'), renderJunit(summary));
  },
};

export function renderJunit(summary: ConformanceSummary): string {
  // In the catalogue's order of families, as every output lists them.
  const present = new Set(summary.requirements.map((r) => r.family));
  const families = Object.keys(loadCatalogue().families).filter((family) => present.has(family));
  const suites = families.map((family) => {
    const reqs = summary.requirements.filter((r) => r.family === family);
    const count = (s: string) => reqs.filter((r) => r.status === s).length;
    const time = reqs.reduce((sum, r) => sum + r.tests.reduce((t, o) => t + o.durationMs, 0), 0) / 1000;
    return `  <testsuite name="${family}" tests="${reqs.length}" failures="${count('failed')}" skipped="${count('blocked') + count('skipped') + count('not-assessed') + count('waived')}" time="${time.toFixed(3)}">\n${reqs.map((r) => testcase(r, summary)).join('\n')}\n  </testsuite>`;
  });
  const waiverSuite = waiversSuite(summary);
  const failures = summary.requirements.filter((r) => r.status === 'failed').length + waiverSuite.failures;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="asset-group conformance: ${summary.verdict}" tests="${summary.requirements.length + waiverSuite.failures}" failures="${failures}">
  <properties>
    <property name="verdict" value="${summary.verdict}"/>
    <property name="target" value="${xml(summary.target.baseURL ?? '')}"/>
    <property name="profile" value="${xml(summary.profile.name)}"/>
    <property name="seed" value="${summary.seed ?? ''}"/>${waiverProperties(summary)}${baselineProperties(summary)}
  </properties>
${[...suites, ...waiverSuite.xml].join('\n')}
</testsuites>
`;
}

/** The waivers' facts, whenever a waiver file was given: stale and expired ones by ID, and whether they fail the run. */
function waiverProperties(summary: ConformanceSummary): string {
  const w = summary.waivers;
  if (!w.applied.length && !w.expired.length && !w.stale.length && !w.unused.length) return '';
  const property = (name: string, value: string) => `\n    <property name="waivers.${name}" value="${xml(value)}"/>`;
  return [
    property('applied', w.applied.map((x) => x.id).join(' ')),
    property('stale', w.stale.map((x) => x.id).join(' ')),
    property('expired', w.expired.map((x) => x.id).join(' ')),
    property('strict', String(w.strict)),
    ...(w.failure ? [property('failure', w.failure)] : []),
  ].join('');
}

/**
 * Under --strict-waivers, each stale or expired waiver is a failed testcase of its own suite, so a CI dashboard shows
 * why a run whose requirements all passed is red; the requirements' own testcases stay as they were judged.
 */
function waiversSuite(summary: ConformanceSummary): { xml: string[]; failures: number } {
  const w = summary.waivers;
  if (!w.failure) return { xml: [], failures: 0 };
  const cases = [
    ...w.stale.map((x) => ({ x, type: 'stale waiver', message: `${x.id} passed: the waiver (${x.reason}; ${x.link}) can go` })),
    ...w.expired.map((x) => ({ x, type: 'expired waiver', message: `the waiver of ${x.id} expired on ${x.expires} (${x.reason}; ${x.link})` })),
  ].map(
    ({ x, type, message }) =>
      `    <testcase classname="waivers" name="${xml(`waiver ${x.id}`)}" time="0.000">\n      <failure type="${type}" message="${xml(oneLine(message))}">${xml(oneLine(w.failure!, 1000))}</failure>\n    </testcase>`,
  );
  return {
    xml: [`  <testsuite name="waivers" tests="${cases.length}" failures="${cases.length}" skipped="0" time="0.000">\n${cases.join('\n')}\n  </testsuite>`],
    failures: cases.length,
  };
}

function baselineProperties(summary: ConformanceSummary): string {
  const c = summary.baseline;
  if (!c) return '';
  const others = c.changed.filter((x) => !c.newlyFailing.includes(x.id) && !c.fixed.includes(x.id)).map((x) => `${x.id}:${x.before ?? 'new'}->${x.now}`);
  const property = (name: string, value: string) => `\n    <property name="baseline.${name}" value="${xml(value)}"/>`;
  return [
    property('file', c.file),
    property('startedAt', c.startedAt ?? ''),
    property('verdict', c.verdict.before),
    property('newlyFailing', c.newlyFailing.join(' ')),
    property('fixed', c.fixed.join(' ')),
    property('otherChanges', others.join(' ')),
    property('specHashChanged', String(c.specHashChanged)),
    property('profileChanged', String(c.profileChanged)),
    property('summary', baselineLine(c)),
  ].join('');
}

function testcase(r: RequirementResult, summary: ConformanceSummary): string {
  const time = (r.tests.reduce((t, o) => t + o.durationMs, 0) / 1000).toFixed(3);
  const open = `    <testcase classname="${r.family}" name="${xml(`${r.id} [${r.level}] ${r.title}`)}" time="${time}">`;
  const change = summary.baseline?.changed.find((c) => c.id === r.id);
  const lines = [
    `spec: ${r.spec}`,
    ...(r.checks.length ? [`checks: ${r.checks.join(', ')}`] : []),
    ...(r.testFiles.length ? [`test files: ${r.testFiles.join(', ')}`] : []),
    ...(r.profileDifference ? [r.profileDifference] : []),
    ...(r.staleWaiver ? [`waiver stale: this requirement passed, so its waiver (${r.staleWaiver.reason}; ${r.staleWaiver.link}) can go`] : []),
    ...(change ? [`since the baseline: ${change.before ?? 'not in the baseline'} -> ${change.now}`] : []),
  ];
  const out = `\n      <system-out>${xml(lines.join('\n'))}</system-out>`;
  switch (r.status) {
    case 'failed': {
      const detail = r.tests
        .filter((t) => t.status === 'failed')
        .map(
          (t) =>
            `${oneLine(t.noticedIn ? `found while running ${t.noticedIn}${(t.failures[0]?.answers ?? 1) > 1 ? `, on ${t.failures[0].answers} answers of the run` : ''}` : t.title)}\n${t.error ? eachLine(t.error) : t.failures.map((f) => `${oneLine(f.check)}: ${oneLine(f.received)}\n${oneLine(f.documented)}\n${oneLine(f.fix)}`).join('\n')}`,
        )
        .join('\n\n');
      const type = r.level === 'MUST' ? 'MUST' : `${r.level} (warning)`;
      const message = oneLine(r.profileDifference ? `differs from the profile "${summary.profile.name}": ${r.reason ?? 'failed'}` : (r.reason ?? 'failed'));
      return `${open}\n      <failure type="${xml(type)}" message="${xml(message)}">${xml(detail)}</failure>${out}\n    </testcase>`;
    }
    case 'passed':
      return `${open}${out}\n    </testcase>`;
    case 'blocked':
      // The reason already reads "blocked by VIS-01: …".
      return `${open}\n      <skipped message="${xml(oneLine(r.reason ?? `blocked by ${(r.blockedBy ?? []).join(', ')}`))}"/>${out}\n    </testcase>`;
    default: {
      const message = oneLine(r.profileMismatch ? `${r.reason}; ${PROFILE_HINT}` : `${r.status}: ${r.reason ?? ''}`);
      return `${open}\n      <skipped message="${xml(message)}"/>${out}\n    </testcase>`;
    }
  }
}
