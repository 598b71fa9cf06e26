import { test, expect } from '@playwright/test';
import { loadCatalogue } from '../schemas/requirements';
import { validateReport } from '../schemas';
import { summarize, type ConformanceSummary, type Outcome, type RunFacts } from '../reporters/verdict';
import { renderHtml } from '../reporters/html';
import { renderJunit } from '../reporters/junit';
import { renderBadge } from '../reporters/badge';

// The reporters' side of the statuses the suites produce, on synthetic outcomes: no target, no
// child process, so each rule of the verdict and of every output is shown exactly.

const catalogue = loadCatalogue();
const facts = (): RunFacts => ({
  lagsMs: [10, 20],
  neverVisible: 0,
  retries: { 429: 0, 503: 0 },
  startedAt: '2026-01-02T03:04:05.000Z',
  finishedAt: '2026-01-02T03:04:15.000Z',
  runErrors: [],
  profile: { name: 'reference', path: null },
});

type Twist = Partial<Outcome> & { requirement: string };

/** Every assessed requirement passes, except the twists given (several per ID make several tests). */
function run(...twists: Twist[]): ConformanceSummary {
  const twisted = new Set(twists.map((t) => t.requirement));
  const outcome = (id: string, extra: Partial<Outcome> = {}): Outcome => ({
    requirement: id,
    title: `${id} a test`,
    file: 'suites/x.spec.ts',
    status: 'passed',
    durationMs: 1,
    checks: ['someCheck'],
    failures: [],
    ...extra,
  });
  const outcomes = catalogue.requirements.filter((r) => r.level !== 'NOT-ASSESSED' && !twisted.has(r.id)).map((r) => outcome(r.id));
  for (const t of twists) outcomes.push(outcome(t.requirement, t));
  const summary = summarize(outcomes, facts());
  expect(validateReport(JSON.parse(JSON.stringify(summary))).errors, 'conformance.json validates against its schema').toEqual([]);
  return summary;
}

const failed = (requirement: string, documented = 'Ids [g-1, g-2]'): Twist => ({
  requirement,
  status: 'failed',
  error: 'failed',
  failures: [{ check: 'sameIds', received: 'Ids [g-1]', documented, fix: 'return every matching group' }],
});
const blocked = (requirement: string, ...by: string[]): Twist => ({
  requirement,
  status: 'skipped',
  skipReason: 'no group was created, so none can be judged',
  blockedBy: by,
});
const byId = (s: ConformanceSummary, id: string) => s.requirements.find((r) => r.id === id)!;

test('a test blocked by a failed prerequisite is "blocked", counts in no failure total, and the verdict names the root cause', () => {
  // ENV-01 failed too, but only where CREATE-01 had already failed: the root cause is CREATE-01.
  const s = run(
    failed('CREATE-01'),
    blocked('VIS-01', 'CREATE-01'),
    blocked('SCHEMA-02', 'CREATE-01'),
    { requirement: 'SCHEMA-02' },
    { ...failed('ENV-01'), blockedBy: undefined },
    blocked('ENV-01', 'CREATE-01'),
  );
  expect(byId(s, 'VIS-01')).toMatchObject({
    status: 'blocked',
    blockedBy: ['CREATE-01'],
    reason: 'blocked by CREATE-01: no group was created, so none can be judged',
  });
  expect(byId(s, 'SCHEMA-02').status, 'blocked outranks passed').toBe('blocked');
  expect(byId(s, 'ENV-01').status, 'failed outranks blocked').toBe('failed');
  expect(s.counts.MUST.failed).toBe(2);
  expect(s.counts.MUST.blocked).toBe(2);
  expect(s.verdict).toBe('non-conformant');
  expect(s.firstReason).toMatch(/^CREATE-01 /);

  const html = renderHtml(s);
  expect(html).toContain('Blocked: not judged because a prerequisite did not pass (2)');
  expect(html).toMatch(/blocked by <a href="#CREATE-01">CREATE-01<\/a>/);
  const junit = renderJunit(s);
  expect(junit).toContain('<skipped message="blocked by CREATE-01: no group was created, so none can be judged"/>');
});

