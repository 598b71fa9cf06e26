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
 *   tests/matrices/blind.test.ts's.
 *
 * What discovery does with one setting at a time, when refusals name no bound (bisection), and
 * with the harder targets is tests/matrices/discover-settings.test.ts's; with faulty targets,
 * tests/matrices/discover-faults.test.ts's. Each server runs in this worker: port 0, short snapshot lag,
 * no create rate limit (tests/helpers/discover-harness.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { PROFILE_VARIANTS, type ProfileVariant } from '../../reference/profile-variants';
import type { ReferenceServer } from '../../reference/server';
import { loadProfile, profileFromOverride } from '../../schemas/profile';
import { checkProfileConsistency } from '../../schemas';
import type { KitRun } from '../helpers/harness';
import { evenBatchSize, runSuitesBatch } from '../helpers/suite-run';
import type { SuiteRun } from '../helpers/suite-run-read';
import { expectComplete } from '../helpers/suite-run-expect';
import { BUDGET, discoverHere, evidenceOf, expectBoundsBacked, expectNoToken, serve, settings, work } from '../helpers/discover-harness';

test.describe.configure({ mode: 'parallel' });

const SPEC = readFileSync(path.join(__dirname, '..', '..', 'spec', 'asset-group-interface.md'), 'utf8');

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
 * larger batches were no faster (`CI=1 npx playwright test --config tests/playwright.config.ts tests/matrices/discover.test.ts`:
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
