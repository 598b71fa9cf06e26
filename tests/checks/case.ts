/**
 * A check's unit test is a row of a table: the check (built, where it is a factory), what it judges
 * (one exchange, or several for a MultiCheck), the context, and whether it must fail. Each family's
 * table is tests/checks/cases/<family>.ts; tests/checks/<family>.test.ts runs it, one Playwright
 * test per row titled by the check's name, and tests/checks/coverage.test.ts proves every check has
 * a row that fails and a row that passes.
 */
import { expect, test } from '@playwright/test';
import type { Exchange } from '../../client/exchange';
import type { Check, Failure, MultiCheck, Owned, Step } from '../../suites/checks';
import { context, type ContextOptions } from './context';

/** What a row applies: a check, a MultiCheck, a precondition (Owned), or the steps a test applies in order. */
export type Judge = Check | MultiCheck | Step | Step[];

export interface Case {
  /** The name of the export of suites/checks/<family>.ts or preconditions.ts the row exercises. */
  check: string;
  /** What the row shows, after the check's name in the test's title. */
  title: string;
  judge: Judge;
  exchange?: Exchange;
  /** For a MultiCheck: the exchanges it judges together. */
  exchanges?: Exchange[];
  context?: ContextOptions;
  fails: boolean;
  /** A substring (or pattern) of what the failure received, documented or names as a profile mismatch. */
  expect?: string | RegExp;
  /** Whether the failure names a profile mismatch; unset: not judged. */
  mismatch?: boolean;
  /** For steps: the requirement whose step the failure is; given as undefined, a step of the asking test's own. Unset: not judged. */
  owner?: string;
}

export interface Verdict {
  failure?: Failure;
  /** The owner of the step that failed, where the judge was one or more steps. */
  owner?: string;
}

const isOwned = (judge: Judge): judge is Owned => typeof judge === 'object' && !Array.isArray(judge);

/** Applies a row's judge as the suites do: a test's steps in order, the first failure being the finding. */
export function verdictOf(row: Case): Verdict {
  const ctx = context(row.context);
  if (row.exchanges) return { failure: (row.judge as MultiCheck)(row.exchanges, ctx) };
  if (!row.exchange) throw new Error(`the row "${row.check}: ${row.title}" judges no exchange`);
  const steps = Array.isArray(row.judge) ? row.judge : isOwned(row.judge) ? [row.judge] : undefined;
  if (!steps) return { failure: (row.judge as Check)(row.exchange, ctx) };
  for (const step of steps) {
    const failure = typeof step === 'function' ? step(row.exchange, ctx) : step.check(row.exchange, ctx);
    if (failure) return { failure, owner: typeof step === 'function' ? undefined : step.owner };
  }
  return {};
}

/** One Playwright test per row, titled "<check>: <what the row shows>", so that a failure names the check. */
export function caseTests(family: string, rows: readonly Case[]): void {
  test.describe(`checks ${family}`, () => {
    for (const row of rows) {
      test(`${row.check}: ${row.title}`, () => {
        const { failure, owner } = verdictOf(row);
        if (!row.fails) {
          expect(failure, `expected ${row.check} to pass, it failed: ${JSON.stringify(failure)}`).toBeUndefined();
          return;
        }
        expect(failure, `expected ${row.check} to fail, it passed`).toBeDefined();
        const text = [failure!.received, failure!.documented, failure!.profileMismatch ?? ''].join('\n');
        if (typeof row.expect === 'string') expect(text).toContain(row.expect);
        else if (row.expect) expect(text).toMatch(row.expect);
        if (row.mismatch !== undefined) expect(failure!.profileMismatch !== undefined, `profileMismatch: ${failure!.profileMismatch}`).toBe(row.mismatch);
        // A family's own check reports itself by its name (reports key checks by it); a step's may be another requirement's check.
        if (!Array.isArray(row.judge) && !isOwned(row.judge)) expect(failure!.check).toMatch(new RegExp(`^${row.check}(\\(|$)`));
        if ('owner' in row) expect(owner, `the owner of ${failure!.check}'s failure`).toBe(row.owner);
      });
    }
  });
}
