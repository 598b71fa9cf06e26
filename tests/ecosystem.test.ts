// The contract in the OpenAPI ecosystem, tried as its users would: the single-path view is in
// sync and routes in Prism; the standard validators (Redocly, Spectral, swagger-parser) accept
// both documents; orval generates a client that compiles; the typed-client example
// (openapi-typescript + openapi-fetch) creates and finds a group on the reference server; and the
// kit rates a Prism mock of the view non-conformant for its data, not for routing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { singlePathView, SOURCE_PATH, VIEW_PATH, WIRE_PATH } from '../spec/single-path';
import type { ConformanceSummary } from '../reporters/verdict';
import { expect, test } from './helpers/fixtures';
import { cleanEnv, exec, readJson, referenceTokenEnv, ROOT, runAgc, type Done } from './helpers/harness';

test.describe.configure({ mode: 'parallel' });

const BIN = path.join(ROOT, 'node_modules', '.bin');
const EXAMPLE = path.join(ROOT, 'examples', 'typed-client');
const DOCUMENTS = [SOURCE_PATH, VIEW_PATH];
const rel = (file: string) => path.relative(ROOT, file);

const output = (done: Done) => `exit ${done.status}\n--- stdout\n${done.stdout.slice(-4000)}\n--- stderr\n${done.stderr.slice(-4000)}`;

// ---------------------------------------------------------------- the single-path view

test('spec/openapi.single-path.yaml is exactly what `npm run contract` writes from spec/openapi.yaml', () => {
  const expected = singlePathView(readFileSync(SOURCE_PATH, 'utf8'));
  expect(readFileSync(VIEW_PATH, 'utf8') === expected, 'the view is stale or was edited by hand: run `npm run contract`').toBe(true);
  expect(expected).toMatch(/^# GENERATED FILE: do not edit by hand\./);
});

test('the single-path view has one POST operation on the wire path, Action an enum of both, bodies and responses combined, the same components', () => {
  const source = YAML.parse(readFileSync(SOURCE_PATH, 'utf8'));
  const view = YAML.parse(readFileSync(VIEW_PATH, 'utf8'));
  const ops = Object.entries<any>(source.paths).map(([key, item]) => ({ action: key.split('#')[1], op: item.post }));
  expect(ops.map((o) => o.action)).toEqual(['CreateAssetGroup', 'ListAssetGroups']);

  expect(Object.keys(view.paths)).toEqual([WIRE_PATH]);
  expect(Object.keys(view.paths[WIRE_PATH])).toEqual(['post']);
  const op = view.paths[WIRE_PATH].post;
  const action = op.parameters.find((p: any) => p.name === 'Action');
  expect(action).toMatchObject({ in: 'query', required: true, schema: { type: 'string', enum: ['CreateAssetGroup', 'ListAssetGroups'] } });
  expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/Version' });

  // anyOf, not oneOf: a Create body is also a valid List body, and Prism refuses a body that matches two oneOf branches.
  expect(op.requestBody.required).toBe(true);
  expect(op.requestBody.content['application/json'].schema).toEqual({ anyOf: ops.map(({ op: o }) => o.requestBody.content['application/json'].schema) });
  expect(JSON.stringify(view)).not.toContain('"oneOf"');

  const statuses = [...new Set(ops.flatMap(({ op: o }) => Object.keys(o.responses)))].sort();
  expect(Object.keys(op.responses).sort()).toEqual(statuses);
  const ok = op.responses['200'].content['application/json'];
  expect(ok.schema).toEqual({ anyOf: ops.map(({ op: o }) => o.responses['200'].content['application/json'].schema) });
  expect(Object.keys(ok.examples)).toEqual(['CreateAssetGroup', 'ListAssetGroups']);
  expect(op.responses['400']['x-error-kind-by-action']).toEqual({ CreateAssetGroup: 'AssetError', ListAssetGroups: 'AssetBadRequest' });

  expect(view.components).toEqual(source.components);
  for (const key of ['openapi', 'servers', 'security']) expect(view[key], key).toEqual(source[key]);
});

// ---------------------------------------------------------------- validators and generators

test('Redocly lints the single-path view clean (the contract itself: tests/openapi-lint.test.ts)', async () => {
  process.env.REDOCLY_TELEMETRY = 'off';
  const core = await import('@redocly/openapi-core');
  const config = await core.loadConfig({ configPath: path.join(ROOT, 'redocly.yaml') });
  const problems = await core.lint({ ref: VIEW_PATH, config: config.forAlias('single-path-view') });
  expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
});

test('Spectral (spectral:oas, .spectral.yaml) finds no problem in either document', async () => {
  for (const file of DOCUMENTS) {
    const done = await exec(path.join(BIN, 'spectral'), ['lint', file, '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'], {
      timeoutMs: 60_000,
    });
    expect(done.status, `${rel(file)}\n${output(done)}`).toBe(0);
    const problems = JSON.parse(done.stdout) as { code: string; message: string; path: string[] }[];
    expect(
      problems.map((p) => `${p.code}: ${p.message} at ${p.path.join('.')}`),
      rel(file),
    ).toEqual([]);
  }
});

test('@apidevtools/swagger-parser validates both documents', async () => {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  for (const file of DOCUMENTS) {
    // A fresh parser per document: validate() dereferences in place.
    const api = (await new SwaggerParser().validate(file)) as { info: { title: string } };
    expect(api.info.title, rel(file)).toContain('Asset Group Interface');
  }
});

test('orval generates a fetch client from the contract that compiles with tsc', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-orval-'));
  writeFileSync(
    path.join(dir, 'orval.config.cjs'),
    `module.exports = { contract: { input: { target: ${JSON.stringify(SOURCE_PATH)} }, output: { target: './client.ts', client: 'fetch', mode: 'single', prettier: false } } };\n`,
  );
  const generated = await exec(path.join(BIN, 'orval'), ['--config', path.join(dir, 'orval.config.cjs')], { cwd: dir, timeoutMs: 60_000 });
  expect(generated.status, output(generated)).toBe(0);
  // orval reports a document it cannot validate as a warning and generates anyway: that counts here too.
  expect(`${generated.stdout}${generated.stderr}`, output(generated)).not.toMatch(/validation failed|⚠️/i);
  const client = readFileSync(path.join(dir, 'client.ts'), 'utf8');
  expect(client).toContain('createAssetGroup');
  expect(client).toContain('listAssetGroups');
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'preserve', moduleResolution: 'bundler', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, types: [] },
      files: ['client.ts'],
    }),
  );
  const compiled = await exec(path.join(BIN, 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], { cwd: dir, timeoutMs: 60_000 });
  expect(compiled.status, output(compiled)).toBe(0);
});

