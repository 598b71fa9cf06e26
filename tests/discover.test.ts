/**
 * `agc profile discover` against the reference server serving each profile variant
 * (reference/profile-variants.ts), and against the plain reference profile:
 *
 * - the draft's settings equal the variant's choices, it passes the kit's own profile validation,
 *   and the discovery stayed within its budget (the server's own counters: at most 80 requests and
 *   6 groups created; refused creates create nothing), never printing or writing a token;
 * - every length bound the draft reports is backed by a create accepted at the bound and one
 *   refused just above it, and each variant's own choice is drafted as found, with its evidence;
 * - the kit, judging a server of that variant by the draft, rates it `conformant`, with no requirement
 *   failed at any level, blocked or left to a profile mismatch (a variant's run with its own profile:
 *   the draft's settings are the variant's, asserted first); eight variants share a Playwright run, as
 *   the mutant matrix's do, each with its own draft. `agc run --profile` with a draft, end to end, is
 *   tests/blind.test.ts's.
 *
 * Plus what discovery does when refusals name no bound (bisection), and with faulty targets.
 * Each server runs in this worker: port 0, short snapshot lag, no create rate limit.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { PROFILE_VARIANTS, type ProfileVariant } from '../reference/profile-variants';
import { ONE_ID_FILTER } from '../reference/profile-variants/list';
import { ApiError, defaultHooks, startReferenceServer, type ReferenceHooks, type ReferenceServer } from '../reference/server';
import type { PreloadSettings } from '../reference/store';
import { loadProfile, NAME_MATCHES, profileFromOverride, type Profile } from '../schemas/profile';
import { checkProfileConsistency } from '../schemas';
import { discoverProfile } from '../discover/command';
import { cleanEnv, referenceTokenEnv, runAgc, type KitRun } from './harness';
import { evenBatchSize, runSuitesBatch } from './suite-run';
import type { SuiteRun } from './suite-run-read';
import { expectComplete } from './suite-run-expect';

test.describe.configure({ mode: 'parallel' });

const BUDGET = { requests: 80, creates: 6 };
const SPEC = readFileSync(path.join(__dirname, '..', 'spec', 'asset-group-interface.md'), 'utf8');
const TOKENS = Object.values(referenceTokenEnv());
/**
 * The target's settings, as the kit's suites read them: everything but the name and the schemas.
 * An unset create.lengthUnit counts code points (lengthIn), so the two are the same setting.
 */
const settings = (p: Profile) => ({
  // An unset list.fractionalPaging follows list.invalidPaging (invalidPagingFor), so the two are the same setting too.
  list: { ...p.list, fractionalPaging: p.list.fractionalPaging ?? p.list.invalidPaging },
  create: { ...p.create, lengthUnit: p.create.lengthUnit ?? 'code-points' },
  error: p.error,
  timestamps: p.timestamps,
});

/** Each new variant's own choice, as the draft must write it: `key: value`, under a `# found:` comment. */
const CHOICES: Record<string, [key: string, value: string][]> = {
  pageSizeClamped: [['aboveMaximum', 'clamp']],
  oneIdFilter: [
    ['filterField', '""'],
    ['groupIds', 'Id'],
    ['idFilterTakes', 'one'],
  ],
  pastEndLastPage: [['pastEnd', 'last']],
  zeroBasedPages: [
    ['minimum', '0'],
    ['default', '0'],
  ],
  fractionsTruncated: [['fractionalPaging', 'adjust']],
  pastEndRefused: [['pastEnd', 'refuse']],
  prefixName: [['nameMatch', 'case-insensitive-prefix']],
  caseSensitiveSubstring: [['nameMatch', 'substring']],
  utf16Lengths: [['lengthUnit', 'utf16']],
  byteLengths: [['lengthUnit', 'bytes']],
  optionalNameLongerBound: [
    ['requiredFields', '[]'],
    ['Name', '128'],
  ],
  pythonTimestamps: [['format', 'iso8601-utc']],
};

