import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Output } from './output';
import type { ConformanceSummary, RequirementResult } from './verdict';
import { baselineLine } from './baseline';
import type { Waiver } from './waivers';
import { oneLine } from '../client/safe-text';
import { redactText, secretPattern, secretsFromEnv } from '../client/redact';

/**
 * summary.md: the verdict in a few lines of Markdown, for a CI job's summary page (appended to the
 * file named by $GITHUB_STEP_SUMMARY when that is set: appendStepSummary) or a pull-request comment: the verdict and
 * its first reason, one line per failed MUST and per warning, what could not be judged, and a link
 * to index.html. It shows the summary; it decides nothing.
 */
export const summaryOutput: Output = {
  files: ['summary.md'],
  write(summary, reportDir) {
    // Markdown would read the shared guard's `<redacted token>` as an HTML tag and show nothing: a
    // secret that reached this far is blotted out here first, in a form Markdown shows.
    const text = redactText(renderSummary(summary), secretPattern(secretsFromEnv()), '&lt;redacted token&gt;');
    writeFileSync(path.join(reportDir, 'summary.md'), text);
  },
};

/** Appends summary.md to the CI job's summary page ($GITHUB_STEP_SUMMARY), after the last guard has gone over it: what reaches the page is that file. */
export function appendStepSummary(reportDir: string): void {
  const stepSummary = process.env.GITHUB_STEP_SUMMARY;
  if (!stepSummary) return;
  try {
    appendFileSync(stepSummary, `${readFileSync(path.join(reportDir, 'summary.md'), 'utf8')}\n`);
  } catch (error) {
    console.error(`conformance kit: could not append summary.md to GITHUB_STEP_SUMMARY: ${oneLine((error as Error).message, 300)}`);
  }
}

/**
 * Text made safe for a Markdown line and for a CI log: one line, control characters visible and
 * workflow-command prefixes broken (client/safe-text.ts), then no HTML (`<`, `&`), no table cell
 * break (`|`), no code span, link, image or emphasis of the target's making.
 */
export function md(text: unknown, max = 300): string {
  return oneLine(text, max)
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[|`*_~[\]]/g, (c) => `\\${c}`);
}

/** A check's name as code when it is a plain name (they are the kit's function names), escaped text otherwise. */
const code = (name: string) => (/^[\w.-]+$/.test(name) ? `\`${name}\`` : md(name, 100));

/** What one failed requirement shows: its first failure's check and what was received, or its error's first line. */
function firstFailure(r: RequirementResult): { check: string; received: string } {
  const failed = r.tests.filter((t) => t.status === 'failed');
  const all = failed.flatMap((t) => t.failures);
  const first = all[0];
  const more = all.length > 1 ? ` (and ${all.length - 1} more)` : '';
  const difference = r.profileDifference ? ' (differs from the profile, not from the spec)' : '';
  if (first) return { check: code(String(first.check)), received: `${md(first.received)}${more}${difference}` };
  const error = failed
    .find((t) => t.error)
    ?.error?.split('\n')
    .find((l) => l.trim());
  return { check: '—', received: `${md(error ?? r.reason ?? 'failed')}${difference}` };
}

/** A table of waivers (the user's own file, escaped all the same), or nothing. */
function waiverLines(title: string, note: string, list: Waiver[]): string[] {
  if (!list.length) return [];
  const rows = list.map((w) => `| ${md(w.id, 40)} | ${md(w.reason, 200)} | ${md(w.link, 200)} | ${md(w.expires ?? '—', 40)} |`);
  return ['', `### ${title} (${list.length})`, '', note, '', '| ID | Reason | Link | Expires |', '|---|---|---|---|', ...rows];
}

const VERDICT_MARK = { conformant: '✅', 'non-conformant': '❌', incomplete: '⚠️' } as const;

export function renderSummary(s: ConformanceSummary): string {
  const failedMusts = s.requirements.filter((r) => r.level === 'MUST' && r.status === 'failed');
  const warnings = s.requirements.filter((r) => (r.level === 'SHOULD' || r.level === 'MAY') && r.status === 'failed');
  const count = (pick: (r: RequirementResult) => boolean) => s.requirements.filter(pick).length;
  const musts = s.requirements.filter((r) => r.level === 'MUST');
  const lines = [
    `## Asset-group conformance: ${VERDICT_MARK[s.verdict]} ${s.verdict}`,
    '',
    `**Verdict: ${s.verdict}**${s.firstReason ? `. First reason: ${md(s.firstReason, 500)}` : ''}`,
    '',
    `Target ${md(s.target.baseURL ?? 'none', 200)} · profile ${md(s.profile.name, 100)} · kit ${md(s.kit.version, 40)} · ${md(s.startedAt, 40)} · MUSTs passed: ${count((r) => r.level === 'MUST' && r.status === 'passed')} of ${musts.length}`,
  ];
  if (s.baseline) lines.push('', md(baselineLine(s.baseline), 1000));
  if (s.waivers.failure) lines.push('', `**Waivers fail the run (exit 4):** ${md(s.waivers.failure, 1000)}`);
  if (failedMusts.length) {
    lines.push('', `### Failed MUSTs (${failedMusts.length})`, '', '| ID | Requirement | Check | Received |', '|---|---|---|---|');
    for (const r of failedMusts) {
      const { check, received } = firstFailure(r);
      lines.push(`| ${md(r.id, 40)} | ${md(r.title, 200)} | ${check} | ${received} |`);
    }
  }
  if (warnings.length) {
    lines.push('', `### Warnings: SHOULD and MAY not met (${warnings.length})`, '', 'These do not change the verdict.', '');
    lines.push('| ID | Level | Requirement | Check | Received |', '|---|---|---|---|---|');
    for (const r of warnings) {
      const { check, received } = firstFailure(r);
      lines.push(`| ${md(r.id, 40)} | ${r.level} | ${md(r.title, 200)} | ${check} | ${received} |`);
    }
  }
  const notJudged = [
    `${count((r) => r.status === 'blocked')} blocked by a prerequisite`,
    `${count((r) => r.status === 'skipped' && !!r.profileMismatch)} not assessable (profile mismatch)`,
    `${count((r) => r.status === 'skipped' && !r.profileMismatch)} skipped`,
    `${count((r) => r.status === 'not-assessed')} not assessed (the spec leaves them open)`,
    `${count((r) => r.status === 'waived')} waived`,
  ];
  lines.push('', `**Not judged:** ${notJudged.join(' · ')}`);
  lines.push(...waiverLines('Stale waivers', 'Their requirement passed in this run: remove them from the waiver file.', s.waivers.stale));
  lines.push(...waiverLines('Expired waivers', 'Past their day, they waive nothing: renew or remove them.', s.waivers.expired));
  lines.push('', 'Every requirement, its evidence and the reasons: [index.html](index.html), beside this file in the report folder.', '');
  return lines.join('\n');
}