// ---------------------------------------------------------------- Prism

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Prism {
  url: string;
  stop(): Promise<void>;
}

/** `prism mock FILE` on 127.0.0.1, ready when it says it listens (bounded); stopped with SIGINT. */
async function startPrism(document: string): Promise<Prism> {
  const port = await freePort();
  const cli = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
  // Warnings only: Prism's per-request logging costs more CPU than its answers.
  const child: ChildProcess = spawn(process.execPath, [cli, 'mock', document, '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await closed;
      clearTimeout(timer);
    }
  };
  const url = `http://127.0.0.1:${port}`;
  // Ready once it answers anything over HTTP; bounded.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answered = await list(url).then(
      () => true,
      () => false,
    );
    if (answered) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`prism mock ${rel(document)} did not start within 30 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function list(url: string): Promise<Response> {
  return fetch(`${url}${WIRE_PATH}?Action=ListAssetGroups&Version=2024-01-01`, {
    method: 'POST',
    headers: { Authorization: 'Bearer any-token', 'Content-Type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
}

test('Prism routes the wire URL with the single-path view (not with the fragment keys), and the kit rates that mock non-conformant for its data, not for routing', async () => {
  test.setTimeout(240_000);
  const [view, contract] = await Promise.all([startPrism(VIEW_PATH), startPrism(SOURCE_PATH)]);
  try {
    await test.step('the contract, keyed by fragments, cannot be routed: 404 NO_PATH_MATCHED', async () => {
      const response = await list(contract.url);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('NO_PATH_MATCHED');
    });
    await contract.stop();

    await test.step('the single-path view routes it: a mocked 200 with the envelope', async () => {
      const response = await list(view.url);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ResponseMetadata: { Version: '2024-01-01' }, Result: {} });
      const create = await fetch(`${view.url}${WIRE_PATH}?Action=CreateAssetGroup&Version=2024-01-01`, {
        method: 'POST',
        headers: { Authorization: 'Bearer any-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ Name: 'agc-prism-probe' }),
        signal: AbortSignal.timeout(10_000),
      });
      // anyOf lets Prism accept a Create body, which also matches the List body schema.
      expect(create.status).toBe(200);
    });

    await test.step('the kit runs against the mock and rates it non-conformant for its data', async () => {
      const run = await runAgc(
        ['run', '--base-url', view.url],
        {
          ...referenceTokenEnv(),
          AG_VISIBILITY_TIMEOUT_MS: '1500',
          AG_REQUEST_TIMEOUT_MS: '5000',
          AG_NUM_RUNS: '2',
          AG_SEED: '7',
        },
        { timeoutMs: 200_000 },
      );
      const file = path.join(run.reportDir, 'conformance.json');
      expect(existsSync(file), `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe(true);
      const summary = readJson<ConformanceSummary>(file);
      expect(summary.verdict, summary.firstReason ?? '').toBe('non-conformant');
      expect(run.status).toBe(1);
      // Routing worked for every exchange: nothing the kit recorded is Prism's "no such path".
      const report = readFileSync(file, 'utf8');
      expect(report).not.toContain('NO_PATH_MATCHED');
      expect(report).not.toMatch(/"status":\s*404\b/);
      expect(report).not.toMatch(/HTTP 404\b/);
      // Failed for what the mock answers: static examples, nothing stored, nothing scoped, echoes
      // that ignore the request. Loosely: the suites are still changing.
      const failed = summary.requirements.filter((r) => r.status === 'failed').map((r) => r.id);
      expect(failed.filter((id) => /^(SCOPE|CHAN|VIS|VER|CREATE|LIST)-/.test(id)).length, failed.join(', ')).toBeGreaterThanOrEqual(2);
    });
  } finally {
    await Promise.all([view.stop(), contract.stop()]);
  }
});

