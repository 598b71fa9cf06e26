/**
 * Records what the declared tests' pure judges (suites/declare.ts `judge`) read: `npx tsx tests/checks/record-runs.ts`
 * starts the reference server, and one at a time the mutants named below, on 127.0.0.1, runs the create-and-wait phase
 * against it as a run does (suites/dataset-setup.ts), then sends every declared test's plans (suites/families/) and writes
 * the dataset and the answers, tokens redacted by the kit's own client, to tests/checks/runs/<session>.json.gz. The judges'
 * unit tests (tests/checks/judges.test.ts) judge those answers with no server and no Playwright run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../config';
import { referenceTokenEnv } from '../../reference/config';
import { findMutant } from '../../reference/mutants';
import { startReferenceServer } from '../../reference/server';
import { loadProfile } from '../../schemas/profile';
import { Api } from '../../suites/api';
import { buildDataset } from '../../suites/dataset-setup';
import { TEST_GROUPS } from '../../suites/families';
import { plannedTogether } from '../../suites/plans';
import { titleOf } from '../../suites/declare';
import { ensureRunDir, removeRunDir } from '../../client/run-dir';

const OUT = path.join(__dirname, 'runs');

/** The run's fixed settings: the judges recompute their plans from these, so the unit tests load the same. */
export const RECORDED_RUN = { AG_RUN_ID: 'judges', AG_SEED: '7', AG_NUM_RUNS: '5', AG_VISIBILITY_TIMEOUT_MS: '3000' };

/** Sessions: the reference server, and mutants each of which a pure judge must fail (tests/checks/judges.test.ts says which). */
export const RUN_SESSIONS = [
  'reference',
  'requestIdHeaderOnly',
  'authEnvelopeWithoutRegion',
  'constantRequestId',
  'textPlainContentType',
  'resultOmittedWhenUnfiltered',
  'gatewayServiceOnAuthErrors',
  'missingAuthorizationIs400',
  'emptyBearerAccepted',
  'unknownTokenAccepted',
  'tokenCaseInsensitive',
  'errorBodyWithResult',
  'badBody422',
  'createdWith201',
  'channelSequenceIds',
  'emptyListBodyRefused',
  'nameFilterLikeWildcards',
  'nameFilterLowercasesStoredOnly',
  'pageOneTooMany',
  'pageSizeClampedTo50',
  'defaultPageSize20',
  'totalCountOfPage',
  'negativeOffsetClamped',
  'createReturnsWholeGroup',
  'badEscapeCrashes',
  'nonObjectBodyAccepted',
  'unknownActionCrashes',
  'anySchemeAccepted',
  'emptyListBodyUnauthenticated',
  'anyVersionAccepted',
  'authWaivedWithoutUserAgent',
  'rateLimitWithoutRetryAfter',
];

async function record(session: string): Promise<void> {
  const mutant = session === 'reference' ? undefined : findMutant(session);
  if (session !== 'reference' && !mutant) throw new Error(`no mutant named ${session}`);
  const server = await startReferenceServer({ port: 0, host: '127.0.0.1', hooks: mutant?.hooks });
  const config = { ...loadConfig({ ...referenceTokenEnv(), ...RECORDED_RUN, AG_BASE_URL: server.url }), baseURL: server.url };
  ensureRunDir(config.runId);
  try {
    const api = new Api(config, (_role, variable) => {
      throw new Error(`${variable} is not configured`);
    });
    const profile = loadProfile();
    const dataset = await buildDataset(config, profile, await api.call('ListAssetGroups', {}));
    const answers: Record<string, unknown[][]> = {};
    for (const t of TEST_GROUPS.flatMap((g) => g.tests)) {
      if (!t.judge || t.run) continue;
      try {
        answers[titleOf(t)] = await Promise.all((t.plans ?? []).map((plan) => plannedTogether(api, plan.requests({ config, profile, dataset }))));
      } catch (error) {
        // A plan that needs what this server did not give (a group it refused): that test is not recorded here.
        console.error(`${session}: ${titleOf(t)} not recorded: its plans need what this server did not give (${(error as Error).message.slice(0, 80)})`);
      }
    }
    mkdirSync(OUT, { recursive: true });
    // Gzipped: a whole run's answers are some 150 kB of JSON each, a tenth of that packed.
    writeFileSync(path.join(OUT, `${session}.json.gz`), gzipSync(`${JSON.stringify({ dataset, answers })}\n`));
    console.log(`${session}: ${Object.keys(answers).length} tests recorded`);
  } finally {
    await server.close();
    removeRunDir(config.runId);
  }
}

if (require.main === module) {
  const [session, ...more] = process.argv.slice(2);
  // One process per session: the client counts its request and create budget per run id (client/budget.ts), and every
  // session is the same recorded run.
  if (session && !more.length) void record(session);
  else
    for (const each of session ? [session, ...more] : RUN_SESSIONS)
      execFileSync(process.execPath, [require.resolve('tsx/cli'), __filename, each], { stdio: 'inherit' });
}
