// The kit as a package: its package.json says what a published package must say (Apache-2.0,
// not private, Node 20, the `agc` bin), `npm publish --dry-run` passes with no warning about the
// package, `npm pack` ships what running needs and nothing else (LICENSE in, tests, bench and
// examples out), and the tarball, installed into an empty project, runs there as the README says:
// `npx agc run` checks the embedded reference server and exits 0, `npx agc reference` starts the
// reference server, `npx agc run --base-url URL` (tokens from that project's .env) writes
// ./conformance-report/ in that project and exits with the verdict, `npx agc profile discover`
// starts from the installed discover/.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceSummary } from '../reporters/verdict';
import { expect, test } from './helpers/fixtures';
import { exec, readJson, ROOT } from './helpers/harness';
import { kitEnv, output, TEST_ONLY } from './helpers/package-helpers';
import { EXIT, exitForVerdict } from '../common/exit-codes.mjs';

test.describe.configure({ mode: 'parallel' });

/** As runAgc gives every other run of the self-test (tests/helpers/harness.ts): the installed kit's workers are the kit's own, and each costs a process start. */
const ONE_WORKER = ['--workers', '1'];

test('the packed kit installs into an empty project, where `npx agc run` (embedded), `npx agc reference` and `npx agc run --base-url` work and write ./conformance-report/', async () => {
  test.setTimeout(540_000);
  const work = mkdtempSync(path.join(os.tmpdir(), 'agc-package-'));
  // The project holds a full node_modules: removed when the test ends, whatever its outcome.
  try {
    await packInstallAndRun(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

async function packInstallAndRun(work: string): Promise<void> {
  const project = path.join(work, 'project');
  mkdirSync(project);
  // The installed kit's runs get a temporary folder of their own, to find the copy of the kit they keep there.
  const tmpdir = path.join(work, 'tmp');
  mkdirSync(tmpdir);
  const projectEnv = (extra: Record<string, string> = {}) => kitEnv({ TMPDIR: tmpdir, ...extra });
  const keptCopies = () => {
    const home = path.join(tmpdir, `agc-kit-${process.geteuid?.()}`);
    return existsSync(home) ? readdirSync(home).map((name) => ({ name, ino: statSync(path.join(home, name)).ino })) : [];
  };
  let firstCopy: { name: string; ino: number } | undefined;

  const tarball = await test.step('npm pack', async () => {
    const done = await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env: kitEnv(), timeoutMs: 60_000 });
    expect(done.status, output(done)).toBe(0);
    const packed = readdirSync(work).filter((name) => /^asset-group-conformance-kit-\d+\.\d+\.\d+.*\.tgz$/.test(name));
    expect(packed).toHaveLength(1);
    return path.join(work, packed[0]);
  });

  await test.step('the tarball holds LICENSE, and no tests, bench or examples', async () => {
    const listed = await exec('tar', ['-tzf', tarball], { cwd: work, env: kitEnv(), timeoutMs: 60_000 });
    expect(listed.status, output(listed)).toBe(0);
    const paths = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.replace(/^package\//, ''));
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('package.json');
    expect(paths.filter((p) => TEST_ONLY.test(p))).toEqual([]);
  });

  await test.step('npm install ./asset-group-conformance-kit-x.y.z.tgz into an empty project', async () => {
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'someone-elses-project', version: '1.0.0', private: true }, null, 2));
    const done = await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, env: kitEnv(), timeoutMs: 240_000 });
    expect(done.status, output(done)).toBe(0);
    expect(existsSync(path.join(project, 'node_modules', '.bin', 'agc'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules', 'asset-group-conformance-kit', 'LICENSE'))).toBe(true);
  });

  await test.step('npx agc run, no --base-url: the embedded reference server is conformant, exit 0', async () => {
    const done = await exec('npx', ['--no', 'agc', 'run', ...ONE_WORKER], {
      cwd: project,
      env: projectEnv({ AG_NUM_RUNS: '3', AG_SEED: '7' }),
      timeoutMs: 240_000,
    });
    const summaryPath = path.join(project, 'conformance-report', 'conformance.json');
    expect(existsSync(summaryPath), output(done)).toBe(true);
    const summary = readJson<ConformanceSummary>(summaryPath);
    expect(summary.target.embedded).toBe(true);
    expect(summary.verdict, summary.firstReason ?? output(done)).toBe('conformant');
    expect(done.status, output(done)).toBe(EXIT.ok);
    // The run against the stand-alone server below writes its own reports here.
    rmSync(path.join(project, 'conformance-report'), { recursive: true, force: true });
    // Playwright compiles no TypeScript below node_modules: the run went from a copy of the kit, kept for the next run.
    const copies = keptCopies();
    expect(copies.map((c) => c.name)).toEqual([expect.stringMatching(/^kit-[0-9a-f]{16}$/)]);
    firstCopy = copies[0];
  });

  await test.step('npx agc certify --runs 2, no --base-url: two conformant runs and a certificate that npx agc verify accepts', async () => {
    const done = await exec(
      'npx',
      ['--no', 'agc', 'certify', '--runs', '2', '--seed', '7', '--num-runs', '3', '--report-dir', 'certification', ...ONE_WORKER],
      {
        cwd: project,
        env: projectEnv(),
        timeoutMs: 300_000,
      },
    );
    expect(done.status, output(done)).toBe(EXIT.ok);
    const certificate = readJson<{ verdict: string; runs: { verdict: string }[] }>(path.join(project, 'certification', 'certificate.json'));
    expect({ verdict: certificate.verdict, runs: certificate.runs.map((r) => r.verdict) }).toEqual({
      verdict: 'conformant',
      runs: ['conformant', 'conformant'],
    });
    const verified = await exec('npx', ['--no', 'agc', 'verify', 'certification/certificate.json'], { cwd: project, env: kitEnv(), timeoutMs: 60_000 });
    expect(verified.status, output(verified)).toBe(EXIT.ok);
    rmSync(path.join(project, 'certification'), { recursive: true, force: true });
  });

  await test.step('npx agc profile discover --help runs the installed discover/; a usage error exits 3', async () => {
    const help = await exec('npx', ['--no', 'agc', 'profile', 'discover', '--help'], { cwd: project, env: kitEnv(), timeoutMs: 60_000 });
    expect(help.status, output(help)).toBe(EXIT.ok);
    expect(help.stdout, output(help)).toContain('Usage: agc profile discover --out FILE');
    const usage = await exec('npx', ['--no', 'agc', 'profile', 'discover'], { cwd: project, env: kitEnv(), timeoutMs: 60_000 });
    expect(usage.status, output(usage)).toBe(EXIT.error);
    expect(usage.stderr, output(usage)).toMatch(/--out FILE is required/);
  });

  // `npx agc reference` in that project: its URL and tokens, as it prints them, become the project's .env.
  // Its own process group, stopped as Ctrl-C would stop it: SIGINT to npx, agc, tsx and the server alike.
  const reference = spawn('npx', ['--no', 'agc', 'reference', '--port', '0', '--lag', '50', '--create-rate', 'off'], {
    cwd: project,
    env: kitEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  reference.stdout.on('data', (d) => (printed += d));
  reference.stderr.on('data', (d) => (printed += d));
  const closed = new Promise<void>((resolve) => reference.on('close', () => resolve()));
  try {
    const url = await test.step('npx agc reference prints its URL and tokens', async () => {
      const deadline = Date.now() + 60_000;
      while (!/AG_TOKEN_CHANNEL_B=\S+/.test(printed)) {
        expect(reference.exitCode, printed).toBeNull();
        expect(Date.now() < deadline, `no URL and tokens within 60 s:\n${printed}`).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const tokens = printed.split('\n').filter((line) => /^AG_TOKEN\w*=\S+$/.test(line));
      expect(tokens).toHaveLength(4);
      writeFileSync(path.join(project, '.env'), `${tokens.join('\n')}\n`);
      return /AG_REFERENCE_URL=(\S+)/.exec(printed)![1];
    });

    await test.step('npx agc run --base-url URL: reports in ./conformance-report/, exit status = verdict', async () => {
      const done = await exec('npx', ['--no', 'agc', 'run', '--base-url', url, ...ONE_WORKER], {
        cwd: project,
        env: projectEnv({ AG_NUM_RUNS: '3', AG_SEED: '7', AG_VISIBILITY_TIMEOUT_MS: '10000' }),
        timeoutMs: 240_000,
      });
      const all = `${done.stdout}\n${done.stderr}`;
      expect(all, output(done)).not.toMatch(/Cannot find module|SyntaxError|ERR_MODULE_NOT_FOUND|ERR_UNKNOWN_FILE_EXTENSION/);
      const reportDir = path.join(project, 'conformance-report');
      for (const file of ['conformance.json', 'index.html', 'junit.xml']) expect(existsSync(path.join(reportDir, file)), `${file}\n${output(done)}`).toBe(true);
      const summary = readJson<ConformanceSummary>(path.join(reportDir, 'conformance.json'));
      expect(done.status, output(done)).toBe(exitForVerdict(summary.verdict));
      expect(summary.target.baseURL).toBe(url);
      expect(summary.target.embedded).toBe(false);
      // The suites ran against the target (loosely: others are changing them right now).
      expect(summary.requirements.filter((r) => r.status === 'passed').length, summary.firstReason ?? '').toBeGreaterThanOrEqual(10);
      // The other users' and channels' tokens came from the project's .env: their checks were assessed, not skipped.
      for (const id of ['SCOPE-01', 'CHAN-01']) expect(summary.requirements.find((r) => r.id === id)?.status, id).not.toBe('skipped');
      expect(summary.requirements.find((r) => r.id === 'AUTH-01')?.status).toBe('passed');
      // Every run since the first (the certification's two, this one) went from the copy the first one made.
      expect(keptCopies(), 'the one copy of the kit, kept since the first run').toEqual([firstCopy]);
    });

    await test.step('a folder for the copies that others may write is not used: the command gets a copy of its own, removed when it ends', async () => {
      chmodSync(path.join(tmpdir, `agc-kit-${process.geteuid?.()}`), 0o777);
      const touched = path.join(project, 'node_modules', 'asset-group-conformance-kit', 'README.md');
      // A changed kit, so that a copy made there would be a new one.
      utimesSync(touched, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
      // A run that ends quickly, against a target that is down: incomplete, from the copy it made for itself.
      const done = await exec('npx', ['--no', 'agc', 'run', '--base-url', 'http://127.0.0.1:9', '--report-dir', path.join(work, 'down'), ...ONE_WORKER], {
        cwd: project,
        env: projectEnv({ AG_TOKEN: 'x' }),
        timeoutMs: 60_000,
      });
      expect(done.status, output(done)).toBe(EXIT.incomplete);
      expect(keptCopies(), 'nothing new in a folder others may write').toEqual([firstCopy]);
      expect(readdirSync(tmpdir).filter((name) => name.startsWith('agc-kit-') && name !== `agc-kit-${process.geteuid?.()}`)).toEqual([]);
    });
  } finally {
    if (reference.exitCode === null && reference.signalCode === null) {
      const group = (signal: NodeJS.Signals) => {
        try {
          process.kill(-reference.pid!, signal);
        } catch {
          // already gone
        }
      };
      group('SIGINT');
      const timer = setTimeout(() => group('SIGKILL'), 5_000);
      await closed;
      clearTimeout(timer);
    }
  }
}
