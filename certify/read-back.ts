/**
 * The read-back of `agc certify` (certify/durability.ts says what and why): after run k, the groups of runs 1..k-1
 * read by Id with the token each was created through, sent by the kit's HTTP client (client/exchange.ts) with a fetched
 * token fetched as a run fetches it (config/tokens.ts), every answer redacted as the suites redact theirs; then judged.
 */
import path from 'node:path';
import { send, type Exchange } from '../client/exchange';
import { redactTokens } from '../client/redact';
import { loadConfig, TOKEN_VARIABLES } from '../config';
import { startTokens } from '../config/tokens';
import { errorKinds, profileAt } from '../schemas';
import { SPEC_VERSION } from '../schemas/spec';
import { CreatedError, readCreated } from '../facts/created';
import { judgeReadBack, planReadBack, readBackVerdict, type DurabilityFinding, type EarlierGroup, type NotAssessed, type ReadBackRecord } from './durability';

export interface ReadBack {
  record: ReadBackRecord;
  findings: DurabilityFinding[];
  notAssessed: NotAssessed[];
}

/**
 * Reads back, after run `afterRun`, the groups the earlier runs left in `reportDir/run-N/created.json`, against the
 * target of `env` (the certification's run environment; copied, so a fetched token's broker stays out of the runs').
 */
export async function readBack(env: NodeJS.ProcessEnv, reportDir: string, afterRun: number): Promise<ReadBack> {
  const notAssessed: NotAssessed[] = [];
  const earlier: EarlierGroup[] = [];
  for (let run = 1; run < afterRun; run++) {
    try {
      earlier.push(...readCreated(path.join(reportDir, `run-${run}`)).groups.map((g) => ({ ...g, run })));
    } catch (error) {
      // A run whose create-and-wait phase failed left no record: its own report says why.
      if (!(error instanceof CreatedError)) throw error;
    }
  }
  const ownEnv = { ...env };
  const { config, close } = await startTokens(loadConfig(ownEnv), TOKEN_VARIABLES, ownEnv);
  const { profile, validate } = profileAt(config.profilePath);
  const { reads, left } = planReadBack(profile, earlier);
  const answers: ((typeof reads)[number] & { exchange: Exchange })[] = [];
  try {
    for (const read of reads) {
      const token = config.tokens[read.via];
      if (!token || !config.baseURL) {
        notAssessed.push({ afterRun, reason: `no ${TOKEN_VARIABLES[read.via]} to read with`, groups: read.groups.map((g) => `run-${g.run} ${g.key} ${g.id}`) });
        continue;
      }
      const exchange = await send(config.baseURL, {
        action: 'ListAssetGroups',
        version: SPEC_VERSION,
        body: JSON.stringify(read.body),
        authorization: `Bearer ${token}`,
        authorizationShown: `Bearer <${TOKEN_VARIABLES[read.via]}>`,
        timeoutMs: config.requestTimeoutMs,
        networkEnv: ownEnv,
      });
      redactTokens(exchange, Object.values(config.tokens));
      answers.push({ ...read, exchange });
    }
  } finally {
    close();
  }
  const answeredAt = Date.now();
  const judged = judgeReadBack(answers, { profile, validate, errorKinds, successes: [] }, afterRun, answeredAt);
  const read = reads.flatMap((r) => r.groups);
  const oldest = read.length ? Math.min(...read.map((g) => Date.parse(g.createdAt))) : undefined;
  const all = { findings: judged.findings, notAssessed: [...notAssessed, ...judged.notAssessed] };
  return {
    record: {
      afterRun,
      at: new Date(answeredAt).toISOString(),
      createdIn: [...new Set(read.map((g) => g.run))],
      groups: read.length,
      requests: answers.length,
      left,
      oldestAgeSeconds: oldest === undefined ? null : Math.round((answeredAt - oldest) / 1000),
      verdict: readBackVerdict(all.findings, all.notAssessed),
    },
    ...all,
  };
}
