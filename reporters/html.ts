import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConformanceReporter } from './collect';
import type { ConformanceSummary, FailureEvidence, Outcome, RequirementResult } from './verdict';
import { loadCatalogue } from '../schemas/requirements';

/**
 * index.html: one self-contained page (no fetches, no external CSS or JS) for a person opening
 * CI artefacts. It only shows the summary; it decides nothing.
 */
export default class HtmlReporter extends ConformanceReporter {
  protected write(summary: ConformanceSummary): void {
    writeFileSync(path.join(this.reportDir, 'index.html'), render(summary));
  }
}

const esc = (value: unknown): string =>
  String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const pretty = (text: string): string => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

const VERDICT_TEXT = {
  conformant: 'Conformant',
  'non-conformant': 'Not conformant',
  incomplete: 'Incomplete',
} as const;

function render(s: ConformanceSummary): string {
  const families = loadCatalogue().families;
  const assessed = s.requirements.filter((r) => r.status !== 'not-assessed');
  const byFamily = Object.entries(families).map(([family, name]) => ({ family, name, reqs: assessed.filter((r) => r.family === family) }));
  const skipped = s.requirements.filter((r) => r.status === 'skipped');
  const notAssessed = s.requirements.filter((r) => r.status === 'not-assessed');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Asset-group conformance: ${esc(VERDICT_TEXT[s.verdict])}</title>
<style>${CSS}</style>
</head>
<body>
<a class="skip" href="#requirements">Skip to requirements</a>
<header class="banner ${s.verdict}" role="status">
  <h1>${esc(VERDICT_TEXT[s.verdict])}</h1>
  <p>${esc(s.target.baseURL ?? 'no target')} against the asset-group interface, profile “${esc(s.profile.name)}”</p>
  ${s.firstReason ? `<p class="reason"><strong>First reason:</strong> ${esc(s.firstReason)}</p>` : ''}
  ${s.warnings.length ? `<p class="reason"><strong>SHOULD not met (warnings):</strong> ${s.warnings.map(esc).join(', ')}</p>` : ''}
</header>
<main>
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
  ${s.runErrors.length ? `<div class="run-errors"><h3>Errors outside the tests</h3><ul>${s.runErrors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul></div>` : ''}
  ${countsTable(s)}
</section>
<section aria-labelledby="requirements">
  <h2 id="requirements" tabindex="-1">Requirements</h2>
  ${byFamily.filter((f) => f.reqs.length).map((f) => familySection(f.family, f.name, f.reqs)).join('\n')}
</section>
<section aria-labelledby="visibility">
  <h2 id="visibility">Visibility lag</h2>
  ${visibility(s)}
</section>
${waiversSection(s)}
<section aria-labelledby="skipped">
  <h2 id="skipped">Skipped, and why</h2>
  ${skipped.length ? `<ul>${skipped.map((r) => `<li><a href="#${r.id}">${esc(r.id)}</a> ${esc(r.title)}: ${esc(r.reason)}</li>`).join('')}</ul>` : '<p>Nothing was skipped.</p>'}
</section>
<section aria-labelledby="not-assessed">
  <h2 id="not-assessed">Not assessed, and why</h2>
  <p>Points the spec leaves “not shown”. The kit does not judge them.</p>
  <ul>${notAssessed.map((r) => `<li id="${r.id}"><strong>${esc(r.id)}</strong> ${esc(r.title)}: ${esc(r.reason)}</li>`).join('')}</ul>
</section>
</main>
<footer><p>Written by ${esc(s.kit.name)} ${esc(s.kit.version)}. The machine-readable verdict is <code>conformance.json</code> beside this page.</p></footer>
</body>
</html>
`;
}

function waiversSection(s: ConformanceSummary): string {
  const { applied, expired, unused } = s.waivers;
  if (!applied.length && !expired.length && !unused.length) return '';
  const list = (title: string, items: typeof applied) =>
    items.length ? `<h3>${esc(title)}</h3><ul>${items.map((w) => `<li><a href="#${esc(w.id)}">${esc(w.id)}</a>: ${esc(w.reason)} — <span>${esc(w.link)}</span>${w.expires ? ` (expires ${esc(w.expires)})` : ''}</li>`).join('')}</ul>` : '';
  return `<section aria-labelledby="waivers"><h2 id="waivers">Waivers</h2>
${list('Applied: these failures are accepted and do not change the verdict', applied)}
${list('Expired: no longer applied, renew or fix', expired)}
${list('Unused: the requirement did not fail, the waiver can go', unused)}
</section>`;
}

function fact(name: string, value: unknown): string {
  return `<div><dt>${esc(name)}</dt><dd>${esc(value)}</dd></div>`;
}

function countsTable(s: ConformanceSummary): string {
  const levels = ['MUST', 'SHOULD', 'MAY'] as const;
  const statuses = ['passed', 'failed', 'skipped', 'waived'] as const;
  return `<table class="counts"><caption>Requirements by level</caption>
<thead><tr><th scope="col">Level</th>${statuses.map((st) => `<th scope="col">${st}</th>`).join('')}</tr></thead>
<tbody>${levels.map((level) => `<tr><th scope="row">${level}</th>${statuses.map((st) => `<td>${s.counts[level][st]}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function familySection(family: string, name: string, reqs: RequirementResult[]): string {
  const failed = reqs.filter((r) => r.status === 'failed').length;
  return `<section class="family" aria-labelledby="family-${family}">
<h3 id="family-${family}">${esc(family)} — ${esc(name)} ${failed ? `<span class="badge failed">${failed} failed</span>` : ''}</h3>
<ul class="reqs">${reqs.map(requirement).join('\n')}</ul>
</section>`;
}

function requirement(r: RequirementResult): string {
  const failedTests = r.tests.filter((t) => t.status === 'failed');
  return `<li id="${r.id}" class="req ${r.status}">
  <div class="req-head"><span class="badge ${r.status}">${r.status}</span> <span class="level ${r.level}">${r.level}</span> <strong>${esc(r.id)}</strong> <span>${esc(r.title)}</span></div>
  <div class="meta">${r.basis ? `basis: ${esc(r.basis)} · ` : ''}checks: ${r.checks.length ? r.checks.map((c) => `<code>${esc(c)}</code>`).join(' ') : '—'}${r.status !== 'passed' && r.status !== 'failed' && r.reason ? ` · ${esc(r.reason)}` : ''}</div>
  ${failedTests.map(failedTest).join('\n')}
</li>`;
}

function failedTest(t: Outcome): string {
  return `<details class="evidence" open>
  <summary>${esc(t.title)}</summary>
  ${t.failures.length ? t.failures.map(failure).join('\n') : `<pre>${esc(t.error ?? 'failed')}</pre>`}
  ${t.counterexample ? counterexample(t.counterexample) : ''}
</details>`;
}

function failure(f: FailureEvidence): string {
  const ex = f.exchange as
    | { request: { method: string; url: string; headers: Record<string, string>; body: string }; response?: { status: number; headers: Record<string, string>; body: string }; networkError?: string }
    | undefined;
  const headers = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `<div class="failure">
  <p><strong>Check</strong> <code>${esc(f.check)}</code></p>
  <dl class="rdf">
    <dt>Received</dt><dd>${esc(f.received)}</dd>
    <dt>The spec says</dt><dd>${esc(f.documented)}</dd>
    <dt>How to fix</dt><dd>${esc(f.fix)}</dd>
  </dl>
  ${
    ex
      ? `<div class="exchange">
    <div><h4>Request</h4><pre>${esc(`${ex.request.method} ${ex.request.url}\n${headers(ex.request.headers)}\n\n${pretty(ex.request.body)}`)}</pre></div>
    <div><h4>Response</h4><pre>${esc(ex.response ? `HTTP ${ex.response.status}\n${headers(ex.response.headers)}\n\n${pretty(ex.response.body)}` : `no response: ${ex.networkError}`)}</pre></div>
  </div>`
      : ''
  }
</div>`;
}

function counterexample(c: NonNullable<Outcome['counterexample']>): string {
  return `<div class="counterexample"><h4>Counterexample (fast-check)</h4>
<pre>${esc(c.counterexample ?? '')}</pre>
<p>Seed <code>${esc(c.seed)}</code>, path <code>${esc(c.path ?? '')}</code>. Replay:</p>
<pre class="cmd">${esc(c.replay)}</pre></div>`;
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
:root{--ok:#17643a;--bad:#a01c1c;--warn:#7a5200;--muted:#555;--bg:#fff;--fg:#111;--line:#ddd}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main,footer{max-width:1100px;margin:0 auto;padding:0 16px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:1}
a:focus,summary:focus,[tabindex]:focus{outline:3px solid #1a5fb4;outline-offset:2px}
.banner{padding:20px 16px;color:#fff}.banner h1{margin:0 0 4px;font-size:28px}.banner p{margin:4px 0;max-width:1100px}
.banner.conformant{background:var(--ok)}.banner.non-conformant{background:var(--bad)}.banner.incomplete{background:var(--warn)}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:8px 16px}.facts div{border-bottom:1px solid var(--line)}
dt{font-weight:600;color:var(--muted);font-size:13px}dd{margin:0 0 6px;overflow-wrap:anywhere}
table.counts{border-collapse:collapse;margin:12px 0;max-width:100%}table.counts th,table.counts td{border:1px solid var(--line);padding:4px 10px;text-align:right}
.reqs{list-style:none;padding:0;margin:0}.req{border-left:4px solid var(--line);padding:6px 10px;margin:6px 0;background:#fafafa}
.req.failed{border-color:var(--bad)}.req.passed{border-color:var(--ok)}.req.skipped,.req.waived{border-color:var(--warn)}
.meta{color:var(--muted);font-size:13px;overflow-wrap:anywhere}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:700;text-transform:uppercase;color:#fff;background:#666}
.badge.passed{background:var(--ok)}.badge.failed{background:var(--bad)}.badge.skipped,.badge.waived{background:var(--warn)}
.level{font-size:12px;font-weight:700;border:1px solid #999;border-radius:3px;padding:0 4px}
details.evidence{margin:8px 0;background:#fff;border:1px solid var(--line);padding:6px 10px}summary{cursor:pointer;font-weight:600}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:10px}
pre{background:#f3f3f3;padding:8px;overflow:auto;max-height:360px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}
.rdf{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}
.chart{max-width:520px;width:100%;height:auto}.chart .bar{fill:#1a5fb4}.chart .axis{stroke:#333}.chart text{font-size:9px;fill:#333}
.run-errors{border:2px solid var(--bad);padding:6px 12px;margin:12px 0}
@media (max-width:640px){table.counts th,table.counts td{padding:2px 5px;font-size:13px}.exchange{grid-template-columns:1fr}.rdf{grid-template-columns:1fr}.banner h1{font-size:22px}}
`;