// ---------------------------------------------------------------- the typed-client example

test('examples/typed-client (openapi-typescript + openapi-fetch) creates a group and finds it listed; against a failing target it exits non-zero with the reason', async ({
  referenceServer,
  startReference,
}) => {
  test.setTimeout(240_000);
  if (!existsSync(path.join(EXAMPLE, 'node_modules', 'openapi-fetch', 'package.json'))) {
    await test.step('npm ci in examples/typed-client', async () => {
      const installed = await exec('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: EXAMPLE, timeoutMs: 180_000 });
      expect(installed.status, output(installed)).toBe(0);
    });
  }
  const token = referenceTokenEnv().AG_TOKEN;

  await test.step('npm start: generates the client, type-checks it, creates, waits, prints the Id', async () => {
    const done = await exec('npm', ['start'], { cwd: EXAMPLE, env: { ...cleanEnv(), AG_BASE_URL: referenceServer.url, AG_TOKEN: token }, timeoutMs: 120_000 });
    expect(done.status, output(done)).toBe(0);
    const id = done.stdout.trim().split('\n').pop()!;
    expect(id, output(done)).toMatch(/^\S+$/);
    expect(done.stderr).toMatch(new RegExp(`created agc-typed-client-\\S+ as ${id.replace(/[^\w-]/g, '\\$&')}`));
    expect(done.stderr).toMatch(/listed after \d+ ms/);
  });

  const tsx = path.join(EXAMPLE, 'node_modules', '.bin', 'tsx');
  await test.step('a token the target refuses: exit 1, the status and error kind said', async () => {
    const done = await exec(tsx, ['src/main.ts'], {
      cwd: EXAMPLE,
      env: { ...cleanEnv(), AG_BASE_URL: referenceServer.url, AG_TOKEN: 'not-a-token' },
      timeoutMs: 60_000,
    });
    expect(done.status, output(done)).toBe(1);
    expect(done.stderr).toContain('CreateAssetGroup answered HTTP 401 TokenAuthError');
  });

  await test.step('a target that never lists the group: exit 1 once the (bounded) wait is over', async () => {
    const lagging = await startReference({ lagMs: 600_000 });
    const done = await exec(tsx, ['src/main.ts'], {
      cwd: EXAMPLE,
      env: { ...cleanEnv(), AG_BASE_URL: lagging.url, AG_TOKEN: token, AG_VISIBILITY_TIMEOUT_MS: '1500' },
      timeoutMs: 60_000,
    });
    expect(done.status, output(done)).toBe(1);
    expect(done.stderr).toMatch(/was created but not listed within 1500 ms/);
  });

  await test.step('no configuration: exit 2, the variable named', async () => {
    const done = await exec(tsx, ['src/main.ts'], { cwd: EXAMPLE, timeoutMs: 60_000 });
    expect(done.status, output(done)).toBe(2);
    expect(done.stderr).toContain('AG_BASE_URL is not set');
  });
});
