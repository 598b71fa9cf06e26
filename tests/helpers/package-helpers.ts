/** What the package tests share: a clean environment for npm and the kit, a run's output for a failure message, and the paths a package must not hold. */
import { cleanEnv, type Done } from './harness';

/** The environment without the developer's kit variables, plus what the test gives the installed kit. */
export const kitEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...cleanEnv(), ...extra });

export const output = (done: Done) => `exit ${done.status}\n--- stdout\n${done.stdout.slice(-4000)}\n--- stderr\n${done.stderr.slice(-4000)}`;

/** Paths a published kit must not hold: the kit's own tests, bench and examples, what only they read, and local leftovers. */
export const TEST_ONLY =
  /^(tests|bench|examples|\.ci|node_modules|test-results|conformance-report)\/|(^|\/)\.env$|^spec\/single-path\.ts$|^schemas\/cases\.yaml$|^reference\/kill-matrix\.|^reference\/mutants\.expected\.yaml$/;
