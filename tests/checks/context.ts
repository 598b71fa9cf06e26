/**
 * A real CheckContext for the checks' unit tests, built as suites/fixtures.ts builds a run's: the
 * reference profile (spec/profile.yaml, whatever AG_PROFILE says), its validators, the spec's error
 * table, and the successes the create-and-wait phase would have seen.
 */
import type { Exchange } from '../../client/exchange';
import type { CheckContext } from '../../suites/checks';
import { errorKinds, profileAt } from '../../schemas';
import { profileFromOverride, REFERENCE_PROFILE_PATH } from '../../schemas/profile';

export interface ContextOptions {
  /**
   * Profile settings merged over the reference profile (as an AG_PROFILE file would be), for the
   * settings a check reads from ctx.profile (list.nameMatch, list.pageNumber.pastEnd…). Validation
   * stays the reference profile's: no check whose case uses an override validates against it.
   */
  profile?: Record<string, unknown>;
  successes?: Exchange[];
}

export function context({ profile: override, successes = [] }: ContextOptions = {}): CheckContext {
  // profileAt(undefined) is AG_PROFILE's profile where that is set: the path names the reference one whatever the shell says.
  const reference = profileAt(process.env.AG_PROFILE ? REFERENCE_PROFILE_PATH : undefined);
  const profile = override ? profileFromOverride({ name: 'unit-override', ...override }, 'a unit test override') : reference.profile;
  return { profile, validate: reference.validate, errorKinds, successes };
}