/** The comment block right above the first line `key: value` of a draft, or undefined when there is no such line. */
/** The draft's paging is the target's, and each of these settings says it was found, not kept. */
function expectPagingFound(drafted: Profile, expected: Profile, text: string, found: [string, string][]): void {
  expect({ pageNumber: drafted.list.pageNumber, pageSize: drafted.list.pageSize }).toEqual({
    pageNumber: expected.list.pageNumber,
    pageSize: expected.list.pageSize,
  });
  for (const [key, value] of found) expect(evidenceOf(text, key, value)?.[0], `${key}: ${value} is drafted, as found`).toMatch(/^# found: /);
}

function evidenceOf(text: string, key: string, value: string): string[] | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.trim() === `${key}: ${value}`);
  if (at < 0) return undefined;
  let start = at;
  while (start > 0 && lines[start - 1].trim().startsWith('#')) start--;
  return lines.slice(start, at).map((line) => line.trim());
}

/** Every create.maxLength the draft reports: accepted at the bound, refused one above (the evidence says so). */
function expectBoundsBacked(text: string, drafted: Profile): void {
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

async function serve(profile: Profile | undefined, hooks?: Partial<ReferenceHooks>, lagMs = 25, preload?: PreloadSettings): Promise<ReferenceServer> {
  return startReferenceServer({ profile, hooks, port: 0, lagMs, createRate: null, preload });
}

function work(label: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `agc-discover-${label}-`));
}

/** Runs the discovery as a user would, with the reference tokens as AG_TOKEN…; asserts nothing. */
function discover(url: string, out: string, dir: string, extra: Record<string, string> = {}): Promise<KitRun> {
  return runAgc(['profile', 'discover', '--out', out], { ...referenceTokenEnv(), ...QUICK, AG_BASE_URL: url, ...extra }, { timeoutMs: 90_000, dir });
}

/**
 * The same command in this process (discover/command.ts): a process of its own costs each discovery about a second of
 * CPU to start, and the variants' batches discover eight servers side by side. What only the CLI does (its exit codes,
 * its output on errors, a token never printed) is checked through discover(), and a whole discovery through the CLI by
 * tests/blind.test.ts.
 */
