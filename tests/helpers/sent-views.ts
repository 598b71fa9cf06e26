/**
 * What each requirement's declared plans send, as the catalogue's `sent` matchers read it (tests/sends.test.ts): every
 * planned request of the declared tests of that ID, planned from the run recorded by tests/checks/record-runs.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from '../../config';
import { referenceTokenEnv } from '../../reference/config';
import { loadProfile } from '../../schemas/profile';
import { SPEC_VERSION } from '../../schemas/spec';
import { RawBody } from '../../suites/call';
import type { Dataset } from '../../suites/dataset';
import type { Exchange } from '../../client/exchange';
import { TEST_GROUPS } from '../../suites/families';
import type { PlannedRequest } from '../../suites/plans';
import { RECORDED_RUN } from '../checks/record-runs';

/** A planned request as a matcher sees it: what a server would see of it, with the token shown as its role. */
export interface SentView {
  action: string | null;
  version: string | null;
  /** The Authorization header as evidence shows it (`Bearer <AG_TOKEN>`…), null where none is sent. */
  auth: string | null;
  /** The body parsed; a body that is not JSON is its text under `invalid`. */
  body: unknown;
  /** The body's text where it is not JSON. */
  invalid?: string;
  userAgent: 'kit' | 'none' | 'other';
}

const VARIABLE = { primary: 'AG_TOKEN', otherUser: 'AG_TOKEN_OTHER_USER', channelA: 'AG_TOKEN_CHANNEL_A', channelB: 'AG_TOKEN_CHANNEL_B' } as const;

export function viewOf(planned: PlannedRequest): SentView {
  const { options } = planned;
  const auth = options.authorization ? options.authorization.shown : options.as === null ? null : `Bearer <${VARIABLE[options.as ?? 'primary']}>`;
  const read = planned.body instanceof RawBody ? parsed(planned.body.text) : { body: planned.body };
  return {
    action: planned.action,
    version: options.version === undefined ? SPEC_VERSION : options.version,
    auth,
    ...read,
    userAgent: options.userAgent === undefined ? 'kit' : options.userAgent === null ? 'none' : 'other',
  };
}

const parsed = (text: string): { body: unknown; invalid?: string } => {
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { body: undefined, invalid: text };
  }
};

/** A request the create-and-wait phase sent, as the same view (its token shown as evidence keeps it). */
export function viewOfExchange(exchange: Exchange): SentView {
  const { action, version, headers, body } = exchange.request;
  const agent = headers['user-agent'];
  return { action, version, auth: headers.authorization ?? null, ...parsed(body), userAgent: agent === undefined ? 'none' : 'kit' };
}

/** The requirements whose tests judge the client mistakes the phase provoked besides their plans' requests. */
const JUDGE_PROVOKED = new Set(['AUTH-01', 'INPUT-01', 'INPUT-02']);
/** The requirements whose tests judge the phase's creates: what those carry is what they send. */
const JUDGE_CREATES = new Set(['CREATE-02', 'CREATE-05']);

/** Every requirement's planned requests, from the recorded reference run. */
export function plannedByRequirement(): Map<string, SentView[]> {
  const { dataset } = JSON.parse(gunzipSync(readFileSync(path.join(__dirname, '..', 'checks', 'runs', 'reference.json.gz'))).toString('utf8')) as {
    dataset: Dataset;
  };
  const config = loadConfig({ ...referenceTokenEnv(), ...RECORDED_RUN, AG_BASE_URL: 'http://127.0.0.1:9' });
  const ctx = { config, profile: loadProfile(), dataset };
  const byId = new Map<string, SentView[]>();
  for (const t of TEST_GROUPS.flatMap((g) => g.tests))
    for (const plan of t.plans ?? []) byId.set(t.id, [...(byId.get(t.id) ?? []), ...plan.requests(ctx).map(viewOf)]);
  for (const id of JUDGE_PROVOKED) byId.set(id, [...(byId.get(id) ?? []), ...dataset.shared.provoked.map(viewOfExchange)]);
  for (const id of JUDGE_CREATES) byId.set(id, [...(byId.get(id) ?? []), ...dataset.groups.map((g) => viewOfExchange(g.create))]);
  return byId;
}
