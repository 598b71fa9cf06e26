import { esc, pageHead } from '../reporters/html-parts';
import type { Verdict } from '../reporters/verdict';
import type { Certificate } from './certificate';

/**
 * DIR/index.html of `agc certify`: one self-contained page (no fetch, no external CSS or JS) with
 * the combined verdict, the notice if any, each run's verdict and a link to its own page, and the
 * certificate's facts. Every value is escaped: a target's Service or Region is its text, not markup.
 */

const VERDICT_TEXT: Record<Verdict, string> = {
  conformant: 'Certified conformant',
  'non-conformant': 'Not conformant',
  incomplete: 'Incomplete: not certified',
};

const fact = (label: string, value: unknown) => `<div><dt>${esc(label)}</dt><dd>${esc(value)}</dd></div>`;
const list = (values: readonly string[]) => (values.length ? values.join(', ') : '—');

/** Only the certificate's own relative paths become links; anything else is shown as text. */
const link = (href: string, text: string) => (/^run-\d+\/[a-z.]+$/.test(href) ? `<a href="${esc(href)}">${esc(text)}</a>` : esc(text));

/** What the read-backs between the runs found (certify/durability.ts), or why there were none. */
function durabilitySection(c: Certificate): string {
  const d = c.durability;
  if (!d) return '';
  const reads = d.reads.length
    ? `<table class="runs"><thead><tr><th>after run</th><th>groups of runs</th><th>groups</th><th>requests</th><th>oldest</th><th>verdict</th></tr></thead><tbody>${d.reads
        .map(
          (r) =>
            `<tr class="${esc(r.verdict)}"><td>${esc(r.afterRun)}</td><td>${esc(r.createdIn.join(', ') || '—')}</td><td>${esc(r.groups)}${r.left ? ` (${esc(r.left)} not read)` : ''}</td><td>${esc(r.requests)}</td><td>${esc(r.oldestAgeSeconds ?? '—')} s</td><td><strong>${esc(r.verdict)}</strong></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const findings = d.findings.length
    ? `<ul>${d.findings
        .map(
          (f) =>
            `<li><strong>${esc(f.requirement)}</strong> (${esc(f.failure.check)}, after run ${esc(f.afterRun)}): ${esc(f.failure.received)}<div class="meta">Documented: ${esc(f.failure.documented)} · Fix: ${esc(f.failure.fix)}</div></li>`,
        )
        .join(
          '',
        )}</ul>${d.findingsLeftOut ? `<p class="meta">${esc(d.findingsLeftOut)} more findings left out; certificate.json holds each one's exchange.</p>` : ''}`
    : '';
  const notAssessed = d.notAssessed.length
    ? `<ul>${d.notAssessed.map((n) => `<li>not assessed after run ${esc(n.afterRun)}: ${esc(n.reason)}</li>`).join('')}</ul>`
    : '';
  return `<section aria-labelledby="durability">
  <h2 id="durability">Durability across runs</h2>
  <p>Runs spread over ${esc(d.span.shown)} (--span); after each run but the first, the groups of the earlier runs read back by Id: ${esc(d.verdict ?? 'not assessed')}. ${esc(d.summary)}</p>
  ${reads}${findings}${notAssessed}
</section>`;
}

