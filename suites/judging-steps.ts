/** How a test's steps judge an answer, pure: the first step that fails decides, and whose it is routes the failure. */
import type { Exchange } from '../client/exchange';
import type { Judgement } from '../facts/judgement';
import type { RequirementId } from '../facts/requirement-ids';
import type { CheckContext, MultiCheck, Step } from './checks';

/**
 * Judges one answer by a test's steps, in order, as every test does: the first that fails decides, and which way is the
 * routing of a failure, pure. `checked` names the test's own checks applied, up to the one that failed.
 */
export function judgeSteps(exchange: Exchange, steps: Step[], own: RequirementId | undefined, context: CheckContext): Judgement {
  const checked: string[] = [];
  for (const step of steps) {
    const { owner, check } = typeof step === 'function' ? { owner: own, check: step } : step;
    if (owner === own) checked.push(check.name);
    const failure = check(exchange, context);
    if (!failure) continue;
    if (failure.profileMismatch) return { kind: 'mismatch', checked, failure };
    if (owner !== own && owner !== undefined) return { kind: 'blocked', checked, failure, owner };
    return { kind: 'fail', checked, failure, check };
  }
  return { kind: 'pass', checked };
}

/** Judges several answers together by one check of the test's own (distinct Ids, pages that partition a result). */
export function judgeTogether(exchanges: Exchange[], check: MultiCheck, context: CheckContext): Judgement {
  const failure = check(exchanges, context);
  if (!failure) return { kind: 'pass', checked: [check.name] };
  return failure.profileMismatch ? { kind: 'mismatch', checked: [check.name], failure } : { kind: 'fail', checked: [check.name], failure };
}
