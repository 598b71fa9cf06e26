/**
 * The core types of judging, shared by the side that tests (suites/) and the side that records and
 * reports (facts/, reporters/): they live here, in the protocol's own room, so that neither side
 * reaches up into the other for them.
 */
import type { Exchange } from '../client/exchange';
import type { Profile } from '../schemas/profile';
import type { RequirementId } from './requirement-ids';

/**
 * Checks are small named pure functions over one captured exchange: they never send a request.
 * A check's function name is its key in reports and docs. It answers undefined when the exchange
 * satisfies it, or a Failure saying what was received, what the spec or profile documents, and
 * how a server author fixes it.
 *
 * The checks live in one file per family (suites/checks/env.ts, …).
 */
export interface Failure {
  check: string;
  received: string;
  documented: string;
  fix: string;
  /**
   * Set when what was received shows the target follows another profile (a field name, the place
   * of the error kind): the requirement is then not assessable rather than failed, and this says
   * which profile setting probably fits.
   */
  profileMismatch?: string;
  /**
   * Ids of groups the check expected in a list and did not find. A group seen before and missing
   * now may be lost (VIS-02) rather than filtered out: the suite reads it back by Id to tell which.
   */
  missing?: string[];
  /**
   * Set when the request, sent once more before the verdict, was answered so that the check passed: the failure did
   * not repeat (flaky). It fails its requirement all the same, since the deviation happened; this says how the second
   * answer went, so that whoever fixes the server knows it shows only sometimes.
   */
  flaky?: string;
  /** How many answers of the run showed this finding (the run-wide oracle's, suites/oracle.ts); the evidence is the first. */
  answers?: number;
  /** Where the answers were met when no test received them (the create-and-wait phase): the report says so instead of a test's title. */
  place?: string;
}

export interface CheckContext {
  profile: Profile;
  validate: (component: string, data: unknown) => { valid: boolean; errors: string[] };
  /** The spec's error table for an operation: status -> error kind. */
  errorKinds: (operationId: string) => Record<number, string>;
  /** The run's valid requests the create-and-wait phase saw answered (p0's create, the preflight's list); [] before it ran. */
  successes: Exchange[];
}

export type Check = (exchange: Exchange, context: CheckContext) => Failure | undefined;

/** A check over several exchanges together (distinct Ids, pages that partition a result). */
export type MultiCheck = (exchanges: Exchange[], context: CheckContext) => Failure | undefined;

/**
 * A check whose finding belongs to another requirement. A test applies it as a precondition of
 * its own judgement: where it fails, the finding is that requirement's and the test is blocked by
 * it, so one deviation is reported once, by the requirement that owns it.
 */
export interface Owned {
  owner: RequirementId;
  check: Check;
}
export const owned = (owner: RequirementId, check: Check): Owned => ({ owner, check });

/** What a test applies to an exchange: its own checks, and preconditions owned by other requirements. */
export type Step = Check | Owned;

/**
 * Applies a test's steps to an exchange, in order. A failing check of the test's own requirement
 * fails the test with the received, documented and fix lines, its exchange attached as evidence.
 * A failing precondition owned by another requirement is that requirement's finding: it is
 * attached as such and the test is blocked by it. A check that shows the target follows another
 * profile makes the test not assessable, naming the setting that would fit. Returns the answer it judged: the same
 * request sent again once the visibility bound had passed, where the first answer missed groups within it.
 */
export type Verify = (exchange: Exchange, steps: Step[]) => Promise<Exchange>;
/** Applies a check over several exchanges (distinct Ids, a page walk) as the test's own judgement. */
export type Judge = (exchanges: Exchange[], check: MultiCheck) => Promise<void>;

/**
 * What judging one answer (or several together) concluded, before anything is recorded: the routing every test applies
 * alike, as data, so that it is a pure function (suites/judging.ts judgeSteps) with unit tests of its own, and one
 * adapter (settle) turns it into what Playwright and the reports see.
 * - pass: every step held;
 * - fail: a check of the test's own requirement failed;
 * - blocked: a precondition another requirement owns failed: that requirement's finding, and the test is blocked by it;
 * - mismatch: the answer shows the target follows another profile: not assessable, naming the setting that fits.
 */
export type Judgement =
  | { kind: 'pass'; checked: string[] }
  /** `check`: what a resent request is judged by again (a single answer's own check; judgedAgain). */
  | { kind: 'fail'; checked: string[]; failure: Failure; check?: Check }
  | { kind: 'blocked'; checked: string[]; failure: Failure; owner: RequirementId }
  | { kind: 'mismatch'; checked: string[]; failure: Failure };
