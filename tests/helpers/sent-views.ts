/**
 * What each requirement's declared plans send, as the catalogue's `sent` matchers read it (tests/sends.test.ts): every
 * planned request of the declared tests of that ID, planned from the run recorded by tests/checks/record-runs.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from '../../config';
import { referenceTokenEnv } from '../../reference/config';
import { loadProfile, readPointer } from '../../schemas/profile';
import type { SentMatcher } from '../../schemas/requirements';
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

/** The JSON type of a value as a matcher names it. */
const typeOf = (value: unknown, invalid?: string): string =>
  invalid !== undefined ? 'invalid' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** A number given as such, or read from the profile at a dotted path (create.maxLength.Name). */
const bound = (given: number | string): number =>
  typeof given === 'number' ? given : (given.split('.').reduce<any>((at, key) => at?.[key], loadProfile()) as number);

/** Every string of a JSON value, keys included. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, v]) => [key, ...stringsOf(v)])
        : [];

export function matches(m: SentMatcher, v: SentView): boolean {
  if (m.op !== undefined && v.action !== m.op) return false;
  if (m.version !== undefined && v.version !== m.version) return false;
  if (m.auth !== undefined && v.auth !== m.auth) return false;
  if (m.body !== undefined && JSON.stringify(v.body) !== JSON.stringify(m.body)) return false;
  if (m.absent?.some((pointer) => readPointer(v.body, pointer) !== undefined)) return false;
  if (m.anywhere !== undefined && !stringsOf(v.body).some((text) => text.includes(m.anywhere!))) return false;
  if (m.pattern !== undefined && !stringsOf(v.body).some((text) => new RegExp(m.pattern!, 'u').test(text))) return false;
  if (m.at === undefined) return m.type === undefined || typeOf(v.body, v.invalid) === m.type;
  const at = v.invalid === undefined ? readPointer(v.body, m.at) : undefined;
  if (at === undefined) return false;
  if (m.type !== undefined && typeOf(at) !== m.type) return false;
  if (m.value !== undefined && JSON.stringify(at) !== JSON.stringify(m.value)) return false;
  if (m.includes !== undefined && !(typeof at === 'string' && at.includes(m.includes))) return false;
  if (m.above !== undefined && !(typeof at === 'number' && at > bound(m.above))) return false;
  if (m.longerThan !== undefined && !(typeof at === 'string' && [...at].length > bound(m.longerThan))) return false;
  if (m.length !== undefined && !(typeof at === 'string' && [...at].length === bound(m.length))) return false;
  return true;
}

/** A request as a server received it, as the same view: the Action and Version from its URL, each configured token shown as its variable. */
export function viewOfWire(
  wire: { url: string; authorization: string | null; userAgent: string | null; body: string },
  tokens: Record<string, string>,
): SentView {
  const query = new URL(wire.url, 'http://target').searchParams;
  let auth = wire.authorization;
  // Longest first: no token's value is then shown inside another's.
  for (const [variable, value] of Object.entries(tokens).sort(([, a], [, b]) => b.length - a.length))
    if (auth !== null && value) auth = auth.split(value).join(`<${variable}>`);
  const agent = wire.userAgent === null ? 'none' : wire.userAgent.startsWith('asset-group-conformance-kit/') ? 'kit' : 'other';
  return { action: query.get('Action'), version: query.get('Version'), auth, ...parsed(wire.body), userAgent: agent };
}
