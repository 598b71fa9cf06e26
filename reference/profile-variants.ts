/**
 * Profile variants: the reference server serving ONE other legitimate choice each, on a point the
 * spec leaves "not shown". A variant is a profile override, merged over
 * spec/profile.yaml exactly as a target's AG_PROFILE file would be, plus, rarely, hooks for a
 * choice the profile cannot express (refusing unknown list fields).
 *
 * They exist to prove two things: that `agc profile discover` finds each choice from the target's
 * answers alone (tests/matrices/discover.test.ts), and that the kit, given the discovered profile, rates
 * such a server `conformant`. Serve one with
 *
 *   startReferenceServer({ profile: profileFromOverride(v.profile, v.name), hooks: v.hooks })
 *
 * Each override states its `$defs` in full, written out with the variant rather than derived from the settings,
 * so that a mistake in the kit's consistency check or in the discovery's own $defs builder cannot
 * hide behind the same mistake made here.
 *
 * Each is written with the part of the profile it changes: reference/profile-variants/list.ts,
 * create.ts and answers.ts; what they share is in reference/profile-variants/helpers.ts.
 */
import { EXACT_NAME, FIELD_NAMES, NAME_MATCHING, PAGING } from './profile-variants/list';
import { LENGTH_BOUNDS, LENGTH_UNITS, OPTIONAL_NAME } from './profile-variants/create';
import { PYTHON_TIMESTAMPS, TOP_LEVEL_ERROR } from './profile-variants/answers';
import type { ProfileVariant } from './profile-variants/helpers';

export type { ProfileVariant } from './profile-variants/helpers';

/**
 * Every profile variant, in the order they were added, which `--list-variants` and the self-tests'
 * batches follow. A new one goes at the end.
 */
export const PROFILE_VARIANTS: readonly ProfileVariant[] = [
  ...FIELD_NAMES,
  TOP_LEVEL_ERROR,
  EXACT_NAME,
  ...LENGTH_BOUNDS,
  ...PAGING,
  ...NAME_MATCHING,
  ...LENGTH_UNITS,
  OPTIONAL_NAME,
  PYTHON_TIMESTAMPS,
];

export function findProfileVariant(name: string): ProfileVariant | undefined {
  return PROFILE_VARIANTS.find((v) => v.name === name);
}
