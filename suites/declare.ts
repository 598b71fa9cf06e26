/**
 * A conformance test as a declared object (suites/families/<family>.ts): the requirement it judges, the plans of its
 * requests that need no earlier answer, what it sends itself once answers decide it (`run`), and `judge`, pure, which
 * names the checks that judge each answer. The runner sends ahead by iterating the same objects (declaredPlans), and one
 * adapter (`declared`) makes each a Playwright test: a spec file is a thin loop over its family's tests.
 */
import type { TestDetails, TestInfo } from '@playwright/test';
import type { Exchange } from '../client/exchange';
import type { KitConfig } from '../config';
import type { Judge, Judgement, Verify } from '../facts/judgement';
import type { RequirementId } from '../facts/requirement-ids';
import { requirement } from '../facts/record';
import type { Profile } from '../schemas/profile';
import { loadCatalogue } from '../schemas/requirements';
import type { Api } from './api';
import type { CheckContext, MultiCheck, Step } from './checks';
import type { Dataset } from './dataset';
import type { Kit } from './fixtures';
import { judgeSteps, judgeTogether } from './judging-steps';
import type { Plans } from './plan-answers';
import type { DeclaredPlan } from './plans/plan';
import { test } from '@playwright/test';

/** One answer judged by steps in order (what `verify` does), optionally inside a named step of the report. */
export interface JudgedAnswer {
  answer: Exchange;
  steps: Step[];
  step?: string;
}
/** Several answers judged together by one check (what `judge` does). */
export interface JudgedTogether {
  answers: Exchange[];
  together: MultiCheck;
}
export type Verdict = JudgedAnswer | JudgedTogether;

/** What a judge may read besides the answers: all of it fixed before the test sends anything. */
export interface JudgeContext {
  config: KitConfig;
  profile: Profile;
  dataset: Dataset;
}

/** What a test's `run` may use: the fixtures of suites/fixtures.ts. */
export interface TestTools {
  api: Api;
  plan: Plans;
  dataset: Dataset;
  verify: Verify;
  judge: Judge;
  profile: Profile;
  kit: Kit;
  testInfo: TestInfo;
}

export interface DeclaredTest<R = undefined> {
  id: RequirementId;
  /** After the catalogue's title, where one requirement has several tests: " (…)". */
  aside?: string;
  /** The plans whose requests the runner may send ahead; their answers are `judge`'s first argument, in this order. */
  plans?: readonly DeclaredPlan[];
  /** Whether the test reads the run's groups (the dataset fixture, which skips where the phase was rate-limited). */
  groups?: false;
  /** What must hold of the run before anything is judged (pagingAssessable, filterAssessable): skips or blocks the test. */
  needs?: (ctx: JudgeContext) => void;
  /** What the test sends once earlier answers decide it, or judges as it goes (a walk, a model run, a property). */
  run?: (t: TestTools, answers: Exchange[][]) => Promise<R>;
  /** Pure: which checks judge which answers, in the order they are judged; the first that fails ends the test. */
  judge?: (answers: Exchange[][], ctx: JudgeContext, ran: R) => Verdict[];
}

/** A family's tests, under the describe each group's report heading names. */
export interface TestGroup {
  describe: string;
  // Each test's own result type is checked where the test is declared (declareTest).
  tests: readonly DeclaredTest<any>[];
}

export const declareTest = <R = undefined>(t: DeclaredTest<R>): DeclaredTest<R> => t;

/** The test's title: its ID and its catalogue entry's title, then its aside. */
export function titleOf(t: Pick<DeclaredTest, 'id' | 'aside'>): string {
  const entry = loadCatalogue().requirements.find((r) => r.id === t.id);
  if (!entry) throw new Error(`the kit's own mistake: ${t.id} is not in the catalogue`);
  return `${t.id} ${entry.title}${t.aside ? ` ${t.aside}` : ''}`;
}

/** Every plan the declared tests name: what the runner may send ahead, by key. */
export function plansOfTests(groups: readonly TestGroup[]): DeclaredPlan[] {
  return groups.flatMap((g) => g.tests.flatMap((t) => t.plans ?? []));
}

/** The judgements a declared test's verdicts come to, pure: for its own unit tests from recorded exchanges. */
export function judgementsOf(verdicts: Verdict[], own: RequirementId, context: CheckContext): Judgement[] {
  return verdicts.map((v) => ('together' in v ? judgeTogether(v.answers, v.together, context) : judgeSteps(v.answer, v.steps, own, context)));
}

type Body = (fixtures: Omit<TestTools, 'testInfo' | 'dataset'> & { dataset?: Dataset }, testInfo: TestInfo) => Promise<void>;

async function perform(t: DeclaredTest<unknown>, tools: TestTools): Promise<void> {
  const ctx: JudgeContext = {
    config: tools.kit.config,
    profile: tools.profile,
    get dataset() {
      return tools.dataset;
    },
  };
  t.needs?.(ctx);
  const answers = t.judge ? await Promise.all((t.plans ?? []).map((p) => tools.plan.answers(p))) : [];
  const ran = t.run ? await t.run(tools, answers) : undefined;
  for (const verdict of t.judge?.(answers, ctx, ran) ?? []) {
    const apply = () => ('together' in verdict ? tools.judge(verdict.answers, verdict.together) : tools.verify(verdict.answer, verdict.steps));
    if ('step' in verdict && verdict.step) await test.step(verdict.step, async () => void (await apply()));
    else await apply();
  }
}

/**
 * A declared test as Playwright's arguments: `test(...declared(t))`, called in the family's spec file, which stays the
 * test's location. Playwright reads a test's fixtures from its function's parameter list: a test that reads no group
 * leaves the dataset fixture out.
 */
export function declared(t: DeclaredTest<any>): [string, TestDetails, Body] {
  const details = requirement(t.id, ...(t.plans ?? []));
  const body: Body =
    t.groups === false
      ? async ({ api, plan, verify, judge, profile, kit }, testInfo) =>
          perform(t, {
            api,
            plan,
            verify,
            judge,
            profile,
            kit,
            testInfo,
            // Declared as reading no group: one that does is the kit's own mistake, said as such rather than an undefined.
            get dataset(): Dataset {
              throw new Error(`the kit's own mistake: ${t.id} is declared with groups: false and reads the run's groups`);
            },
          })
      : async ({ api, plan, dataset, verify, judge, profile, kit }, testInfo) =>
          perform(t, { api, plan, dataset: dataset!, verify, judge, profile, kit, testInfo });
  return [titleOf(t), details, body];
}
