import { esc, pageHead } from '../reporters/html-parts';
import { renderBadge } from '../reporters/badge';
import type { Cell, Comparison, Implementation, Row } from './model';

/**
 * compare.html: one self-contained page (a strict Content-Security-Policy: no script, no fetch of any kind; the badges are
 * inline SVG). Every value from a report is escaped; only the comparison's own relative links become hrefs. It shows
 * what the reports say, side by side, and decides nothing.
 */

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The badge of one implementation, as written beside the page. */
export const badgeOf = (impl: Implementation): string =>
  renderBadge({ verdict: impl.verdict, startedAt: impl.date, finishedAt: impl.date, kit: { version: impl.kitVersion } });

/** Only what the model built (a relative path into a report folder, at an anchor) is a link; nothing else is. */
const safeHref = (href: string) => /^[A-Za-z0-9%._~\-/]+#[A-Za-z0-9%\-]+$/.test(href) && !/^\//.test(href);

function cell(c: Cell, impl: Implementation, row: Row): string {
  const title = `${impl.name}: ${c.label}${c.reason ? ` (${c.reason})` : ''}`;
  const chip = `<span class="st ${esc(c.status)}">${esc(c.label)}</span>`;
  if (c.href && safeHref(c.href)) return `<td class="${esc(c.status)}"><a href="${esc(c.href)}" title="${esc(title)}">${chip}</a></td>`;
  const detail = c.evidence ?? (c.status !== 'passed' ? c.reason : null);
  if (!detail) return `<td class="${esc(c.status)}" title="${esc(title)}">${chip}</td>`;
  return `<td class="${esc(c.status)}"><details><summary>${chip}</summary><pre aria-label="${esc(`evidence of ${row.id} for ${impl.name}`)}">${esc(detail)}</pre></details></td>`;
}

function matrix(rows: Row[], impls: Implementation[], caption: string): string {
  return `<div class="scroll"><table class="matrix"><caption>${esc(caption)}</caption>
<thead><tr><th scope="col">Requirement</th>${impls.map((i) => `<th scope="col">${esc(i.name)}</th>`).join('')}</tr></thead>
<tbody>
${rows
  .map(
    (r) =>
      `<tr id="row-${esc(r.id)}"><th scope="row"><strong>${esc(r.id)}</strong> <span class="level">${esc(r.level)}</span><div class="title">${esc(r.title)}</div></th>${r.cells
        .map((c, i) => cell(c, impls[i], r))
        .join('')}</tr>`,
  )
  .join('\n')}
</tbody></table></div>`;
}

function implementationsTable(c: Comparison): string {
  return `<div class="scroll"><table class="impls"><caption>The implementations</caption>
<thead><tr><th scope="col">Implementation</th><th scope="col">Verdict</th><th scope="col">Profile</th><th scope="col">Kit</th><th scope="col">Date</th><th scope="col">Read from</th></tr></thead>
<tbody>
${c.implementations
  .map(
    (
      i,
    ) => `<tr><th scope="row">${esc(i.name)}${i.target.baseURL && i.target.baseURL !== i.name ? `<div class="meta">${esc(i.target.baseURL)}</div>` : ''}${i.target.service ? `<div class="meta">Service ${esc(i.target.service)}</div>` : ''}</th>
<td><span class="st ${esc(i.verdict)}">${esc(i.verdict)}</span>${i.firstReason ? `<div class="meta">${esc(i.firstReason)}</div>` : ''}</td>
<td>${esc(i.profile.name)}${i.profile.path ? `<div class="meta">${esc(i.profile.path)}</div>` : ''}</td>
<td>${esc(i.kitVersion)}</td><td>${esc(i.date)}</td>
<td><code>${esc(i.source)}</code><div class="meta">${i.kind === 'certificate' ? `a certificate of ${esc(i.runs)} run(s)` : 'one run'} · badge <code>${esc(i.badge)}</code></div></td></tr>`,
  )
  .join('\n')}
</tbody></table></div>
<h3>Badges</h3>
<ul class="badges">${c.implementations.map((i) => `<li><span class="badge-svg">${badgeOf(i)}</span> <code>${esc(i.badge)}</code> · ${esc(i.name)}</li>`).join('')}</ul>`;
}

