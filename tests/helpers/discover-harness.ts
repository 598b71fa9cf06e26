/**
 * What the tests of `agc profile discover` share (tests/matrices/discover.test.ts, tests/matrices/discover-settings.test.ts,
 * tests/matrices/discover-faults.test.ts): reference servers to discover, the discovery run as a user would or in
 * this process, and what a draft must show (its settings, its evidence, its budget, no token). Each
 * server runs in the test's worker: port 0, short snapshot lag, no create rate limit.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiError, defaultHooks, startReferenceServer, type ReferenceHooks, type ReferenceServer } from '../../reference/server';
import type { PreloadSettings } from '../../reference/store';
import { loadProfile, profileFromOverride, type Profile } from '../../schemas/profile';
import { checkProfileConsistency } from '../../schemas';
import { discoverProfile } from '../../discover/command';
import { cleanEnv, referenceTokenEnv, runAgc, type KitRun } from './harness';

export const BUDGET = { requests: 80, creates: 6 };
const TOKENS = Object.values(referenceTokenEnv());
/**
 * The target's settings, as the kit's suites read them: everything but the name and the schemas.
 * An unset create.lengthUnit counts code points (lengthIn), so the two are the same setting.
 */
export const settings = (p: Profile) => ({
  // An unset list.fractionalPaging follows list.invalidPaging (invalidPagingFor), so the two are the same setting too.
  list: { ...p.list, fractionalPaging: p.list.fractionalPaging ?? p.list.invalidPaging },
  create: { ...p.create, lengthUnit: p.create.lengthUnit ?? 'code-points' },
  error: p.error,
  timestamps: p.timestamps,
});

/** The draft's paging is the target's, and each of these settings says it was found, not kept. */
export function expectPagingFound(drafted: Profile, expected: Profile, text: string, found: [string, string][]): void {
  expect({ pageNumber: drafted.list.pageNumber, pageSize: drafted.list.pageSize }).toEqual({
    pageNumber: expected.list.pageNumber,
    pageSize: expected.list.pageSize,
  });
  for (const [key, value] of found) expect(evidenceOf(text, key, value)?.[0], `${key}: ${value} is drafted, as found`).toMatch(/^# found: /);
}

/** The comment block right above the first line `key: value` of a draft, or undefined when there is no such line. */
export function evidenceOf(text: string, key: string, value: string): string[] | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.trim() === `${key}: ${value}`);
  if (at < 0) return undefined;
  let start = at;
  while (start > 0 && lines[start - 1].trim().startsWith('#')) start--;
  return lines.slice(start, at).map((line) => line.trim());
}

/** Every create.maxLength the draft reports: accepted at the bound, refused one above (the evidence says so). */
export function expectBoundsBacked(text: string, drafted: Profile): void {
  for (const [field, max] of Object.entries(drafted.create.maxLength)) {
    const evidence = evidenceOf(text, field, String(max));
    expect(evidence, `create.maxLength.${field}`).toBeTruthy();
    if (!evidence![0].startsWith('# found:')) continue;
    // Evidence shows a string over 40 characters as its start and "(N chars)"; every bound here is longer.
    expect(max).toBeGreaterThan(40);
    expect(
      evidence!.some((line) => line.includes(`(${max} chars)`) && line.includes('-> HTTP 200')),
      `create.maxLength.${field} = ${max}: a create accepted at the bound\n${evidence!.join('\n')}`,
    ).toBe(true);
    expect(
      evidence!.some((line) => line.includes(`(${max + 1} chars)`) && line.includes('-> HTTP 400')),
      `create.maxLength.${field} = ${max}: a create refused above it\n${evidence!.join('\n')}`,
    ).toBe(true);
  }
}

const QUICK = { AG_VISIBILITY_TIMEOUT_MS: '2500', AG_REQUEST_TIMEOUT_MS: '5000' };

export async function serve(profile: Profile | undefined, hooks?: Partial<ReferenceHooks>, lagMs = 25, preload?: PreloadSettings): Promise<ReferenceServer> {
  return startReferenceServer({ profile, hooks, port: 0, lagMs, createRate: null, preload });
}

export function work(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `agc-discover-${label}-`));
}

/** Runs the discovery as a user would, with the reference tokens as AG_TOKEN…; asserts nothing. */
export function discover(url: string, out: string, dir: string, extra: Record<string, string> = {}): Promise<KitRun> {
  return runAgc(['profile', 'discover', '--out', out], { ...referenceTokenEnv(), ...QUICK, AG_BASE_URL: url, ...extra }, { timeoutMs: 90_000, dir });
}

/**
 * The same command in this process (discover/command.ts): a process of its own costs each discovery about a second of
 * CPU to start, and the variants' batches discover eight servers side by side. What only the CLI does (its exit codes,
 * its output on errors, a token never printed) is checked through discover(), and a whole discovery through the CLI by
 * tests/matrices/blind.test.ts.
 */
export async function discoverHere(url: string, out: string, extra: Record<string, string> = {}): Promise<Pick<KitRun, 'status' | 'stdout' | 'stderr'>> {
  let stdout = '';
  let stderr = '';
  const status = await discoverProfile(['--out', out], {
    env: { ...cleanEnv(), ...referenceTokenEnv(), ...QUICK, AG_BASE_URL: url, ...extra },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

export function expectNoToken(...texts: string[]): void {
  for (const text of texts) for (const token of TOKENS) expect(text.includes(token), 'a token was printed or written').toBe(false);
}

/** Every error message says only "invalid request": no bound is named. */
export const TERSE: Partial<ReferenceHooks> = {
  errorBody: (meta, error, ctx) => defaultHooks.errorBody(meta, new ApiError(error.status, error.code, 'invalid request', error.headers), ctx),
};

/**
 * Discovers a reference server serving `override` (with its snapshot lag, `lagMs`) within the budget; returns the
 * expected profile, the draft, its text and what discover printed.
 */
export async function draftOf(
  label: string,
  override: Record<string, unknown>,
  hooks?: Partial<ReferenceHooks>,
  { lagMs, env, preload }: { lagMs?: number; env?: Record<string, string>; preload?: PreloadSettings } = {},
) {
  const expected = profileFromOverride({ name: label, ...override }, label);
  const server = await serve(expected, hooks, lagMs, preload);
  try {
    const dir = work(label);
    const out = path.join(dir, 'profile.yaml');
    const run = await discoverHere(server.url, out, env);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const stats = server.stats();
    expect(stats.requests, 'requests the server received').toBeLessThanOrEqual(BUDGET.requests);
    expect(stats.creates, 'groups the server created').toBeLessThanOrEqual(BUDGET.creates);
    const drafted = loadProfile(out);
    expect(checkProfileConsistency(drafted)).toEqual([]);
    test.info().annotations.push({ type: 'budget', description: `${label}: ${stats.requests} requests, ${stats.creates} creates` });
    return { expected, drafted, text: readFileSync(out, 'utf8'), stdout: run.stdout };
  } finally {
    await server.close();
  }
}
