import type { BaselineComparison } from './baseline';
import { PROFILE_HINT, type FailureEvidence, type Outcome, type RequirementResult } from './verdict';

/** The pieces of index.html that show requirements; html.ts lays them out. They decide nothing. */

export const esc = (value: unknown): string =>
  String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** A body laid out for reading; anything that does not parse, or nests too deep to lay out, as it came. */
const pretty = (text: string): string => {
  if (text.length > 1024 * 1024) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

const STATUS_TEXT: Record<string, string> = { 'not-assessed': 'not assessed' };
export const statusText = (r: Pick<RequirementResult, 'status' | 'profileMismatch'>) =>
  r.profileMismatch ? 'not assessable' : (STATUS_TEXT[r.status] ?? r.status);

export const badge = (r: RequirementResult) => `<span class="badge ${r.status}">${esc(statusText(r))}</span> <span class="level ${r.level}">${r.level}</span>`;

const link = (id: string) => `<a href="#${esc(id)}">${esc(id)}</a>`;

/** A failed (or waived) requirement in full: the spec's sentence, what the kit sent and expected, and each failure's evidence. */
export function failureCard(r: RequirementResult, profileName: string): string {
  const failedTests = r.tests.filter((t) => t.status === 'failed');
  return `<article id="${esc(r.id)}" class="req card ${r.status}" aria-labelledby="h-${esc(r.id)}">
  <h3 id="h-${esc(r.id)}">${badge(r)} <strong>${esc(r.id)}</strong> ${esc(r.title)}</h3>
  ${r.profileDifference ? `<p class="profile-diff"><strong>A difference from the profile “${esc(profileName)}”, not from the spec.</strong> ${esc(r.profileDifference)}</p>` : ''}
  ${r.waiver ? `<p class="waived-note">${esc(r.reason)}</p>` : ''}
  ${r.blockedBy?.length ? `<p class="meta">Some of its tests were blocked by ${r.blockedBy.map(link).join(', ')}.</p>` : ''}
  ${catalogueFacts(r)}
  ${failedTestsHtml(failedTests, r, profileName)}
</article>`;
}

/** What the catalogue says about a requirement, in its own words. */
export function catalogueFacts(r: RequirementResult): string {
  return `<dl class="rdf catalogue">
    <dt>The spec says</dt><dd><blockquote class="spec">${esc(r.spec)}</blockquote></dd>
    ${r.sends ? `<dt>The kit sends</dt><dd>${esc(r.sends)}</dd>` : ''}
    ${r.expects ? `<dt>The kit expects</dt><dd>${esc(r.expects)}</dd>` : ''}
    <dt>Test file</dt><dd>${r.testFiles.length ? r.testFiles.map((f) => `<code>${esc(f)}</code>`).join(' ') : '—'}${r.checks.length ? ` · checks ${r.checks.map((c) => `<code>${esc(c)}</code>`).join(' ')}` : ''}</dd>
  </dl>`;
}

/** A finding says where it was first met, and on how many answers of the run (the run-wide oracle counts them). */
const testLabel = (t: Outcome) => {
  const answers = t.failures[0]?.answers ?? 1;
  return t.noticedIn ? `Found while running “${t.noticedIn}”${answers > 1 ? `, on ${answers} answers of the run` : ''}` : t.title;
};

/** What identifies one finding: the check, what it received, and the answer it judged. */
function findingKey(f: FailureEvidence): string {
  const ex = f.exchange as { response?: { status?: number; body?: string }; networkError?: string } | undefined;
  return JSON.stringify([f.check, f.received, ex?.response?.status ?? null, ex?.response?.body ?? ex?.networkError ?? null]);
}

/**
 * The failed tests of a requirement. The same finding (same check, same answer) seen by several
 * tests is shown once, with the list of the tests that saw it: a target that answers everything
 * the same way would otherwise repeat one body per test.
 */
function failedTestsHtml(failedTests: Outcome[], r: RequirementResult, profileName: string): string {
  const groups = new Map<string, { failure: FailureEvidence; tests: string[] }>();
  const parts: string[] = [];
  for (const t of failedTests) {
    if (!t.failures.length || t.counterexample) {
      parts.push(failedTest(t, r, profileName));
      continue;
    }
    for (const f of t.failures) {
      const key = findingKey(f);
      const group = groups.get(key) ?? groups.set(key, { failure: f, tests: [] }).get(key)!;
      if (!group.tests.includes(testLabel(t))) group.tests.push(testLabel(t));
    }
  }
  for (const { failure: f, tests } of groups.values()) {
    const seenBy =
      tests.length > 1
        ? `<p class="meta">The same finding was seen by ${tests.length} tests:</p><ul class="seen-by">${tests.map((title) => `<li>${esc(title)}</li>`).join('')}</ul>`
        : '';
    parts.push(`<details class="evidence" open>
  <summary>${esc(tests[0])}${tests.length > 1 ? ` and ${tests.length - 1} more test(s)` : ''}</summary>
  ${seenBy}
  ${failure(f, r, profileName)}
</details>`);
  }
  return parts.join('\n');
}

function failedTest(t: Outcome, r: RequirementResult, profileName: string): string {
  return `<details class="evidence" open>
  <summary>${esc(testLabel(t))}</summary>
  ${t.failures.length ? t.failures.map((f) => failure(f, r, profileName)).join('\n') : `<pre>${esc(t.error ?? 'failed')}</pre>`}
  ${t.counterexample ? counterexample(t.counterexample) : ''}
</details>`;
}

function failure(f: FailureEvidence, r: RequirementResult, profileName: string): string {
  const ex = f.exchange as
    | {
        request: { method: string; url: string; headers: Record<string, string>; body: string };
        response?: { status: number; headers: Record<string, string>; body: string };
        networkError?: string;
        cut?: string;
        dropped?: string;
        curl?: string;
        curlNote?: string;
      }
    | undefined;
  const headers = (h: Record<string, string>) =>
    Object.entries(h)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
  // A check's "documented" line is the kit's own expectation (an Id list, a status), not a quote of the spec.
  const expected = r.basis === 'profile' ? `The profile “${profileName}” expects` : 'The kit expected';
  return `<div class="failure">
  <p><strong>Check</strong> <code>${esc(f.check)}</code></p>
  <dl class="rdf">
    <dt>Received</dt><dd>${esc(f.received)}</dd>
    <dt>${esc(expected)}</dt><dd>${esc(f.documented)}</dd>
    <dt>How to fix</dt><dd>${esc(f.fix)}</dd>
    ${typeof f.flaky === 'string' ? `<dt>Flaky</dt><dd>${esc(f.flaky)}: the failure did not repeat, and it fails all the same</dd>` : ''}
  </dl>
  ${ex?.dropped ? `<p class="meta">${esc(ex.dropped)}</p>` : ''}
  ${ex?.cut ? `<p class="meta">Cut: ${esc(ex.cut)}</p>` : ''}
  ${
    ex?.request
      ? `<div class="exchange">
    <div><h4>Request</h4><pre>${esc(`${ex.request.method} ${ex.request.url}\n${headers(ex.request.headers ?? {})}\n\n${pretty(ex.request.body ?? '')}`)}</pre></div>
    <div><h4>Response</h4><pre>${esc(ex.response ? `HTTP ${ex.response.status}\n${headers(ex.response.headers ?? {})}\n\n${pretty(ex.response.body ?? '')}` : `no response: ${ex.networkError}`)}</pre></div>
  </div>`
      : ''
  }
  ${curlBlock(ex)}
</div>`;
}

/** The request as a command to paste into bash (client/curl.ts): tokens from the AG_TOKEN… variables, never a value. */
function curlBlock(ex: { curl?: string; curlNote?: string } | undefined): string {
  if (!ex || (typeof ex.curl !== 'string' && typeof ex.curlNote !== 'string')) return '';
  return `<div class="curl"><h4>Send it again (bash; set AG_TOKEN and the other token variables first)</h4>
  ${typeof ex.curl === 'string' ? `<pre class="cmd"><code>${esc(ex.curl)}</code></pre>` : ''}
  ${typeof ex.curlNote === 'string' ? `<p class="meta">${esc(ex.curlNote)}</p>` : ''}</div>`;
}

function counterexample(c: NonNullable<Outcome['counterexample']>): string {
  return `<div class="counterexample"><h4>Counterexample (fast-check)</h4>
<pre>${esc(c.counterexample ?? '')}</pre>
<p>Seed <code>${esc(c.seed)}</code>, path <code>${esc(c.path ?? '')}</code>. Replay:</p>
<pre class="cmd">${esc(c.replay)}</pre></div>`;
}

/** Escaped text whose requirement IDs (a root cause a blocked reason names) link to their entries. */
function linkIds(text: string | undefined, all: RequirementResult[]): string {
  const known = new Set(all.map((r) => r.id));
  return esc(text).replace(/\b[A-Z]+-\d+\b/g, (id) => (known.has(id) ? link(id) : id));
}

/** Blocked, skipped and not-assessable requirements, each with its reason. */
export function reasonList(reqs: RequirementResult[], all: RequirementResult[] = reqs): string {
  return `<ul class="reasons">${reqs
    .map((r) => {
      const why = r.blockedBy?.length
        ? `blocked by ${r.blockedBy.map(link).join(', ')}: ${linkIds(r.reason?.replace(/^blocked by [^:]*: /, ''), all)}`
        : r.profileMismatch
          ? `<strong>not assessable: profile mismatch</strong>: ${esc(r.profileMismatch)}. ${esc(PROFILE_HINT)}.`
          : esc(r.reason);
      return `<li>${badge(r)} ${link(r.id)} ${esc(r.title)}: ${why}</li>`;
    })
    .join('')}</ul>`;
}

/** One line per requirement in the family listing; a failure's evidence is in its card above. */
export function familyItem(r: RequirementResult, hasCard: boolean, change?: { before: string | null }): string {
  const since = change ? ` <span class="was">(was ${esc(change.before ?? 'not in the baseline')})</span>` : '';
  return `<li ${hasCard ? '' : `id="${esc(r.id)}" `}class="req ${r.status}">
  <div class="req-head">${badge(r)} <strong>${hasCard ? link(r.id) : esc(r.id)}</strong> <span>${esc(r.title)}</span>${since}</div>
  <details class="about"><summary>what it checks</summary>${catalogueFacts(r)}</details>
  ${r.status !== 'passed' && !hasCard && r.reason ? `<div class="meta">${esc(r.reason)}</div>` : ''}
</li>`;
}

/** What changed since the baseline run, for the top of the page. */
export function baselineBlock(c: BaselineComparison | null): string {
  if (!c) return '';
  const ids = (list: string[]) => (list.length ? list.map(link).join(', ') : 'none');
  const others = c.changed.filter((x) => !c.newlyFailing.includes(x.id) && !c.fixed.includes(x.id));
  return `<div class="since" id="since-baseline">
  <p><strong>Since the run of ${esc(c.startedAt ?? 'an unknown date')}</strong> (baseline <code>${esc(c.file)}</code>, kit ${esc(c.kitVersion ?? '?')}, verdict then: ${esc(c.verdict.before)})</p>
  <ul>
    <li><strong>Newly failing:</strong> ${ids(c.newlyFailing)}</li>
    <li><strong>Fixed:</strong> ${ids(c.fixed)}</li>
    <li><strong>Other status changes:</strong> ${others.length ? others.map((x) => `${link(x.id)} ${esc(x.before ?? 'new')} → ${esc(x.now)}`).join(', ') : 'none'}</li>
    ${c.specHashChanged ? "<li><strong>The spec changed in between</strong> (another hash of spec/openapi.yaml and spec/requirements.yaml): some differences may be the kit's, not the target's.</li>" : ''}
    ${c.profileChanged ? `<li><strong>The profile changed in between</strong>: it was “${esc(c.profileBefore?.name)}”${c.profileBefore?.path ? ` (${esc(c.profileBefore.path)})` : ''}.</li>` : ''}
  </ul>
</div>`;
}

/** What both of the kit's pages (the report, a certification) look like: colours, the verdict banner, facts. */
const BASE_CSS = `
:root{--ok:#17643a;--bad:#a01c1c;--warn:#7a5200;--muted:#555;--bg:#fff;--fg:#111;--line:#ddd}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main,footer{max-width:1100px;margin:0 auto;padding:0 16px}
.banner{padding:20px 16px;color:#fff}.banner h1{margin:0 0 4px;font-size:28px}.banner p{margin:4px 0;max-width:1100px}
.banner.conformant{background:var(--ok)}.banner.non-conformant{background:var(--bad)}.banner.incomplete{background:var(--warn)}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:8px 16px}.facts div{border-bottom:1px solid var(--line)}
dt{font-weight:600;color:var(--muted);font-size:13px}dd{margin:0 0 6px;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:13px;overflow-wrap:anywhere}
`;

/** The head of one of the kit's self-contained pages: no fetch, the title escaped, the page's own CSS after the shared. */
export function pageHead(title: string, css: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>`;
}
