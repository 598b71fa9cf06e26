/**
 * Proof that every check can fail: the conformance suites run against the reference
 * server and against every mutant of reference/mutants.ts (tests/helpers/suite-run.ts), and each run must
 * fail exactly the requirements (and report exactly the failing checks) that
 * reference/mutants.expected.yaml says. A finding one test attributes to another requirement
 * counts as that requirement's failure; a test blocked by another's failure counts as none.
 *
 * To see what a new mutant fails, run with AG_MUTANTS_RECORD=/tmp/kills.jsonl: every run appends
 * its outcome there (the assertions still apply).
 *
 * The test each mutant gets is tests/matrices/mutant-tests.ts's; the paging mutants under a one-Id filter and
 * whole-Name matching are run by tests/matrices/mutants-one-id-exact.test.ts, and the guards over the
 * matrix's data are tests/matrices/mutant-guards.test.ts.
 */
import { test } from '@playwright/test';
import { MUTANTS } from '../../reference/mutants';
import { PROFILE_VARIANTS } from '../../reference/profile-variants';
import { profileFromOverride } from '../../schemas/profile';
import { inBatches, type BatchEntry } from '../helpers/suite-run';
import { expected, mutantTest, ranWith, referenceTest } from './mutant-tests';

test.describe('mutants', () => {
  test.setTimeout(180_000);

  // Heaviest first (a failing test of a requirement with several tests costs the child a worker restart), so the slow ones do not form the tail.
  const heaviestFirst = [...MUTANTS].sort((a, b) => (expected.mutants[b.name]?.fails.length ?? 0) - (expected.mutants[a.name]?.fails.length ?? 0));
  // Those the kit judges with its own profile share Playwright runs (inBatches): one runner for several,
  // each still its own server, run id, workers and conformance.json. Those with a profile of their own (kitProfile) run
  // in the batch of the mutants under a profile variant, below.
  inBatches(
    heaviestFirst.filter((m) => !m.kitProfile),
    (m) => ({ label: m.name, hooks: m.hooks }),
    mutantTest,
  );
});

/**
 * Mutants whose requirement a one-Id filter reads otherwise (list.idFilterTakes: one, the oneIdFilter
 * variant served and stated): reads by Id one request each (LIST-04, CREATE-02, SCOPE-02, VIS-02), pages
 * by the Name part of the run's primary groups (PAGE-04, PAGE-05), a channel's pages by the run's prefix
 * (CHAN-02). Each must still fail exactly what it fails under the reference profile.
 */
const ONE_ID_MUTANTS = [
  'groupIdsFilterIgnored',
  'totalCountOfPage',
  'pagesOverlapByOne',
  'trimsWhitespace',
  'channelScopeFirstPageOnly',
  'idFilterIgnoresUser',
  'evictedAfterTwoReads',
];

/**
 * Mutants of the name filter under a case-sensitive one (list.nameMatch: substring, the caseSensitiveSubstring
 * variant served and stated): then LIST-07's upper-cased probes match nothing, so how a target answers a filter
 * that matches nothing reaches LIST-07 too. An Express server built blind from the spec, given the 404 of
 * filteredNoMatchIs404, failed LIST-07 beside LIST-06 for that one deviation. Each must still fail exactly
 * what it fails under the reference profile.
 */
const CASE_SENSITIVE_NAME_MUTANTS = ['filteredNoMatchIs404', 'nameFilterIgnored', 'nameFilterLikeWildcards', 'exactNameIgnoresUser'];

/**
 * Mutants of the values a create keeps, under a stated length unit (create.lengthUnit: utf16, the utf16Lengths variant
 * served and stated): then CREATE-05's values at the bounds are text of every plane, as p1's ordinary ones are, so a
 * change to characters reaches CREATE-05 too. A Starlette server built blind from the spec, changed to normalise to
 * NFC, failed CREATE-05 beside CREATE-02 for that one deviation. Each must still fail exactly what it fails under the
 * reference profile.
 */
// Not longNameTruncated: it cuts at 60 code points, and 64 UTF-16 units of text of every plane are fewer.
const LENGTH_UNIT_MUTANTS = ['unicodeNormalised', 'astralCharsReplaced', 'emptyTitleDefaulted'];

/** Mutants run against a profile variant, served and stated: each must still fail exactly what it fails under the reference profile. */
const UNDER_VARIANTS: { variantName: string; names: string[]; label: string; under: string }[] = [
  { variantName: 'oneIdFilter', names: ONE_ID_MUTANTS, label: 'one', under: 'under list.idFilterTakes: one' },
  { variantName: 'caseSensitiveSubstring', names: CASE_SENSITIVE_NAME_MUTANTS, label: 'case', under: 'under list.nameMatch: substring' },
  { variantName: 'utf16Lengths', names: LENGTH_UNIT_MUTANTS, label: 'utf16', under: 'under create.lengthUnit: utf16' },
];

type StatedItem =
  | { kind: 'reference' }
  | { kind: 'stated'; mutant: (typeof MUTANTS)[number] }
  | { kind: 'variant'; mutant: (typeof MUTANTS)[number]; variant: (typeof PROFILE_VARIANTS)[number]; label: string; under: string };

// All of them share Playwright runs, each server judged by its own variant's profile (BatchEntry.kitProfile): a run costs
// its runner's and worker's start whatever it holds, and each variant's few mutants made three small runs of their own.
// With them, in the same batch, the unmodified reference server (judged by the reference profile, as the matrix above) and
// the mutants the kit judges with a profile of their own (kitProfile): two runs of their own before.
test.describe('the reference server, and mutants under a stated profile', () => {
  test.setTimeout(180_000);
  const items: StatedItem[] = [
    ...UNDER_VARIANTS.flatMap(({ variantName, names, label, under }) => {
      const variant = PROFILE_VARIANTS.find((v) => v.name === variantName)!;
      return names.map((name) => ({ kind: 'variant' as const, mutant: MUTANTS.find((m) => m.name === name)!, variant, label, under }));
    }),
    ...MUTANTS.filter((m) => m.kitProfile).map((mutant) => ({ kind: 'stated' as const, mutant })),
    { kind: 'reference' },
  ];
  inBatches(
    items,
    (item): BatchEntry => {
      if (item.kind === 'reference') return { label: 'reference', hooks: {} };
      if (item.kind === 'stated') return { label: `stated-${item.mutant.name}`, hooks: item.mutant.hooks, kitProfile: item.mutant.kitProfile };
      return {
        label: `${item.label}-${item.mutant.name}`,
        hooks: item.mutant.hooks,
        server: { profile: profileFromOverride(item.variant.profile, item.variant.name) },
        kitProfile: item.variant.profile,
      };
    },
    (item, runOf) => {
      if (item.kind === 'reference') return referenceTest(runOf);
      if (item.kind === 'stated') return mutantTest(item.mutant, async () => ranWith(`${item.mutant.kitProfile!.name}`, await runOf()));
      const { mutant, variant, under } = item;
      return mutantTest(mutant, async () => ranWith(variant.name, await runOf()), under);
    },
  );
});
