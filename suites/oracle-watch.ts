/**
 * Where the run-wide oracle (suites/oracle.ts) meets the run: each test's client hands it every answer the test
 * receives (sent, or taken from the runner or another test), and the test records what it found when it ends, as
 * findings of the requirements that own them. The answers of the create-and-wait phase (its creates, the preflight,
 * the errors it provoked, the last polls) are judged once per run, by the first test to end.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../client/exchange';
import { runFile } from '../client/run-dir';
import { ANNOTATION, ATTACHMENT, ownRequirement, recordFinding } from '../facts/record';
import type { CheckContext } from './checks';
import type { Api } from './api';
import { roleOf } from './call';
import { datasetFile, loadDataset, type Dataset } from './dataset';
import { createdGroupOf, Findings, judgeAnswer, type CreatedGroup, type OracleContext } from './oracle';

const PHASE = 'the create-and-wait phase';

/** The groups the phase created, as the model starts. */
function phaseCreated(dataset: Dataset | undefined): Map<string, CreatedGroup | null> {
  const created = new Map<string, CreatedGroup | null>();
  for (const group of dataset?.groups ?? []) {
    const found = createdGroupOf(group.create, group.via);
    if (found) addCreated(created, found);
  }
  return created;
}

/** An Id answered to two creates names no one group (CREATE-03's finding): the model judges neither by it. */
function addCreated(created: Map<string, CreatedGroup | null>, group: CreatedGroup): void {
  created.set(group.id, created.has(group.id) ? null : group);
}

/** The phase's answers the dataset keeps. */
const phaseAnswers = (dataset: Dataset): Exchange[] => [
  dataset.shared.emptyList,
  ...dataset.groups.map((g) => g.create),
  ...dataset.shared.provoked,
  ...Object.values(dataset.lastPolls).filter((ex): ex is Exchange => !!ex),
];

/** Whether this process is the first of the run to claim the phase's answers (a file created exclusively in the run's folder). */
function claimPhase(runId: string): boolean {
  try {
    closeSync(openSync(runFile(runId, 'oraclePhase'), 'wx', 0o600));
    return true;
  } catch {
    return false;
  }
}

/** Hands every answer of this test's client to the oracle; returns what records the findings once the test has ended. */
export function watchAnswers(api: Api, runId: string, context: CheckContext): (testInfo: TestInfo) => void {
  const dataset = existsSync(datasetFile(runId)) ? loadDataset(runId) : undefined;
  // The context's successes are read once a check needs them (kit.context's getter): not spread, which would read them now.
  const ctx: OracleContext = {
    profile: context.profile,
    validate: context.validate,
    errorKinds: context.errorKinds,
    get successes() {
      return context.successes;
    },
    created: phaseCreated(dataset),
    mismatch: dataset,
  };
  const findings = new Findings();
  api.observe = (exchange) => {
    const created = createdGroupOf(exchange, roleOf(exchange));
    if (created) addCreated(ctx.created as Map<string, CreatedGroup | null>, created);
    findings.add(exchange, judgeAnswer(exchange, ctx));
  };
  return (testInfo) => {
    // The phase's answers are the phase's findings, wherever they are recorded.
    if (dataset && claimPhase(runId)) {
      const phase = new Findings();
      for (const exchange of phaseAnswers(dataset)) phase.add(exchange, judgeAnswer(exchange, ctx));
      for (const { finding, exchange, count } of phase.distinct())
        recordFinding(testInfo, { requirement: finding.requirement, failure: { ...finding.failure, answers: count, place: PHASE }, exchange });
    }
    const own = ownRequirement(testInfo);
    // What the test itself found and recorded already (its own failure, a precondition's finding) is not found twice.
    const recorded = new Set(
      testInfo.attachments
        .filter((a) => a.name === ATTACHMENT.finding && a.body)
        .map((a) => {
          const { requirement, failure } = JSON.parse(a.body!.toString('utf8')) as { requirement: string; failure: { check: string } };
          return `${requirement} ${failure.check}`;
        }),
    );
    const failedOwn = testInfo.status === 'failed' || testInfo.annotations.some((a) => a.type === ANNOTATION.blocked);
    for (const { finding, exchange, count } of findings.distinct()) {
      if (recorded.has(`${finding.requirement} ${finding.failure.check}`)) continue;
      if (failedOwn && finding.requirement === own) continue;
      recordFinding(testInfo, { requirement: finding.requirement, failure: { ...finding.failure, answers: count }, exchange });
    }
  };
}
