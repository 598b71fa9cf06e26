/**
 * Which of a report's named checks `agc replay` can apply again, from the report alone. A check is a
 * pure function of one exchange and the profile (suites/checks/kit.ts): those are re-applied by their
 * name. A check built by a factory from the run's own data (`listsExactly(ids)`: the run's groups), one
 * over several exchanges together (a page walk), or one that reads the run's other answers
 * (envelopeLikeSuccess) cannot be: its finding is "not re-judgeable", never a guess.
 */
import * as checks from '../suites/checks';
import type { Check } from '../suites/checks';

/** Checks of one exchange and the profile alone, by the name a failure reports. */
const PLAIN: Record<string, Check> = {
  answeredWithJson: checks.answeredWithJson,
  jsonContentType: checks.jsonContentType,
  envelopePresent: checks.envelopePresent,
  requestIdNonEmpty: checks.requestIdNonEmpty,
  resultPresent: checks.resultPresent,
  status200: checks.status200,
  echoesVersion: checks.echoesVersion,
  echoesAction: checks.echoesAction,
  tokenAccepted: checks.tokenAccepted,
  errorKindReadable: checks.errorKindReadable,
  errorBodyShape: checks.errorBodyShape,
  errorNotAsSuccess: checks.errorNotAsSuccess,
  errorKindFitsStatus: checks.errorKindFitsStatus,
  documentedStatus: checks.documentedStatus,
  createdWithId: checks.createdWithId,
  refusedOrEmpty: checks.refusedOrEmpty,
  countOfWholePage: checks.countOfWholePage,
  resultOnlyId: checks.resultOnlyId,
  listShape: checks.listShape,
  timestampsUtc: checks.timestampsUtc,
  timestampsInProfileFormat: checks.timestampsInProfileFormat,
  updateNotBeforeCreate: checks.updateNotBeforeCreate,
  clientError: checks.clientError,
  noServerError: checks.noServerError,
  retryAfterHeader: checks.retryAfterHeader,
};

/** Factories whose whole argument is in the check's reported name, `statusIs(400)`, `validates(ListResult)`. */
const FROM_NAME: [RegExp, (arg: string) => Check][] = [
  [/^statusIs\((\d{3})\)$/, (status) => checks.statusIs(Number(status))],
  [/^validates\(([A-Za-z][\w.]*)\)$/, (component) => checks.validates(component)],
];

/** Checks of several exchanges together: the report keeps the first exchange only. */
const MULTI = new Set(['distinctRequestIds', 'sameService', 'distinctCreatedIds', 'nameMatch', 'pagesPartition', 'visibleInTime']);

/** The check a failure names, or why it cannot be applied again from the report. */
export function checkNamed(name: string): { check: Check } | { why: string } {
  if (Object.hasOwn(PLAIN, name)) return { check: PLAIN[name] };
  for (const [pattern, build] of FROM_NAME) {
    const m = pattern.exec(name);
    if (m) return { check: build(m[1]) };
  }
  const base = name.replace(/\(.*$/s, '');
  if (base === 'envelopeLikeSuccess')
    return { why: "envelopeLikeSuccess judges an error's envelope beside the run's successful answers, which the report does not keep" };
  if (MULTI.has(base)) return { why: `${base} judges several exchanges together, and the report keeps one` };
  if (base in checks) return { why: `${base} is built from the run's own data (its groups, pages or clock), which the report does not keep` };
  return { why: `no check of this kit is named ${name}` };
}

/** The names `checkNamed` re-applies: for the docs and the tests. */
export const REJUDGEABLE = [...Object.keys(PLAIN), 'statusIs(<status>)', 'validates(<component>)'];