async function discoverHere(url: string, out: string, extra: Record<string, string> = {}): Promise<Pick<KitRun, 'status' | 'stdout' | 'stderr'>> {
  let stdout = '';
  let stderr = '';
  const status = await discoverProfile(['--out', out], {
    env: { ...cleanEnv(), ...referenceTokenEnv(), ...QUICK, AG_BASE_URL: url, ...extra },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

function expectNoToken(...texts: string[]): void {
  for (const text of texts) for (const token of TOKENS) expect(text.includes(token), 'a token was printed or written').toBe(false);
}

/** Every error message says only "invalid request": no bound is named. */
const TERSE: Partial<ReferenceHooks> = {
  errorBody: (meta, error, ctx) => defaultHooks.errorBody(meta, new ApiError(error.status, error.code, 'invalid request', error.headers), ctx),
};

/**
 * Discovers a reference server serving `override` (with its snapshot lag, `lagMs`) within the budget; returns the
 * expected profile, the draft, its text and what discover printed.
 */
async function draftOf(
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

const plainReference: ProfileVariant = { name: 'reference', description: 'The reference profile itself.', allows: '', profile: {} };

test.describe('profile variants', () => {
  test("every variant passes the kit's profile validation and quotes the spec verbatim", () => {
    const names = PROFILE_VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    for (const v of PROFILE_VARIANTS) {
      expect(v.name).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(SPEC.includes(v.allows), `${v.name}: "${v.allows}" is not in the spec`).toBe(true);
      const p = profileFromOverride(v.profile, v.name);
      expect(checkProfileConsistency(p), v.name).toEqual([]);
      // One choice each: a variant that equals the reference proves nothing.
      expect(settings(p), v.name).not.toEqual(settings(loadProfile()));
    }
  });
});

type Discovery = {
  server: ReferenceServer;
  dir: string;
  out: string;
  run: Pick<KitRun, 'status' | 'stdout' | 'stderr'>;
  stats: ReturnType<ReferenceServer['stats']>;
};

const VARIANTS = [plainReference, ...PROFILE_VARIANTS];

/**
 * Variants per batch: at most 9, in batches of even size (the 27 are three of 9, not 8, 8, 8 and 3: each batch pays a kit
 * run's start). Fewer than the matrices' BATCH: a batch discovers all its servers at once before the kit rates them, and
 * larger batches were no faster (`CI=1 npx playwright test --config tests/playwright.config.ts tests/discover.test.ts`:
 * 8 gave 84 s and 78 s, 14 82 s, 16 94 s).
 */
const BATCH = evenBatchSize(VARIANTS.length, 9);

// The variants go BATCH at a time, each batch a group that runs in one worker, in order. Each variant is discovered
// once, and both its tests judge that discovery (a worker that restarts after a failure discovers anew); the kit then
// rates the batch's servers with their drafts in one Playwright run (runSuitesBatch: a server of each variant, as
// discovered, each judged by its own draft), as the mutant matrix runs its batches.
for (let i = 0; i < VARIANTS.length; i += BATCH) {
  const batch = VARIANTS.slice(i, i + BATCH);
  test.describe(() => {
    test.describe.configure({ mode: 'default' });
    const discoveries = new Map<string, Promise<Discovery>>();
    const expectedOf = (variant: ProfileVariant) => profileFromOverride(variant.profile, variant.name);
    const discovered = (variant: ProfileVariant): Promise<Discovery> => {
      const known = discoveries.get(variant.name);
      if (known) return known;
      const started = (async () => {
        const server = await serve(expectedOf(variant), variant.hooks);
        const dir = work(variant.name);
        const out = path.join(dir, 'profile.yaml');
        const run = await discoverHere(server.url, out);
        return { server, dir, out, run, stats: server.stats() };
      })();
      discoveries.set(variant.name, started);
      return started;
    };
    let rated: Promise<Map<string, SuiteRun>> | undefined;
    const ratedRun = async (variant: ProfileVariant): Promise<SuiteRun> => {
      rated ??= (async () => {
        const found = await Promise.all(batch.map(discovered));
        // A variant whose discovery failed has no draft to judge by: its own test says so.
        return runSuitesBatch(
          batch.flatMap((v, j) =>
            found[j].run.status === 0 ? [{ label: v.name, hooks: v.hooks ?? {}, server: { profile: expectedOf(v) }, profilePath: found[j].out }] : [],
          ),
        );
      })();
      return (await rated).get(variant.name)!;
    };
    test.afterAll(async () => {
      const started = [...discoveries.values()];
      discoveries.clear();
      for (const discovery of started) await (await discovery).server.close();
    });

    for (const variant of batch) {
      const expected = expectedOf(variant);
      test.describe(`variant ${variant.name}`, () => {
        test(`discover drafts the ${variant.name} profile within the budget`, async () => {
          test.setTimeout(120_000);
          const { out, run, stats } = await discovered(variant);
          expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
          expect(stats.requests, 'requests the server received').toBeLessThanOrEqual(BUDGET.requests);
          expect(stats.creates, 'groups the server created').toBeLessThanOrEqual(BUDGET.creates);
          const drafted = loadProfile(out);
          expect(checkProfileConsistency(drafted)).toEqual([]);
          expect(settings(drafted)).toEqual(settings(expected));
          const text = readFileSync(out, 'utf8');
          expectNoToken(text, run.stdout, run.stderr);
          // Output: the file, and the budget it used, in the server's own figures.
          expect(run.stdout).toContain(`draft written: ${out}`);
          expect(run.stdout).toContain(`used ${stats.requests} requests of 80, ${stats.creates} groups created of 6`);
          const createRequests = Number(/\((\d+) create requests\)/.exec(run.stdout)?.[1]);
          expect(createRequests).toBeGreaterThanOrEqual(stats.creates);
          expectBoundsBacked(text, drafted);
          for (const [key, value] of CHOICES[variant.name] ?? []) {
            const evidence = evidenceOf(text, key, value);
            expect(evidence?.[0], `${key}: ${value} is drafted, as found`).toMatch(/^# found: /);
          }
          // Every group it created carries the run prefix (the draft lists them, g1, g2, …).
          const prefix = /Names starting with (agc-[a-z0-9-]+-)/.exec(run.stdout)?.[1];
          expect(prefix).toBeTruthy();
          const listed = [...text.matchAll(/^#\s+g\d+ = \S+ \(Name (\S+)/gm)].map((m) => m[1]);
          expect(listed.length).toBe(stats.creates);
          for (const name of listed) expect(name.startsWith(prefix!)).toBe(true);
          test
            .info()
            .annotations.push({ type: 'budget', description: `${stats.requests} requests, ${stats.creates} creates (${createRequests} create requests)` });
        });

        test(`the kit rates the ${variant.name} server conformant with the drafted profile`, async () => {
          test.setTimeout(240_000);
          const { run: discoveredRun } = await discovered(variant);
          expect(discoveredRun.status, `${discoveredRun.stdout}\n${discoveredRun.stderr}`).toBe(0);
          const run = await ratedRun(variant);
          expectComplete(run);
          // The draft's settings are the variant's own (the test above), and judged by them the server is clean:
          // no requirement failed at any level (a SHOULD's warning neither), none was blocked, none left to a profile mismatch.
          const unclean = run.tests
            .filter((t) => t.status === 'failed' || t.blockedBy.length || t.profileMismatch)
            .map((t) => `${t.requirement} ${t.status}: ${t.error || `blocked by ${t.blockedBy.join(', ')}` || t.profileMismatch}`);
          expect(unclean, `${variant.name} judged by its drafted profile`).toEqual([]);
          expect(run.fails, `${variant.name}: findings`).toEqual([]);
          expect(run.verdict, `${run.firstReason}`).toBe('conformant');
        });
      });
    }
  });
}

test.describe('one setting at a time, on servers of this file', () => {
  for (const nameMatch of NAME_MATCHES) {
    test(`list.nameMatch ${nameMatch} is drafted from a leading part, an inner part and their upper-cased forms`, async () => {
      test.setTimeout(60_000);
      const { drafted, text } = await draftOf(`match-${nameMatch}`, { list: { nameMatch } });
      expect(drafted.list.nameMatch).toBe(nameMatch);
      expect(evidenceOf(text, 'nameMatch', nameMatch)?.[0]).toMatch(/^# found: /);
    });
  }

  test('terse refusals and a UTF-16 unit: bounds and unit found with the creates the budget leaves', async () => {
    test.setTimeout(60_000);
    const { expected, drafted, text } = await draftOf('terse-utf16', { create: { lengthUnit: 'utf16' } }, TERSE);
    expect(settings(drafted)).toEqual(settings(expected));
    expectBoundsBacked(text, drafted);
  });
});

test.describe('discover without hints, and faulty targets', () => {
  test('refusals that name no bound: lengths and the largest page are bisected within the budget', async () => {
    test.setTimeout(120_000);
    const { expected, drafted, text } = await draftOf('terse', {}, TERSE);
    expect(settings(drafted)).toEqual(settings(expected));
    expectBoundsBacked(text, drafted);
  });

  test('a lagging target: the Id filter is told apart from an ignored one by waiting, within the budget', async () => {
    test.setTimeout(120_000);
    // New groups show up only after 1.5 s, and the Id filter is not the first name tried: until
    // then an ignored filter and a working one both list nothing on this otherwise empty target.
    const variant = PROFILE_VARIANTS.find((v) => v.name === 'groupIdList')!;
    const { expected, drafted } = await draftOf('lag', variant.profile, undefined, { lagMs: 1500, env: { AG_VISIBILITY_TIMEOUT_MS: '10000' } });
    expect(settings(drafted)).toEqual(settings(expected));
  });

  test('an Id filter that takes one Id as a string: drafted as list.idFilterTakes: one; the other filters, where they sit and how the Name matches, found one group at a time', async () => {
    test.setTimeout(120_000);
    // As a Flask server built blind from the spec did: every filter at the top level, Id a string, found one group at a time.
    // Names and matching other than the reference's, so "found" means found.
    const { expected, drafted, text, stdout } = await draftOf(
      'oneIdFilter',
      {
        list: {
          filterField: '',
          nameMatch: 'case-insensitive-prefix',
          filters: { name: 'Keyword', groupType: 'Type', assetSpaceId: 'SpaceId' },
          pageNumber: { field: 'Page', pastEnd: 'last' },
          pageSize: { field: 'Size', aboveMaximum: 'clamp' },
        },
      },
      ONE_ID_FILTER,
      { lagMs: 800, env: { AG_VISIBILITY_TIMEOUT_MS: '10000' } },
    );
    expect(stdout).toContain('list.idFilterTakes = "one"');
    expect({
      filterField: drafted.list.filterField,
      nameMatch: drafted.list.nameMatch,
      idFilterTakes: drafted.list.idFilterTakes,
      filters: drafted.list.filters,
    }).toEqual({
      filterField: '',
      nameMatch: 'case-insensitive-prefix',
      idFilterTakes: 'one',
      filters: { groupIds: 'Id', name: 'Keyword', groupType: 'Type', assetSpaceId: 'SpaceId' },
    });
    for (const [key, value] of [
      ['filterField', '""'],
      ['groupIds', 'Id'],
      ['idFilterTakes', 'one'],
      ['name', 'Keyword'],
      ['groupType', 'Type'],
      ['assetSpaceId', 'SpaceId'],
      ['nameMatch', 'case-insensitive-prefix'],
    ])
      expect(evidenceOf(text, key, value)?.[0], `${key}: ${value} is drafted, as found`).toMatch(/^# found: /);
    // The length bounds are still found, after the Name filter and before the value filters in the budget.
    expect(evidenceOf(text, 'Name', '64')?.[0], 'create.maxLength.Name').toMatch(/^# found: /);
    // Paging needs several of the run's groups in one list: the Name part they share lists them, the Name filter matching a leading part.
    // Paging fields and bounds other than the reference's, so "found" means found.
    expectPagingFound(drafted, expected, text, [
      ['field', 'Size'],
      ['field', 'Page'],
      ['maximum', '100'],
      ['aboveMaximum', 'clamp'],
      ['pastEnd', 'last'],
    ]);
    expect(text).toContain('"Keyword":"agc-');
  });

  // As a Sinatra server built blind from the spec did, with paging fields and bounds other than the reference's, so "found" means found;
  // the user has 130 groups of its own besides the run's (other users 70), so its whole list runs to three pages of 50.
  const wholeName = { list: { nameMatch: 'exact', pageNumber: { field: 'Page' }, pageSize: { field: 'Size', maximum: 50, aboveMaximum: 'clamp' } } };
  const PRELOAD: PreloadSettings = { groups: 200, primaryShare: 0.65 };
  for (const pastEnd of ['empty', 'refuse', 'last'] as const) {
    test(`an Id filter of one Id and a Name filter of whole Names: the paging found through the user's whole list, a page past its end answered ${pastEnd} found by its TotalCount`, async () => {
      test.setTimeout(120_000);
      const override = { list: { ...wholeName.list, pageNumber: { ...wholeName.list.pageNumber, pastEnd } } };
      const { expected, drafted, text } = await draftOf(`oneIdExact-${pastEnd}`, override, ONE_ID_FILTER, { preload: PRELOAD });
      expect({ idFilterTakes: drafted.list.idFilterTakes, nameMatch: drafted.list.nameMatch }).toEqual({ idFilterTakes: 'one', nameMatch: 'exact' });
      expectPagingFound(drafted, expected, text, [
        ['field', 'Size'],
        ['field', 'Page'],
        ['maximum', '50'],
        ['aboveMaximum', 'clamp'],
        ['pastEnd', pastEnd],
      ]);
      // No filter at all: the user's list, which holds the run's groups and what else the user has.
      expect(text).toContain('# found: ListAssetGroups {"Size":1} -> HTTP 200, 1 item');
      // Paged by what the user has, not by the run's groups: page 5 is two past the last page of 50.
      expect(evidenceOf(text, 'pastEnd', pastEnd)?.join('\n')).toMatch(
        /"Page":5,"Size":50.*page 5 of 3 .*the user's whole list, 13\d group\(s\) in pages of 50/s,
      );
    });
  }

  type Fault = (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const faults: [string, Fault, RegExp][] = [
    ['accepts connections but never answers', () => undefined, /no (complete )?answer within (AG_REQUEST_TIMEOUT_MS = )?1500 ms/],
    [
      'answers an HTML 502 from a proxy',
      (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>'),
      /HTTP 502 \(text\/html\) is not JSON: "502 Bad Gateway"/,
    ],
    [
      'answers JSON that is not this API',
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok": true}'),
      /does not look like the asset-group API/,
    ],
  ];
  for (const [what, fault, message] of faults) {
    test(`a target that ${what} gets a clear message and exit 2, no draft`, async () => {
      const server = http.createServer(fault);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const dir = work('fault');
        const out = path.join(dir, 'profile.yaml');
        const run = await discover(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, out, dir, { AG_REQUEST_TIMEOUT_MS: '1500' });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr).toMatch(/no draft written; used 1 requests of 80, 0 groups created of 6/);
        expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
        expect(run.durationMs).toBeLessThan(20_000);
        expectNoToken(run.stdout, run.stderr);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }

  test('an unreachable target gets a clear message and exit 2', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dir = work('unreachable');
    const run = await discover(`http://127.0.0.1:${port}`, path.join(dir, 'profile.yaml'), dir);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stderr).toMatch(/connection refused \(is the target up\?\)/);
  });

  test('a refused token is a configuration error (exit 3) and is never printed', async () => {
    const server = await serve(undefined);
    try {
      const dir = work('token');
      const wrong = 'wrong-token-5f2c9a';
      const run = await discover(server.url, path.join(dir, 'profile.yaml'), dir, { AG_TOKEN: wrong });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(3);
      expect(run.stderr).toMatch(/AG_TOKEN was refused/);
      expect(`${run.stdout}\n${run.stderr}`).not.toContain(wrong);
    } finally {
      await server.close();
    }
  });

  test('--help explains it; a missing --out or AG_TOKEN is a usage error', async () => {
    const help = await runAgc(['profile', 'discover', '--help'], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/at most 80 requests and at most 6 groups created/);
    expect(help.stdout).toMatch(/AG_PROFILE=FILE npx agc run/);
    const noOut = await runAgc(['profile', 'discover'], {});
    expect(noOut.status).toBe(3);
    expect(noOut.stderr).toMatch(/--out FILE is required/);
    const noToken = await runAgc(['profile', 'discover', '--out', path.join(work('usage'), 'p.yaml')], { AG_BASE_URL: 'http://127.0.0.1:9' });
    expect(noToken.status).toBe(3);
    expect(noToken.stderr).toMatch(/AG_TOKEN is required/);
  });
});