test('a requirement blocked by one that was itself blocked names the root cause, once', () => {
  // A create answered with its Id outside Result: ENV-06 fails, CREATE-01 is blocked by it, and VIS-01 by CREATE-01.
  const s = run(failed('ENV-06'), blocked('CREATE-01', 'ENV-06'), blocked('VIS-01', 'CREATE-01'), blocked('SCOPE-01', 'CREATE-01', 'ENV-06'));
  expect(byId(s, 'CREATE-01').reason).toBe('blocked by ENV-06: no group was created, so none can be judged');
  expect(byId(s, 'VIS-01').reason).toBe(
    'blocked by CREATE-01: no group was created, so none can be judged (CREATE-01 was blocked in turn: the root cause is ENV-06 (failed))',
  );
  // A root it names already is not said again.
  expect(byId(s, 'SCOPE-01').reason).toBe('blocked by CREATE-01, ENV-06: no group was created, so none can be judged');
  expect(s.firstReason).toMatch(/^ENV-06 /);
  expect(renderHtml(s)).toContain('the root cause is <a href="#ENV-06">ENV-06</a> (failed)');
});

test('with no failed MUST, a blocked or skipped MUST makes the run incomplete; a blocked SHOULD is no warning', () => {
  const s = run(failed('ENV-03'), blocked('VIS-01', 'ENV-03'), blocked('ENV-04', 'ENV-03'));
  expect(s.verdict).toBe('incomplete');
  expect(s.firstReason).toBe('VIS-01 could not be judged because a prerequisite did not pass: ENV-03 (failed: sameIds: Ids [g-1])');
  expect(s.warnings).toEqual(['ENV-03']);
  // As suites/blocked.ts words it, the reason is said once.
  expect(byId(run({ ...blocked('VIS-01', 'CREATE-01'), skipReason: 'blocked by CREATE-01: nothing was created' }), 'VIS-01').reason).toBe(
    'blocked by CREATE-01: nothing was created',
  );
  const skipped = run({ requirement: 'SCOPE-01', status: 'skipped', skipReason: 'AG_TOKEN_OTHER_USER is not configured' });
  expect(skipped.verdict).toBe('incomplete');
  expect(skipped.firstReason).toBe('SCOPE-01 could not be assessed: AG_TOKEN_OTHER_USER is not configured');
});

test('a check that saw nothing to judge is skipped with its reason, shown in every output', () => {
  const s = run({ requirement: 'INPUT-08', status: 'skipped', skipReason: 'the target answered no 429 during the run, so there was nothing to observe' });
  expect(s.verdict).toBe('conformant');
  expect(byId(s, 'INPUT-08')).toMatchObject({ status: 'skipped', reason: 'the target answered no 429 during the run, so there was nothing to observe' });
  expect(renderHtml(s)).toContain('nothing to observe');
  expect(renderJunit(s)).toContain('<skipped message="skipped: the target answered no 429 during the run, so there was nothing to observe"/>');
});

test('a profile mismatch is "not assessable", makes the run incomplete and says how to supply a profile', () => {
  const observed = 'error bodies carry the code at /Error/Code, not /ResponseMetadata/Error/Code; set error.codePointer: /Error/Code';
  const s = run({ requirement: 'ERR-01', status: 'skipped', skipReason: 'the error body follows another profile', profileMismatch: observed });
  const err01 = byId(s, 'ERR-01');
  expect(err01).toMatchObject({ status: 'skipped', profileMismatch: observed });
  expect(s.verdict).toBe('incomplete');
  expect(s.firstReason).toContain('the target seems to follow another profile than "reference"');
  expect(s.firstReason).toContain('set error.codePointer: /Error/Code');
  expect(s.firstReason).toContain('AG_PROFILE=FILE');
  expect(s.firstReason).toContain('npx agc profile discover --out FILE');
  const html = renderHtml(s);
  expect(html).toContain('not assessable: profile mismatch');
  expect(html).toContain('npx agc profile discover --out FILE');
  expect(renderJunit(s)).toMatch(/<skipped message="not assessable: profile mismatch: error bodies carry[^"]*AG_PROFILE=FILE/);
  // A failed MUST still decides.
  expect(run(failed('LIST-03'), { requirement: 'ERR-01', status: 'skipped', profileMismatch: observed }).verdict).toBe('non-conformant');
});

