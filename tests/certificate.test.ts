/** The certificate as data: its notice, its canonical form and signature, its page escaping what a target sent, the combined verdict. */
import { test, expect } from './helpers/fixtures';
import { generateKeyPairSync } from 'node:crypto';
import {
  buildCertificate,
  canonicalJson,
  combinedVerdict,
  privateKeyFrom,
  publicKeyFrom,
  signatureProblem,
  signCertificate,
  type CertificateFacts,
} from '../certify/certificate';
import { renderCertificatePage } from '../certify/html';

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
