/** The certificate as data: its notice, its canonical form and signature, its page escaping what a target sent, the combined verdict. */
import { test, expect } from './helpers/fixtures';
import { generateKeyPairSync } from 'node:crypto';
import {
  buildCertificate,
  canonicalJson,
  certificateVerdict,
  combinedVerdict,
  privateKeyFrom,
  publicKeyFrom,
  signatureProblem,
  signCertificate,
  type CertificateFacts,
} from '../certify/certificate';
import { renderCertificatePage } from '../certify/html';
import { certifiedDurability, judgeReadBack, parseSpan, planReadBack, readBackVerdict, runOffsets, showSpan, type EarlierGroup } from '../certify/durability';
import { loadProfile } from '../schemas/profile';
import { errorKinds, validate } from '../schemas';
import type { Exchange } from '../client/exchange';

const pem = (key: { export(o: { type: 'pkcs8' | 'spki'; format: 'pem' }): string | Buffer }, type: 'pkcs8' | 'spki') =>
  String(key.export({ type, format: 'pem' }));

test.describe('the certificate, as data', () => {
  const facts = (over: Partial<CertificateFacts> = {}): CertificateFacts => ({
    kit: { name: 'kit', version: '1.0.0' },
    spec: { sha256: 'a'.repeat(64), files: {} },
    profile: { name: 'reference', path: null, reference: true, sha256: 'b'.repeat(64), fileSha256: null },
    target: { baseURL: 'https://staging.example.com', embedded: false, service: ['media_assets'], region: ['r1'] },
    issuedAt: '2026-11-23T00:00:00.000Z',
    runs: [1, 2].map((run) => ({
      run,
      seed: 6 + run,
      verdict: 'conformant' as const,
      firstReason: null,
      runId: `r${run}`,
      baseURL: 'https://staging.example.com',
      service: 'media_assets',
      region: 'r1',
      startedAt: '',
      finishedAt: '',
      report: `run-${run}/conformance.json`,
      reportSha256: 'c'.repeat(64),
      html: `run-${run}/index.html`,
    })),
    waivers: { file: null, fileSha256: null, entries: [] },
    ...over,
  });

  test('a clean certificate has no notice: its first field is the format, then the verdict', () => {
    const c = buildCertificate(facts());
    expect(Object.keys(c).slice(0, 3)).toEqual(['format', 'verdict', 'profile']);
    expect(c.notice).toBeUndefined();
    expect(c.seeds).toEqual([7, 8]);
  });

  test('a custom profile is the notice and the profile line; an expired waiver is not in force', () => {
    const c = buildCertificate(
      facts({
        profile: { name: 'staging', path: '/p/staging.yaml', reference: false, sha256: 'd'.repeat(64), fileSha256: 'e'.repeat(64) },
        waivers: {
          file: '/w.yaml',
          fileSha256: 'f'.repeat(64),
          entries: [{ id: 'PAGE-03', reason: 'r', link: 'l', expires: '2020-01-01', state: 'expired', appliedInRuns: [] }],
        },
      }),
    );
    expect(Object.keys(c)[0]).toBe('notice');
    expect(c.notice).toBe('judged by a custom profile "staging" (/p/staging.yaml), not the reference profile');
    expect(c.profile).toBe('custom (/p/staging.yaml)');
  });

  test("the page escapes everything: a target's Service or a waiver's reason is text, not markup", () => {
    const hostile = '<script>alert(1)</script>';
    const c = buildCertificate(
      facts({
        target: { baseURL: 'https://staging.example.com', embedded: false, service: [hostile], region: ['"><img src=x>'] },
        waivers: {
          file: '/w.yaml',
          fileSha256: 'f'.repeat(64),
          entries: [{ id: 'PAGE-03', reason: hostile, link: 'javascript:alert(1)', state: 'in force', appliedInRuns: [1] }],
        },
      }),
    );
    const html = renderCertificatePage(c);
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<img|href="javascript/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  test("the combined verdict is the worst run's: non-conformant over incomplete over conformant", () => {
    expect(combinedVerdict(['conformant', 'conformant'])).toBe('conformant');
    expect(combinedVerdict(['conformant', 'incomplete'])).toBe('incomplete');
    expect(combinedVerdict(['incomplete', 'non-conformant', 'conformant'])).toBe('non-conformant');
  });

  test('the signature covers the canonical form: key order and layout do not matter, any value does', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x' })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const signed = signCertificate(buildCertificate(facts()), privateKeyFrom(pem(privateKey, 'pkcs8'), 'test'));
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(signed).reverse())));
    const key = publicKeyFrom(pem(publicKey, 'spki'), 'test');
    expect(signatureProblem(reordered, key)).toBeUndefined();
    expect(signatureProblem({ ...reordered, verdict: 'incomplete' }, key)).toContain('changed after it was signed');
    const { signature: _s, ...unsigned } = signed;
    expect(signatureProblem(unsigned, key)).toBe('the certificate is not signed');
  });
});

