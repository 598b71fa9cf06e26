import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Output } from './output';
import type { ConformanceSummary, RequirementResult } from './verdict';
import { loadCatalogue } from '../schemas/requirements';
import { renderBadge } from './badge';
import { baselineBlock, esc, failureCard, familyItem, pageHead, reasonList } from './html-parts';

/**
 * index.html: one self-contained page (no fetches, no external CSS or JS) for a person opening
 * CI artefacts, and badge.svg beside it for READMEs. It only shows the summary; it decides nothing.
 * The page reads top-down by urgency: the verdict and what changed, the failed MUSTs, the warnings,
 * what could not be judged and why, and only then every requirement by family.
 */
export const htmlOutput: Output = {
  files: ['index.html', 'badge.svg'],
  write(summary, reportDir, settings) {
    writeFileSync(path.join(reportDir, 'index.html'), renderHtml(summary));
    writeFileSync(path.join(reportDir, 'badge.svg'), renderBadge(summary));
  },
};

const VERDICT_TEXT = {
  conformant: 'Conformant',
  'non-conformant': 'Not conformant',
  incomplete: 'Incomplete',
} as const;

export function renderHtml(s: ConformanceSummary): string {
  const families = loadCatalogue().families;
  const is =
    (level: string, ...statuses: string[]) =>
    (r: RequirementResult) =>
      (level === '*' || r.level === level) && statuses.includes(r.status);
  const failedMusts = s.requirements.filter(is('MUST', 'failed'));
  const warnings = s.requirements.filter((r) => (r.level === 'SHOULD' || r.level === 'MAY') && r.status === 'failed');
  const waived = s.requirements.filter(is('*', 'waived'));
  const blocked = s.requirements.filter(is('*', 'blocked'));
  const skipped = s.requirements.filter(is('*', 'skipped'));
  const notAssessed = s.requirements.filter(is('*', 'not-assessed'));
  const carded = new Set([...failedMusts, ...warnings, ...waived].map((r) => r.id));
  const changes = new Map((s.baseline?.changed ?? []).map((c) => [c.id, c]));
  const byFamily = Object.entries(families).map(([family, name]) => ({
    family,
    name,
    reqs: s.requirements.filter((r) => r.family === family && r.status !== 'not-assessed'),
  }));
  const cards = (reqs: RequirementResult[]) => reqs.map((r) => failureCard(r, s.profile.name)).join('\n');
  return `${pageHead(`Asset-group conformance: ${VERDICT_TEXT[s.verdict]}`, CSS)}
<body>
<a class="skip" href="${failedMusts.length ? '#failed-musts' : '#requirements'}">Skip to ${failedMusts.length ? 'the failures' : 'the requirements'}</a>
<header class="banner ${s.verdict}" role="status">
  <h1>${esc(VERDICT_TEXT[s.verdict])}</h1>
  <p>${esc(s.target.baseURL ?? 'no target')} against the asset-group interface, profile “${esc(s.profile.name)}” · kit ${esc(s.kit.version)} · ${esc(s.startedAt)}</p>
  ${s.firstReason ? `<p class="reason"><strong>First reason:</strong> ${esc(s.firstReason)}</p>` : ''}
  <p class="tally">${tally(s)}</p>
</header>
<main>
${baselineBlock(s.baseline)}
${s.runErrors.length ? `<div class="run-errors"><h2>Errors outside the tests</h2><ul>${s.runErrors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul></div>` : ''}
${failedMusts.length ? `<section aria-labelledby="failed-musts"><h2 id="failed-musts" tabindex="-1">Failed MUSTs (${failedMusts.length})</h2>\n${cards(failedMusts)}</section>` : ''}
${warnings.length ? `<section aria-labelledby="warnings"><h2 id="warnings">Warnings: SHOULD and MAY not met (${warnings.length})</h2><p>These do not change the verdict.</p>\n${cards(warnings)}</section>` : ''}
${waived.length ? `<section aria-labelledby="waived"><h2 id="waived">Waived failures (${waived.length})</h2><p>Accepted by the target's waiver file; they do not change the verdict.</p>\n${cards(waived)}</section>` : ''}
${blocked.length ? `<section aria-labelledby="blocked"><h2 id="blocked">Blocked: not judged because a prerequisite did not pass (${blocked.length})</h2>${reasonList(blocked, s.requirements)}</section>` : ''}
<section aria-labelledby="skipped">
  <h2 id="skipped">Skipped or not assessable, and why</h2>
  ${skipped.length ? reasonList(skipped) : '<p>Nothing was skipped.</p>'}
</section>
<section aria-labelledby="not-assessed">
  <h2 id="not-assessed">Not assessed, and why</h2>
  <p>Points the spec leaves “not shown”. The kit does not judge them.</p>
  <ul>${notAssessed.map((r) => `<li id="${esc(r.id)}"><strong>${esc(r.id)}</strong> ${esc(r.title)}: ${esc(r.reason)}</li>`).join('')}</ul>
</section>
${waiversSection(s)}
<section aria-labelledby="requirements">
  <h2 id="requirements" tabindex="-1">Every requirement, by family</h2>
  ${byFamily
    .filter((f) => f.reqs.length)
    .map((f) => familySection(f.family, f.name, f.reqs, carded, changes))
    .join('\n')}
</section>
<section aria-labelledby="visibility">
  <h2 id="visibility">Visibility lag</h2>
  ${visibility(s)}
</section>
<section aria-labelledby="identity">
  <h2 id="identity">Target and kit</h2>
  <dl class="facts">
    ${fact('Target', s.target.baseURL ?? '—')}
    ${fact('Embedded reference server', s.target.embedded ? 'yes' : 'no')}
    ${fact('Service / Region reported', `${s.target.service ?? '—'} / ${s.target.region ?? '—'}`)}
    ${fact('Kit', `${s.kit.name} ${s.kit.version}`)}
    ${fact('Spec hash (openapi + requirements)', s.kit.specHash.slice(0, 16))}
    ${fact('Profile', `${s.profile.name}${s.profile.path ? ` (${s.profile.path})` : ''}`)}
    ${fact('Seed', s.seed ?? '—')}
    ${fact('Run', `${s.startedAt} → ${s.finishedAt}`)}
    ${fact('429 / 503 retries', `${s.retries[429]} / ${s.retries[503]}`)}
  </dl>
  ${countsTable(s)}
</section>
</main>
<footer><p>Written by ${esc(s.kit.name)} ${esc(s.kit.version)}. The machine-readable verdict is <code>conformance.json</code> beside this page; <code>badge.svg</code> is a badge for a README.</p></footer>
</body>
</html>
`;
}

/** One line of counts under the verdict, so the size of the problem shows before any detail. */
function tally(s: ConformanceSummary): string {
  const sum = (status: 'passed' | 'failed' | 'blocked' | 'skipped' | 'waived') => s.counts.MUST[status] + s.counts.SHOULD[status] + s.counts.MAY[status];
  const parts = [
    `${s.counts.MUST.failed} MUST failed`,
    `${s.warnings.length} SHOULD not met`,
    `${sum('blocked')} blocked`,
    `${sum('skipped')} skipped`,
    `${sum('waived')} waived`,
    `${sum('passed')} passed`,
  ];
  return esc(parts.join(' · '));
}

function waiversSection(s: ConformanceSummary): string {
  const { applied, expired, stale, unused, failure } = s.waivers;
  if (!applied.length && !expired.length && !stale.length && !unused.length) return '';
  const list = (title: string, items: typeof applied) =>
    items.length
      ? `<h3>${esc(title)}</h3><ul>${items.map((w) => `<li><a href="#${esc(w.id)}">${esc(w.id)}</a>: ${esc(w.reason)} — <span>${esc(w.link)}</span>${w.expires ? ` (expires ${esc(w.expires)})` : ''}</li>`).join('')}</ul>`
      : '';
  return `<section aria-labelledby="waivers"><h2 id="waivers">Waivers</h2>
${list('Applied: these failures are accepted and do not change the verdict', applied)}
${failure ? `<p class="waived-note"><strong>Waivers fail the run (--strict-waivers):</strong> ${esc(failure)}</p>` : ''}
${list('Stale: the requirement passed in this run, the waiver can go', stale)}
${list('Expired: no longer applied, renew or fix', expired)}
${list('Unused: the requirement was not judged in this run (blocked or skipped)', unused)}
</section>`;
}

function fact(name: string, value: unknown): string {
  return `<div><dt>${esc(name)}</dt><dd>${esc(value)}</dd></div>`;
}

function countsTable(s: ConformanceSummary): string {
  const levels = ['MUST', 'SHOULD', 'MAY'] as const;
  const statuses = ['passed', 'failed', 'blocked', 'skipped', 'waived'] as const;
  return `<table class="counts"><caption>Requirements by level</caption>
<thead><tr><th scope="col">Level</th>${statuses.map((st) => `<th scope="col">${st}</th>`).join('')}</tr></thead>
<tbody>${levels.map((level) => `<tr><th scope="row">${level}</th>${statuses.map((st) => `<td>${s.counts[level][st]}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function familySection(family: string, name: string, reqs: RequirementResult[], carded: Set<string>, changes: Map<string, { before: string | null }>): string {
  const failed = reqs.filter((r) => r.status === 'failed').length;
  return `<section class="family" aria-labelledby="family-${family}">
<h3 id="family-${family}">${esc(family)} — ${esc(name)} ${failed ? `<span class="badge failed">${failed} failed</span>` : ''}</h3>
<ul class="reqs">${reqs.map((r) => familyItem(r, carded.has(r.id), changes.get(r.id))).join('\n')}</ul>
</section>`;
}

/** A small inline SVG histogram: no script, no external library, readable without colour. */
function visibility(s: ConformanceSummary): string {
  const v = s.visibility;
  if (!v.samples) return `<p>No visibility lag was measured in this run${v.neverVisible ? `; ${v.neverVisible} group(s) never became visible` : ''}.</p>`;
  const max = Math.max(v.max ?? 1, 1);
  const bins = 10;
  const width = Math.max(Math.ceil(max / bins), 1);
  const counts = Array.from({ length: bins }, (_, i) => v.lagsMs.filter((lag) => Math.min(Math.floor(lag / width), bins - 1) === i).length);
  const top = Math.max(...counts, 1);
  const bars = counts
    .map((count, i) => {
      const h = Math.round((count / top) * 100);
      return `<g><rect x="${i * 30 + 2}" y="${110 - h}" width="26" height="${h}" class="bar"><title>${i * width}–${(i + 1) * width} ms: ${count}</title></rect><text x="${i * 30 + 15}" y="${106 - h}" text-anchor="middle">${count || ''}</text></g>`;
    })
    .join('');
  return `<dl class="facts">
  ${fact('Groups measured', v.samples)}${fact('p50', `${v.p50} ms`)}${fact('p95', `${v.p95} ms`)}${fact('max', `${v.max} ms`)}${fact('Never visible', v.neverVisible)}${fact('Timeout', `${v.timeoutMs ?? '—'} ms`)}
</dl>
<figure><svg viewBox="0 0 300 130" role="img" aria-label="Histogram of create-to-visible lag, ${v.samples} groups, max ${v.max} ms" class="chart">${bars}<line x1="0" y1="110" x2="300" y2="110" class="axis"/><text x="0" y="126">0 ms</text><text x="300" y="126" text-anchor="end">${max} ms</text></svg>
<figcaption>Create-to-visible lag of the run's groups (${width} ms per bar).</figcaption></figure>`;
}

const CSS = `
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:1}
a:focus,summary:focus,[tabindex]:focus{outline:3px solid #1a5fb4;outline-offset:2px}
table.counts{border-collapse:collapse;margin:12px 0;max-width:100%}table.counts th,table.counts td{border:1px solid var(--line);padding:4px 10px;text-align:right}
.reqs{list-style:none;padding:0;margin:0}.req{border-left:4px solid var(--line);padding:6px 10px;margin:6px 0;background:#fafafa}
.req.failed{border-color:var(--bad)}.req.passed{border-color:var(--ok)}.req.skipped,.req.waived,.req.blocked{border-color:var(--warn)}
.card{margin:12px 0;padding:8px 12px}.card h3{font-size:17px;margin:2px 0 6px}
blockquote.spec{margin:0;padding:2px 10px;border-left:3px solid #999;font-style:italic}
.profile-diff,.waived-note{background:#fff6e0;border:1px solid #e0c070;padding:4px 8px}
.since{border:2px solid #1a5fb4;padding:4px 12px;margin:12px 0;overflow-wrap:anywhere}.since ul{margin:4px 0}
.tally{font-weight:600}.was{color:var(--muted);font-size:13px}
details.about summary{font-weight:400;font-size:13px;color:var(--muted)}
.reasons li{margin:4px 0}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:700;text-transform:uppercase;color:#fff;background:#666}
.badge.passed{background:var(--ok)}.badge.failed{background:var(--bad)}.badge.skipped,.badge.waived,.badge.blocked{background:var(--warn)}
.level{font-size:12px;font-weight:700;border:1px solid #999;border-radius:3px;padding:0 4px}
details.evidence{margin:8px 0;background:#fff;border:1px solid var(--line);padding:6px 10px}summary{cursor:pointer;font-weight:600}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:10px}
pre{background:#f3f3f3;padding:8px;overflow:auto;max-height:360px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
.rdf{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
.chart{max-width:520px;width:100%;height:auto}.chart .bar{fill:#1a5fb4}.chart .axis{stroke:#333}.chart text{font-size:9px;fill:#333}
.run-errors{border:2px solid var(--bad);padding:6px 12px;margin:12px 0}
@media (max-width:640px){table.counts{display:block;overflow-x:auto}table.counts th,table.counts td{padding:2px 3px;font-size:12px}.exchange{grid-template-columns:1fr}.rdf{grid-template-columns:1fr}.banner h1{font-size:22px}}
`;
