import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../schemas/yaml';
import { runChild } from '../common/child.mjs';
import { EXIT } from '../common/exit-codes.mjs';

/**
 * `agc compare --targets FILE`: one `agc run` per target, each into its own folder, before the comparison. The file names
 * the variables that hold each target's tokens, never a token: a targets file is shared and checked in, tokens are not.
 *
 *   targets:
 *     - name: alpha                       # the column's name, and its folder under DIR/runs
 *       baseUrl: https://alpha.example/   # omitted: the embedded reference server
 *       profile: profiles/alpha.yaml      # relative to the targets file; omitted: the reference profile
 *       tokens: { AG_TOKEN: ALPHA_TOKEN, AG_TOKEN_OTHER_USER: ALPHA_TOKEN_2 }
 */

export class TargetsError extends Error {}

const ROLES = ['AG_TOKEN', 'AG_TOKEN_OTHER_USER', 'AG_TOKEN_CHANNEL_A', 'AG_TOKEN_CHANNEL_B'];
const AGC = path.join(__dirname, '..', 'bin', 'agc.mjs');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Target {
  name: string;
  folder: string;
  baseUrl?: string;
  profile?: string;
  tokens: Record<string, string>;
}

export function readTargets(file: string): Target[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TargetsError(`--targets ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new TargetsError(`--targets ${file}: not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const list = isObject(doc) ? doc.targets : undefined;
  if (!Array.isArray(list) || !list.length || list.length > 20) throw new TargetsError(`--targets ${file}: needs a list \`targets:\` of 1 to 20 targets`);
  const folders = new Set<string>();
  return list.map((t, i) => {
    const where = `--targets ${file}: targets[${i}]`;
    if (!isObject(t) || typeof t.name !== 'string' || !t.name.trim() || t.name.length > 80)
      throw new TargetsError(`${where} needs a name (at most 80 characters)`);
    const folder = t.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || `target-${i + 1}`;
    if (folders.has(folder)) throw new TargetsError(`${where}: the name ${t.name} is taken by another target`);
    folders.add(folder);
    if (t.baseUrl !== undefined && (typeof t.baseUrl !== 'string' || !/^https?:\/\//.test(t.baseUrl)))
      throw new TargetsError(`${where}.baseUrl is not an http(s) URL`);
    if (t.profile !== undefined && typeof t.profile !== 'string') throw new TargetsError(`${where}.profile is not a file name`);
    const tokens = t.tokens === undefined ? {} : t.tokens;
    if (!isObject(tokens)) throw new TargetsError(`${where}.tokens maps ${ROLES.join(', ')} to the names of the variables holding them`);
    for (const [role, variable] of Object.entries(tokens)) {
      if (!ROLES.includes(role)) throw new TargetsError(`${where}.tokens: ${role} is not one of ${ROLES.join(', ')}`);
      if (typeof variable !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
        throw new TargetsError(`${where}.tokens.${role} must be the name of a variable, not a token`);
    }
    return {
      name: t.name.trim(),
      folder,
      baseUrl: t.baseUrl as string | undefined,
      profile: t.profile ? path.resolve(path.dirname(file), t.profile as string) : undefined,
      tokens: tokens as Record<string, string>,
    };
  });
}

/** What belongs to one target and must not reach another's run: its tokens, and the settings the targets file gives per target. */
const PER_TARGET = /^AG_(REF_)?TOKEN|^AG_(BASE_URL|PROFILE|REPORT_DIR|WAIVERS|BASELINE)$/;

/**
 * The environment of one target's run: the parent's (the kit's other settings, AG_SEED or AG_REQUEST_TIMEOUT_MS, apply to
 * every run) without anything of one target, and this target's tokens under the kit's names.
 */
function environmentOf(target: Target): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!PER_TARGET.test(key)) env[key] = value;
  for (const [role, variable] of Object.entries(target.tokens)) {
    const value = process.env[variable];
    if (!value) throw new TargetsError(`target ${target.name}: ${variable} (its ${role}) is not set`);
    env[role] = value;
  }
  if (target.baseUrl && !env.AG_TOKEN)
    throw new TargetsError(`target ${target.name}: tokens.AG_TOKEN names no variable, and a target with a baseUrl needs one`);
  return env;
}

/** Runs every target, one after another, and gives the folder of each report. A run that wrote no report ends the command. */
export async function runTargets(file: string, runsDir: string, workers?: string): Promise<{ name: string; reportDir: string }[]> {
  const targets = readTargets(file);
  const envs = targets.map(environmentOf);
  const done: { name: string; reportDir: string }[] = [];
  for (const [i, target] of targets.entries()) {
    const reportDir = path.join(runsDir, target.folder);
    rmSync(path.join(reportDir, 'conformance.json'), { force: true });
    const args = ['run', '--report-dir', reportDir];
    if (target.baseUrl) args.push('--base-url', target.baseUrl);
    if (target.profile) args.push('--profile', target.profile);
    if (workers) args.push('--workers', workers);
    console.log(`agc compare: running ${target.name} (${i + 1} of ${targets.length})`);
    mkdirSync(runsDir, { recursive: true });
    // Run from the runs' folder: `agc run` reads a .env where it runs, and the user's would lend one target's tokens to another.
    const { code, interrupted } = await runChild(AGC, args, envs[i], runsDir);
    if (interrupted) throw new TargetsError(`interrupted during the run of ${target.name}`);
    if (code === EXIT.error || !existsSync(path.join(reportDir, 'conformance.json')))
      throw new TargetsError(`the run of ${target.name} wrote no report (exit ${code}); see its output above`);
    done.push({ name: target.name, reportDir });
  }
  return done;
}