test.describe('durability across runs, as data (certify/durability.ts)', () => {
  const profile = loadProfile();
  const context = { profile, validate, errorKinds, successes: [] };
  const group = (run: number, key: string, via: EarlierGroup['via'] = 'primary'): EarlierGroup => ({
    run,
    key,
    via,
    id: `agp-${run}-${key}`,
    sent: { Name: `agc-r${run}-${key}`, Title: 'T', Description: 'D', GroupType: 'AIGC', ProjectName: 'default' },
    createdAt: '2026-11-23T00:00:00.000Z',
  });
  const listed = (items: Record<string, unknown>[], status = 200): Exchange => {
    const json =
      status === 200 ? { ResponseMetadata: {}, Result: { Items: items, TotalCount: items.length, PageNumber: 1, PageSize: 100 } } : { ResponseMetadata: {} };
    const body = JSON.stringify(json);
    return {
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/v1/media_assets/?Action=ListAssetGroups',
        action: 'ListAssetGroups',
        version: '2024-01-01',
        headers: {},
        body: '{}',
      },
      response: { status, headers: {}, body, json },
      durationMs: 1,
    };
  };
  const itemOf = (g: EarlierGroup, over: Record<string, string> = {}) => ({
    Id: g.id,
    AssetSpaceId: 'space-1',
    ...g.sent,
    CreateTime: g.createdAt,
    UpdateTime: g.createdAt,
    ...over,
  });

  test('--span: a whole number with a unit, or 0; the runs start evenly over it, run 1 at 0 and run N at its end', () => {
    expect(['20s', '5m', '1h', '2d', '0', '7d'].map(parseSpan)).toEqual([20_000, 300_000, 3_600_000, 172_800_000, 0, 604_800_000]);
    expect(['20', '1.5h', '20 x', '-1s', '8d', '', '1h30m'].map(parseSpan)).toEqual(Array(7).fill(undefined));
    expect(runOffsets(3, 60_000)).toEqual([0, 30_000, 60_000]);
    expect(runOffsets(2, 0)).toEqual([0, 0]);
    expect([0, 20_000, 5_400_000].map(showSpan)).toEqual(['0 (back to back)', '20 s', '1 h 30 min']);
  });

  test('the read-back asks per token, as many Ids a request as a page holds, or one a request under a one-Id filter, bounded', () => {
    const earlier = [1, 2, 3].flatMap((run) => [group(run, 'p0'), group(run, 'p1'), group(run, 'ca', 'channelA')]);
    const many = planReadBack(profile, earlier);
    expect(many.reads.map((r) => [r.via, r.groups.length])).toEqual([
      ['primary', 6],
      ['channelA', 3],
    ]);
    expect(many.left).toBe(0);
    const one = planReadBack({ ...profile, list: { ...profile.list, idFilterTakes: 'one' } }, earlier, 4);
    expect(one.reads).toHaveLength(4);
    expect(one.left).toBe(5);
    // The first run's groups (the oldest), then the previous run's, first.
    expect(one.reads.flatMap((r) => r.groups.map((g) => `${g.run} ${g.key}`))).toEqual(['1 p0', '1 p1', '3 p0', '1 ca']);
  });

  test('a group missing is VIS-02 (staysVisible), a group listed otherwise than sent CREATE-02 (itemMatchesSent), a refused read VIS-02 too', () => {
    const [gone, kept, changed] = [group(1, 'p0'), group(1, 'p1'), group(1, 'p2')];
    const read = planReadBack(profile, [gone, kept, changed]).reads[0];
    const judged = judgeReadBack(
      [{ ...read, exchange: listed([itemOf(kept), itemOf(changed, { Title: 'changed' })]) }],
      context,
      2,
      Date.parse('2026-11-23T00:00:21Z'),
    );
    expect(judged.notAssessed).toEqual([]);
    expect(judged.findings.map((f) => [f.requirement, f.failure.check, f.groups])).toEqual([
      ['VIS-02', 'staysVisible', ['run-1 p0 agp-1-p0']],
      ['CREATE-02', 'itemMatchesSent', ['run-1 p2 agp-1-p2']],
    ]);
    expect(judged.findings[0].failure.received).toContain('after run 2, 21 s after their creates (run 1 p0)');
    expect(judged.findings[1].failure.received).toContain('Title "changed" (sent "T")');
    const refused = judgeReadBack([{ ...read, exchange: listed([], 500) }], context, 2, Date.now());
    expect(refused.findings.map((f) => [f.requirement, f.failure.check])).toEqual([['VIS-02', 'status200']]);
    const clean = judgeReadBack([{ ...read, exchange: listed([gone, kept, changed].map((g) => itemOf(g))) }], context, 2, Date.now());
    expect(clean).toEqual({ findings: [], notAssessed: [] });
    expect(readBackVerdict([], [])).toBe('conformant');
  });

  test("the certificate's verdict is the worst of its runs' and its read-backs'; a read-back not assessed adds nothing", () => {
    expect(certificateVerdict(['conformant', 'conformant'], { verdict: 'non-conformant' })).toBe('non-conformant');
    expect(certificateVerdict(['conformant'], { verdict: null })).toBe('conformant');
    expect(certificateVerdict(['incomplete'], undefined)).toBe('incomplete');
    const notAssessed = certifiedDurability(0, [], 'without --base-url each run starts its own embedded reference server');
    expect(notAssessed).toMatchObject({ verdict: null, summary: expect.stringMatching(/^not assessed: without --base-url/) });
  });
});