function portabilitySection(c: Comparison): string {
  const p = c.portability;
  const intro = `<p>Settings of the profiles on points the spec leaves open (“not shown”), where the conformant implementations (${
    p.among.length ? p.among.map(esc).join(', ') : 'none'
  }) chose differently. A client written against one of them needs care here to work with the others.</p>`;
  const unknown = p.unknown.length ? `<p class="meta">Profile settings unknown (the report carries none): ${p.unknown.map(esc).join(', ')}.</p>` : '';
  if (p.among.length < 2) return `${intro}<p>Fewer than two conformant implementations with known profiles: nothing to set side by side.</p>${unknown}`;
  if (!p.notes.length) return `${intro}<p>They made the same choices on every point.</p>${unknown}`;
  return `${intro}<div class="scroll"><table class="notes"><caption>Profile settings that differ</caption>
<thead><tr><th scope="col">Setting</th>${c.implementations.map((i) => `<th scope="col">${esc(i.name)}${i.verdict === 'conformant' ? '' : ` <span class="meta">(${esc(i.verdict)})</span>`}</th>`).join('')}<th scope="col">Read by</th></tr></thead>
<tbody>
${p.notes
  .map(
    (n) =>
      `<tr><th scope="row"><code>${esc(n.setting)}</code></th>${n.values.map((v) => `<td>${v === null ? '<span class="meta">unknown</span>' : `<code>${esc(v)}</code>`}</td>`).join('')}<td>${n.readBy.map((id) => (c.rows.some((r) => r.id === id) ? `<a href="#row-${esc(id)}">${esc(id)}</a>` : esc(id))).join(', ') || '—'}</td></tr>`,
  )
  .join('\n')}
</tbody></table></div>${unknown}`;
}

export function renderComparePage(c: Comparison): string {
  const differing = c.rows.filter((r) => r.differs);
  const agreeing = c.rows.filter((r) => !r.differs);
  const judged = agreeing.filter((r) => r.cells.some((x) => x.status !== 'not-assessed'));
  const notAssessed = agreeing.filter((r) => r.cells.every((x) => x.status === 'not-assessed'));
  const head = pageHead(`Asset-group conformance: ${c.implementations.length} implementations compared`, CSS).replace(
    '<meta charset="utf-8">',
    `<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
  );
  return `${head}
<body>
<header class="banner compare" role="status">
  <h1>${esc(c.implementations.length)} implementations compared</h1>
  <p>${esc(c.differing)} of ${esc(c.rows.length)} requirements differ between them · ${c.implementations.map((i) => `${esc(i.name)}: ${esc(i.verdict)}`).join(' · ')}</p>
</header>
<main>
${c.warnings.length ? `<div class="warnings"><h2>Read first</h2><ul>${c.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>` : ''}
<section aria-labelledby="implementations"><h2 id="implementations">Implementations</h2>${implementationsTable(c)}</section>
<section aria-labelledby="differ"><h2 id="differ">Where they differ (${esc(differing.length)})</h2>
${differing.length ? matrix(differing, c.implementations, 'Requirements whose status is not the same for every implementation') : '<p>Every requirement has the same status for every implementation.</p>'}
<p class="meta">Each status links to that implementation's own report, at the requirement; where no report page is beside its conformance.json, the evidence opens in place.</p></section>
<section aria-labelledby="portability"><h2 id="portability">Portability notes</h2>${portabilitySection(c)}</section>
<section aria-labelledby="agree"><h2 id="agree">Where they agree (${esc(judged.length)})</h2>
${judged.length ? matrix(judged, c.implementations, 'Requirements with the same status for every implementation') : '<p>None.</p>'}
${notAssessed.length ? `<details><summary>Not assessed by the kit for any of them (${esc(notAssessed.length)})</summary>${matrix(notAssessed, c.implementations, 'Points the spec leaves open, which the kit does not judge')}</details>` : ''}
</section>
</main>
<footer><p>Written by <code>agc compare</code> at ${esc(c.generatedAt)}. The same comparison is <code>compare.json</code> beside this page; each <code>badge-*.svg</code> is an implementation's badge.</p></footer>
</body>
</html>
`;
}

const CSS = `
.banner.compare{background:#23395d}
.scroll{overflow-x:auto;margin:8px 0}
table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600;padding:4px 0}
table.matrix th[scope=row]{min-width:260px;max-width:420px;font-weight:400}.title{font-size:13px}
.level{font-size:11px;font-weight:700;border:1px solid #999;border-radius:3px;padding:0 4px}
.st{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:700;color:#fff;background:#666;white-space:nowrap}
.st.passed{background:var(--ok)}.st.failed{background:var(--bad)}.st.blocked,.st.skipped,.st.waived{background:var(--warn)}.st.absent{background:#999}.st.not-assessed{background:#777}
td.failed{background:#fbeaea}td.passed{background:#eef7f1}
td details summary{cursor:pointer;list-style:none}
pre{background:#f3f3f3;padding:6px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:12px;max-width:420px;max-height:300px;overflow:auto}
.badges{list-style:none;padding:0}.badges li{margin:4px 0;overflow-x:auto}.badge-svg svg{vertical-align:middle}
.st.conformant{background:var(--ok)}.st.non-conformant{background:var(--bad)}.st.incomplete{background:var(--warn)}
.warnings{border:2px solid var(--warn);padding:4px 12px;margin:12px 0}
code{font-size:12px;overflow-wrap:anywhere}.notes th[scope=row] code{white-space:nowrap}
a:focus,summary:focus{outline:3px solid #1a5fb4;outline-offset:2px}
@media (max-width:640px){table.matrix th[scope=row]{min-width:150px}th,td{padding:3px 4px}.banner h1{font-size:22px}}
`;
