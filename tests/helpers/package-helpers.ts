/** What the package tests share: a clean environment for npm and the kit, a run's output for a failure message, and the paths a package must not hold. */
import { cleanEnv, type Done } from './harness';

/** The environment without the developer's kit variables, plus what the test gives the installed kit. */
export const kitEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  // The installed kit keeps its transform cache where a user's would (its TMPDIR), not in the one the self-test shares
  // with its children (tests/helpers/temp-root.ts): its files, at a new path each run, would pile up there.
  const { PWTEST_CACHE_DIR: _shared, ...env } = cleanEnv();
  return { ...env, ...extra };
};

export const output = (done: Done) => `exit ${done.status}\n--- stdout\n${done.stdout.slice(-4000)}\n--- stderr\n${done.stderr.slice(-4000)}`;

/** Paths a published kit must not hold: the kit's own tests, bench and examples, what only they read, and local leftovers. */
export const TEST_ONLY =
  /^(tests|bench|examples|\.ci|node_modules|test-results|conformance-report)\/|(^|\/)\.env$|^spec\/single-path\.ts$|^schemas\/cases\.yaml$|^reference\/kill-matrix\.|^reference\/mutants\.expected\.yaml$/;