test('a failed requirement judged by the profile is labelled a difference from the profile, not from the spec', () => {
  const s = run(failed('PAGE-03', 'PageSize 10 when omitted'), failed('LIST-03'));
  const page03 = byId(s, 'PAGE-03');
  expect(page03.profileDifference).toContain('differs from the profile "reference", not from the spec');
  expect(page03.profileDifference).toContain('AG_PROFILE=FILE');
  expect(byId(s, 'LIST-03').profileDifference).toBeUndefined();
  const html = renderHtml(s);
  expect(html).toContain('A difference from the profile “reference”, not from the spec.');
  expect(html).toContain('The profile “reference” expects</dt><dd>PageSize 10 when omitted');
  expect(renderJunit(s)).toContain('message="differs from the profile &quot;reference&quot;: sameIds: Ids [g-1]"');
});

test('each requirement of conformance.json stands alone: the spec sentence, what is sent and expected, its test files', () => {
  const s = run(failed('LIST-03'));
  const entry = catalogue.requirements.find((r) => r.id === 'LIST-03')!;
  expect(byId(s, 'LIST-03')).toMatchObject({ spec: entry.spec, sends: entry.sends, expects: entry.expects, testFiles: ['suites/x.spec.ts'] });
  // "The spec says" quotes the catalogue; the check's own expectation is labelled as the kit's.
  const card = renderHtml(s).split('id="LIST-03"')[1];
  const escaped = entry.spec.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  expect(card).toContain(`<dt>The spec says</dt><dd><blockquote class="spec">${escaped}</blockquote>`);
  expect(card).toContain('<dt>The kit expected</dt><dd>Ids [g-1, g-2]</dd>');
});

test('the page puts failed MUSTs first, then warnings, blocked, skipped and not assessed, then every requirement by family', () => {
  const html = renderHtml(
    run(failed('LIST-03'), failed('ENV-03'), blocked('VIS-01', 'LIST-03'), {
      requirement: 'SCOPE-01',
      status: 'skipped',
      skipReason: 'AG_TOKEN_OTHER_USER is not configured',
    }),
  );
  const order = [
    '<h1>Not conformant</h1>',
    'id="failed-musts"',
    'id="LIST-03"',
    'id="warnings"',
    'id="ENV-03"',
    'id="blocked"',
    'id="skipped"',
    'id="not-assessed"',
    'id="requirements"',
    'id="family-ENV"',
    'id="identity"',
  ];
  const at = order.map((marker) => html.indexOf(marker));
  expect(
    at.every((i) => i >= 0),
    `every marker present: ${order.filter((_, i) => at[i] < 0)}`,
  ).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  expect(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    'no id twice',
  ).toEqual([]);
});

test('badge.svg is a small self-contained SVG with the verdict, the kit version and the date', () => {
  const s = run(failed('LIST-03'));
  const svg = renderBadge(s);
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain(`non-conformant · kit ${s.kit.version} · 2026-01-02`);
  expect(svg).toContain('fill="#a01c1c"');
  expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/href|url\(|https?:|<script|<image/);
  expect(svg.length).toBeLessThan(2000);
  expect(renderBadge(run())).toContain('fill="#17643a"');
});

test("every output lists the families in the catalogue's order", () => {
  const s = run(failed('LIST-03'));
  const families = Object.keys(catalogue.families);
  const htmlOrder = [...renderHtml(s).matchAll(/<h3 id="family-([A-Z]+)">/g)].map((m) => m[1]);
  expect(htmlOrder).toEqual(families);
  const junitOrder = [...renderJunit(s).matchAll(/<testsuite name="([A-Z]+)"/g)].map((m) => m[1]);
  expect(junitOrder).toEqual(families);
  // conformance.json keeps the catalogue's own order of requirements: its assessed requirements run family by family.
  const assessedFamilies = [...new Set(s.requirements.filter((r) => r.level !== 'NOT-ASSESSED').map((r) => r.family))];
  expect(assessedFamilies).toEqual(families);
});
