/**
 * A server that made other legitimate choices (reference/profile-variants.ts), run without its
 * profile: the kit must not call it non-conformant. Where its answers show it follows another
 * profile, the requirements that depend on that choice are not assessable, with the setting that
 * fits, and no MUST fails. (With the profile that `agc profile discover` drafts, the same servers
 * are conformant: tests/discover.test.ts.) A variant the reference profile already admits
 * (`admittedWithoutProfile`, e.g. another length unit where the profile states none) is conformant
 * without its profile, with no mismatch named.
 */
import { test, expect } from '@playwright/test';
import { PROFILE_VARIANTS } from '../reference/profile-variants';
import { profileFromOverride } from '../schemas/profile';
import { expectComplete, mustFindings, runSuites } from './suite-run';

test.describe('profile variants without their profile', () => {
  test.setTimeout(180_000);
  for (const variant of PROFILE_VARIANTS) {
    const outcome = variant.admittedWithoutProfile ? 'and is conformant (the reference profile admits it)' : 'and the mismatch is named';
    test(`${variant.name} (${variant.description}) is not failed, ${outcome}`, async () => {
      const run = await runSuites(`p-${variant.name}`, variant.hooks ?? {}, { profile: profileFromOverride(variant.profile, variant.name) });
      expectComplete(run);
      const mismatches = run.tests.filter((t) => t.profileMismatch).map((t) => `${t.requirement}: ${t.profileMismatch}`);
      test.info().annotations.push({ type: 'mismatches', description: mismatches.join('\n') });
      expect(
        mustFindings(run),
        `${variant.name} made a choice the spec leaves open; without its profile the kit may not assess it, but must not fail it`,
      ).toEqual({ failed: [], attributed: [] });
      if (variant.admittedWithoutProfile) {
        // The reference profile admits this choice: nothing to name, and nothing left unassessed.
        expect(mismatches, `${variant.name}: ${variant.admittedWithoutProfile}`).toEqual([]);
        expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('conformant');
        return;
      }
      expect(mismatches.length, 'the run names the profile mismatch').toBeGreaterThan(0);
      expect(run.verdict, 'the verdict of conformance.json').toBe('incomplete');
      expect(run.firstReason).toMatch(/seems to follow another profile[\s\S]*AG_PROFILE[\s\S]*agc profile discover/);
    });
    test(`${variant.name} with its own profile (AG_PROFILE) is rated conformant, with no warning`, async () => {
      const run = await runSuites(
        `o-${variant.name}`,
        variant.hooks ?? {},
        { profile: profileFromOverride(variant.profile, variant.name) },
        { kitProfile: variant.profile },
      );
      expectComplete(run);
      const failed = run.tests.filter((t) => t.status === 'unexpected').map((t) => `${t.requirement}: ${t.error}`);
      const notJudged = run.tests
        .filter((t) => t.profileMismatch || t.blockedBy.length)
        .map((t) => `${t.requirement}: ${t.profileMismatch ?? t.blockedBy.join(', ')}`);
      expect({ failed, notJudged }, `${variant.name} judged by its own profile`).toEqual({ failed: [], notJudged: [] });
      expect(run.verdict, `the verdict of conformance.json (first reason: ${run.firstReason})`).toBe('conformant');
    });
  }
});
