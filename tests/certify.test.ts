import { test, expect } from './helpers/fixtures';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { filesBelow, readJson, ROOT, runAgc, type KitRun } from './helpers/harness';
import { sha256, type Certificate } from '../certify/certificate';
import type { ConformanceSummary } from '../reporters/verdict';
import { expectValidHar } from './helpers/har-schema';
import { holdsSecret, secretPattern, secretsOf } from '../client/redact';
import { EXIT } from '../common/exit-codes.mjs';

import { changeOneByte, copyOf, mismatches, pem, quick, tmp, TOKENS } from './helpers/certify';

test.describe('agc certify --runs 2 against the embedded reference server, signed, with a waiver in force', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(420_000);

  const work = tmp();
  const dir = path.join(work, 'certification');
  const keys = generateKeyPairSync('ed25519');
  const other = generateKeyPairSync('ed25519');
  const files = {
    sign: path.join(work, 'sign.pem'),
    public: path.join(work, 'public.pem'),
    wrong: path.join(work, 'wrong-public.pem'),
    waivers: path.join(work, 'waivers.yaml'),
  };
  let certify: KitRun;

  test.beforeAll(async () => {
    writeFileSync(files.sign, pem(keys.privateKey, 'pkcs8'));
    writeFileSync(files.public, pem(keys.publicKey, 'spki'));
    writeFileSync(files.wrong, pem(other.publicKey, 'spki'));
    writeFileSync(
      files.waivers,
      'waivers:\n  - id: PAGE-03\n    reason: staging defaults PageSize to 20 until release 42\n    link: https://tracker.example.com/AG-17\n',
    );
    certify = await runAgc(
      ['certify', '--runs', '2', '--seed', '41', '--report-dir', dir, '--sign-key', files.sign, '--waivers', files.waivers],
      { ...quick, ...TOKENS },
      { timeoutMs: 400_000, dir: work },
    );
  });

  test('writes a signed certificate of both runs, each with its own seed and reports, and exits with the combined verdict', async () => {
    expect(certify.status, `${certify.stdout}\n${certify.stderr}`).toBe(EXIT.ok);
    const certificate = readJson<Certificate>(path.join(dir, 'certificate.json'));
    const pkg = readJson<{ name: string; version: string }>(path.join(ROOT, 'package.json'));
    expect(certificate.verdict).toBe('conformant');
    expect(certificate.kit).toEqual({ name: pkg.name, version: pkg.version });
    expect(certificate.seeds).toEqual([41, 42]);
    expect(certificate.profile).toBe('reference');
    expect(certificate.profileInForce).toMatchObject({ name: 'reference', path: null, reference: true });
    expect(certificate.profileInForce.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(certificate.target).toMatchObject({ baseURL: null, embedded: true, service: ['media_assets'] });
    expect(certificate.signature).toMatchObject({ algorithm: 'ed25519', publicKeySha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(certificate.runs.map((r) => [r.run, r.seed, r.verdict, r.report, r.html])).toEqual([
      [1, 41, 'conformant', 'run-1/conformance.json', 'run-1/index.html'],
      [2, 42, 'conformant', 'run-2/conformance.json', 'run-2/index.html'],
    ]);
    for (const run of certificate.runs) {
      const bytes = readFileSync(path.join(dir, run.report));
      expect(run.reportSha256).toBe(sha256(bytes));
      expect(run.har).toBe(`run-${run.run}/exchanges.har`);
      expect(run.harSha256).toBe(sha256(readFileSync(path.join(dir, run.har!))));
      const report = JSON.parse(bytes.toString('utf8')) as ConformanceSummary;
      expect(report.seed).toBe(run.seed);
      // The spec hash is the one conformance.json carries (reporters/verdict.ts computes it).
      expect(certificate.spec.sha256).toBe(report.kit.specHash);
      expect(existsSync(path.join(dir, run.html))).toBe(true);
    }
    expect(certificate.waivers.entries).toEqual([
      expect.objectContaining({ id: 'PAGE-03', state: 'in force', appliedInRuns: [], link: 'https://tracker.example.com/AG-17' }),
    ]);
    expect(certify.stdout).toContain('agc certify: run 1 of 2, seed 41');
    expect(certify.stdout).toContain('agc certify: run 2 of 2, seed 42');
  });

  test('the first lines of the certificate state the waiver in force', async () => {
    const text = readFileSync(path.join(dir, 'certificate.json'), 'utf8');
    const [open, first] = text.split('\n');
    expect(open).toBe('{');
    expect(first).toMatch(
      /^ {2}"notice": "waived: PAGE-03 \(staging defaults PageSize to 20 until release 42; https:\/\/tracker\.example\.com\/AG-17; not needed in any run\)"/,
    );
    expect(Object.keys(JSON.parse(text))[0]).toBe('notice');
  });

  test("each run's exchanges.har holds every exchange of a conformant run, passing or not, bounded, and nothing else is left beside it", async () => {
    const report = readJson<ConformanceSummary>(path.join(dir, 'run-1', 'conformance.json'));
    expect(report.verdict).toBe('conformant');
    for (const run of ['run-1', 'run-2']) {
      // HAR 1.2, as a plain run's evidence HAR is.
      const har = expectValidHar(path.join(dir, run, 'exchanges.har'));
      const entries = har.log.entries;
      // A whole run sends some 240 requests; a plain run's HAR of a conformant run has none (only evidence).
      expect(entries.length, run).toBeGreaterThan(100);
      expect(entries.every((e) => e.request.url.includes('/v1/media_assets/?'))).toBe(true);
      expect(entries.filter((e) => e.response.status === 200).length).toBeGreaterThan(50);
      expect(
        entries.some((e) => e.response.status === 401),
        'the AUTH tests, refused as they should be',
      ).toBe(true);
      expect(entries.map((e) => e.startedDateTime)).toEqual([...entries.map((e) => e.startedDateTime)].sort());
      expect(har.log.comment).toContain('Every exchange of the conformance run');
      // The senders' files were gathered and removed.
      expect(readdirSync(path.join(dir, run)).filter((name) => name.startsWith('.exchanges-'))).toEqual([]);
    }
  });

  test('no token, in any of the forms the kit looks for, in certificate.json, index.html or any report of the runs', async () => {
    const redactor = secretPattern(secretsOf(Object.values(TOKENS)));
    for (const run of ['run-1', 'run-2']) {
      const har = readFileSync(path.join(dir, run, 'exchanges.har'), 'utf8');
      expect(holdsSecret(har, redactor), `a token in some encoding in ${run}/exchanges.har`).toBe(false);
      // The redaction is no empty promise: the check finds a token written in base64.
      expect(holdsSecret(`${har}${Buffer.from(`Bearer ${TOKENS.AG_REF_TOKEN}`).toString('base64')}`, redactor)).toBe(true);
    }
    const written = filesBelow(dir).filter((f) => /\.(json|html|xml|svg|txt|md|har)$/.test(f));
    expect(written).toEqual(expect.arrayContaining([path.join(dir, 'run-1', 'exchanges.har')]));
    expect(written).toEqual(expect.arrayContaining([path.join(dir, 'certificate.json'), path.join(dir, 'index.html')]));
    for (const file of written) {
      const text = readFileSync(file, 'utf8');
      for (const token of Object.values(TOKENS)) {
        expect(text, file).not.toContain(token);
        expect(text, file).not.toContain(Buffer.from(token).toString('base64').slice(0, 24));
      }
    }
  });

  test('index.html: the combined verdict, each run linked to its own page, the facts, self-contained', async () => {
    const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
    expect(html).toContain('Certified conformant');
    expect(html).toContain('<a href="run-1/index.html">report</a>');
    expect(html).toContain('<a href="run-2/index.html">report</a>');
    expect(html).toContain('<strong>Notice:</strong> waived: PAGE-03');
    const certificate = readJson<Certificate>(path.join(dir, 'certificate.json'));
    for (const fact of [certificate.spec.sha256, certificate.profileInForce.sha256, certificate.runs[0].reportSha256, certificate.signature!.publicKeySha256])
      expect(html).toContain(fact);
    // Nothing is fetched: no script, stylesheet link, image or frame.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(/i);
  });

  test("agc verify accepts the certificate with the signer's public key (exit 0); without one it says the signature was not checked", async () => {
    const verified = await runAgc(['verify', path.join(dir, 'certificate.json'), '--public-key', files.public], {});
    expect(verified.status, `${verified.stdout}\n${verified.stderr}`).toBe(EXIT.ok);
    expect(mismatches(verified)).toEqual([]);
    expect(verified.stdout).toContain(
      'the certificate holds: 2 run reports matched their sha256, and 2 exchanges.har theirs; the signature matches the given public key',
    );
    const unsigned = await runAgc(['verify', path.join(dir, 'certificate.json')], {});
    expect(unsigned.status).toBe(EXIT.ok);
    expect(unsigned.stdout).toContain('the signature was NOT checked (no --public-key)');
  });

  test("one byte changed in a run's conformance.json: verify rejects it, naming that file", async () => {
    const copy = copyOf(dir);
    changeOneByte(path.join(copy, 'run-2', 'conformance.json'), '"verdict": "', 'C');
    for (const key of [['--public-key', files.public], []]) {
      const verified = await runAgc(['verify', path.join(copy, 'certificate.json'), ...key], {});
      expect(verified.status, verified.stdout).toBe(EXIT.nonConformant);
      expect(mismatches(verified)).toEqual([
        expect.stringMatching(/^mismatch: run-2\/conformance\.json: sha256 [0-9a-f]{64} does not match the certificate's [0-9a-f]{64}$/),
      ]);
    }
  });

  test("one byte changed in a run's exchanges.har: verify rejects it, naming that file, with or without the key", async () => {
    const copy = copyOf(dir);
    changeOneByte(path.join(copy, 'run-1', 'exchanges.har'), '"status":', '9');
    for (const key of [['--public-key', files.public], []]) {
      const verified = await runAgc(['verify', path.join(copy, 'certificate.json'), ...key], {});
      expect(verified.status, verified.stdout).toBe(EXIT.nonConformant);
      expect(mismatches(verified)).toEqual([
        expect.stringMatching(/^mismatch: run-1\/exchanges\.har: sha256 [0-9a-f]{64} does not match the certificate's [0-9a-f]{64}$/),
      ]);
    }
  });

  test("a run's conformance.json gone: verify says it is missing", async () => {
    const copy = copyOf(dir);
    rmSync(path.join(copy, 'run-1', 'conformance.json'));
    const verified = await runAgc(['verify', path.join(copy, 'certificate.json'), '--public-key', files.public], {});
    expect(verified.status).toBe(EXIT.nonConformant);
    expect(mismatches(verified)).toEqual([expect.stringContaining('mismatch: run-1/conformance.json: missing')]);
  });

  test('one byte changed in certificate.json (a seed): the signature no longer holds', async () => {
    const copy = copyOf(dir);
    changeOneByte(path.join(copy, 'certificate.json'), '"seeds": [\n    4', '9');
    const verified = await runAgc(['verify', path.join(copy, 'certificate.json'), '--public-key', files.public], {});
    expect(verified.status).toBe(EXIT.nonConformant);
    expect(mismatches(verified)).toContain('mismatch: certificate.json: the signature does not match: the certificate was changed after it was signed');
    // The seeds no longer agree with the runs' own, which verify says even without the key.
    const unsigned = await runAgc(['verify', path.join(copy, 'certificate.json')], {});
    expect(unsigned.status).toBe(EXIT.nonConformant);
    expect(mismatches(unsigned)).toEqual([expect.stringContaining("mismatch: certificate.json: seeds [49,42] are not its runs' seeds [41,42]")]);
  });

  test('one byte changed where only the signature covers it (the date): rejected with the key', async () => {
    const copy = copyOf(dir);
    changeOneByte(path.join(copy, 'certificate.json'), '"issuedAt": "', '1');
    const verified = await runAgc(['verify', path.join(copy, 'certificate.json'), '--public-key', files.public], {});
    expect(verified.status).toBe(EXIT.nonConformant);
    expect(mismatches(verified)).toEqual(['mismatch: certificate.json: the signature does not match: the certificate was changed after it was signed']);
  });

  test('a wrong public key: rejected, naming both keys', async () => {
    const verified = await runAgc(['verify', path.join(dir, 'certificate.json'), '--public-key', files.wrong], {});
    expect(verified.status).toBe(EXIT.nonConformant);
    expect(mismatches(verified)).toEqual([
      expect.stringMatching(
        /^mismatch: certificate\.json: the signature does not match: it was made by the key sha256:[0-9a-f]{64}, not by the given public key sha256:[0-9a-f]{64}$/,
      ),
    ]);
  });
});

test.describe('agc certify and agc verify: usage errors exit 3', () => {
  test.describe.configure({ mode: 'parallel' });

  test('agc verify without a certificate, with an unreadable one or an unreadable key', async () => {
    const work = tmp();
    const none = await runAgc(['verify'], {});
    expect(none.status).toBe(EXIT.error);
    expect(none.stderr).toContain('agc verify: agc verify takes one CERT');
    const missing = await runAgc(['verify', path.join(work, 'nothing.json')], {});
    expect(missing.status).toBe(EXIT.error);
    expect(missing.stderr).toContain('cannot read the certificate');
    writeFileSync(path.join(work, 'other.json'), '{"verdict":"conformant"}');
    const notCert = await runAgc(['verify', path.join(work, 'other.json')], {});
    expect(notCert.status).toBe(EXIT.error);
    expect(notCert.stderr).toContain('is not a certificate of agc certify');
    const badKey = path.join(work, 'key.pem');
    writeFileSync(badKey, 'not a key');
    const key = await runAgc(['verify', path.join(work, 'other.json'), '--public-key', badKey], {});
    expect(key.status).toBe(EXIT.error);
    expect(key.stderr).toContain('--public-key');
  });

  test('agc certify with --runs 0, an unknown option, or a key that is not Ed25519', async () => {
    const work = tmp();
    const zero = await runAgc(['certify', '--runs', '0', '--report-dir', work], {});
    expect(zero.status).toBe(EXIT.error);
    expect(zero.stderr).toContain('--runs must be a positive whole number, not 0');
    const shard = await runAgc(['certify', '--shard', '1/2', '--report-dir', work], {});
    expect(shard.status).toBe(EXIT.error);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(path.join(work, 'rsa.pem'), pem(rsa.privateKey, 'pkcs8'));
    const key = await runAgc(['certify', '--runs', '1', '--sign-key', path.join(work, 'rsa.pem'), '--report-dir', work], {});
    expect(key.status).toBe(EXIT.error);
    expect(key.stderr).toContain('an Ed25519 key is needed, not rsa');
    expect(existsSync(path.join(work, 'run-1'))).toBe(false);
  });

  test('agc certify --span: garbage, more than a week, with one run, or without a target of its own', async () => {
    const work = tmp();
    const target = ['--base-url', 'http://127.0.0.1:9', '--report-dir', work];
    for (const span of ['20x', '1.5h', '-1s', '20 s', '8d', '', '5']) {
      const run = await runAgc(['certify', `--span=${span}`, ...target], { AG_TOKEN: 'x' });
      expect(run.status, span).toBe(EXIT.error);
      expect(run.stderr, span).toMatch(/--span (takes a duration|needs a value)/);
    }
    const one = await runAgc(['certify', '--span', '20s', '--runs', '1', ...target], { AG_TOKEN: 'x' });
    expect(one.status).toBe(EXIT.error);
    expect(one.stderr).toContain('--span 20s spreads runs over time: it needs --runs 2 or more');
    const embedded = await runAgc(['certify', '--span', '1m', '--report-dir', work], {});
    expect(embedded.status).toBe(EXIT.error);
    expect(embedded.stderr).toContain('--span 1m needs --base-url');
    expect(existsSync(path.join(work, 'run-1'))).toBe(false);
  });
});