export function renderCertificatePage(c: Certificate): string {
  const runs = c.runs
    .map(
      (r) => `<tr class="${esc(r.verdict)}">
  <td>${esc(r.run)}</td><td>${esc(r.seed)}</td><td><strong>${esc(r.verdict)}</strong>${r.firstReason ? `<div class="meta">${esc(r.firstReason)}</div>` : ''}</td>
  <td>${link(r.html, 'report')} · ${link(r.report, 'conformance.json')}${r.har ? ` · ${link(r.har, 'exchanges.har')}` : ''}</td>
  <td><code>${esc(r.reportSha256)}</code>${r.harSha256 ? `<div class="meta">exchanges.har <code>${esc(r.harSha256)}</code></div>` : ''}</td><td>${esc(r.startedAt)}</td>
</tr>`,
    )
    .join('\n');
  const waivers = c.waivers.entries.length
    ? `<ul>${c.waivers.entries
        .map(
          (w) =>
            `<li><strong>${esc(w.id)}</strong> (${esc(w.state)}${w.expires ? `, expires ${esc(w.expires)}` : ''}): ${esc(w.reason)} · ${esc(w.link)} · ${esc(
              w.appliedInRuns.length ? `applied in run ${w.appliedInRuns.join(', ')}` : 'not needed in any run',
            )}</li>`,
        )
        .join('')}</ul><p class="meta">Waiver file ${esc(c.waivers.file)} · sha256 ${esc(c.waivers.fileSha256)}</p>`
    : '<p>No waiver file was in force.</p>';
  const signature = c.signature ? `Ed25519, key sha256:${c.signature.publicKeySha256}` : 'not signed (agc certify --sign-key FILE signs the certificate)';
  return `${pageHead(`Asset-group certification: ${VERDICT_TEXT[c.verdict]}`, CSS)}
<body>
<header class="banner ${esc(c.verdict)}" role="status">
  <h1>${esc(VERDICT_TEXT[c.verdict])}</h1>
  <p>${esc(c.target.baseURL ?? 'the embedded reference server')} · ${esc(c.runs.length)} runs, seeds ${esc(c.seeds.join(', '))} · profile ${esc(c.profile)} · kit ${esc(c.kit.version)} · ${esc(c.issuedAt)}</p>
</header>
<main>
${c.notice ? `<p class="notice" role="note"><strong>Notice:</strong> ${esc(c.notice)}</p>` : ''}
<p>Conformant only if every run is, and every group of an earlier run was still listed, as sent, after each later one: the combined verdict is the worst of these.</p>
<section aria-labelledby="runs">
  <h2 id="runs">Runs</h2>
  <table class="runs">
    <thead><tr><th>run</th><th>seed</th><th>verdict</th><th>reports</th><th>sha256 of conformance.json</th><th>started</th></tr></thead>
    <tbody>
${runs}
    </tbody>
  </table>
</section>
${durabilitySection(c)}
<section aria-labelledby="facts">
  <h2 id="facts">Certificate</h2>
  <dl class="facts">
    ${fact('Target', c.target.baseURL ?? 'embedded reference server (one per run)')}
    ${fact('Service reported', list(c.target.service))}
    ${fact('Region reported', list(c.target.region))}
    ${fact('Kit', `${c.kit.name} ${c.kit.version}`)}
    ${fact('Spec sha256 (openapi + requirements)', c.spec.sha256)}
    ${fact('Profile', `${c.profileInForce.name}${c.profileInForce.path ? ` (${c.profileInForce.path})` : ''}${c.profileInForce.reference ? ', the reference profile' : ', a custom profile'}`)}
    ${fact('Profile sha256', c.profileInForce.sha256)}
    ${fact('Issued', c.issuedAt)}
    ${fact('Signature', signature)}
  </dl>
  <h3>Waivers</h3>
  ${waivers}
</section>
</main>
<footer><p>Written by ${esc(c.kit.name)} ${esc(c.kit.version)}. <code>certificate.json</code> beside this page is what is handed over; <code>agc verify certificate.json --public-key FILE</code> checks it.</p></footer>
</body>
</html>
`;
}

const CSS = `
.notice{background:#fff6e0;border:2px solid #e0c070;padding:8px 12px;overflow-wrap:anywhere}
table.runs{border-collapse:collapse;width:100%}table.runs th,table.runs td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
tr.conformant td:nth-child(3){color:var(--ok)}tr.non-conformant td:nth-child(3){color:var(--bad)}tr.incomplete td:nth-child(3){color:var(--warn)}
code{font-size:12px;overflow-wrap:anywhere}
`;
