/** AUTH's planned requests: the forms of Authorization a target must refuse, each on each operation. */
import { OPERATIONS } from '../../schemas/spec';
import { createHash } from 'node:crypto';
import { flipCase } from '../../client/redact';
import type { KitConfig } from '../../config';
import type { OperationId } from '../checks';
import { type CallOptions } from '../api';
import { type PlannedRequest, planName } from './plan';

// ---------------------------------------------------------------- AUTH

type Authorization = { value: string; shown: string };

/** An otherwise valid body for each operation, so that authentication is what answers. */
function validBody(config: KitConfig, operation: OperationId, ...label: unknown[]): Record<string, unknown> {
  return operation === 'CreateAssetGroup'
    ? { Name: planName(config, 'auth', ...label), Title: 'Auth probe', Description: 'Must be refused', GroupType: 'AIGC', ProjectName: 'default' }
    : {};
}

/** A request the target must refuse; a create goes through createRefused, so a proxy's 429 before authentication is waited out, not judged. */
export function refusedRequest(config: KitConfig, op: OperationId, options: CallOptions, ...label: unknown[]): PlannedRequest {
  return { action: op, body: validBody(config, op, ...label), options, ...(op === 'CreateAssetGroup' ? { via: 'refused' as const } : {}) };
}

/**
 * A token the target never issued, the same for the whole run: AUTH-04 sends it, and AUTH-02, AUTH-03
 * and both AUTH-06 tests send the same list with it, so that one answer tells whether the target takes
 * any token at all, and how it refuses one it did not issue.
 */
const unknownToken = (runId: string) => `agc-unknown-${createHash('sha256').update(`agc unknown token ${runId}`).digest('hex').slice(0, 32)}`;
const unknownForm = (runId: string): Authorization => ({ value: `Bearer ${unknownToken(runId)}`, shown: 'Bearer <a random token the target never issued>' });
const unknownList = (config: KitConfig): PlannedRequest => ({ action: 'ListAssetGroups', body: {}, options: { authorization: unknownForm(config.runId) } });

/** The run's unknown token on the list, then each Authorization form on each operation. */
export function refusedForms(config: KitConfig, forms: Authorization[], operations = OPERATIONS): PlannedRequest[] {
  return [
    unknownList(config),
    ...operations.flatMap((op) => forms.map((authorization) => refusedRequest(config, op, { authorization }, authorization.shown, op))),
  ];
}

export const bearerWithoutToken = (config: KitConfig): PlannedRequest[] =>
  refusedForms(
    config,
    ['Bearer ', 'Bearer'].map((value) => ({ value, shown: JSON.stringify(value) })),
  );

export function otherSchemes(config: KitConfig): PlannedRequest[] {
  const token = config.tokens.primary!;
  return refusedForms(config, [
    { value: `Basic ${token}`, shown: 'Basic <AG_TOKEN>' },
    { value: token, shown: '<AG_TOKEN> with no scheme' },
    { value: `Token ${token}`, shown: 'Token <AG_TOKEN>' },
  ]);
}

export const unknownTokenRequests = (config: KitConfig): PlannedRequest[] => [
  refusedRequest(config, 'CreateAssetGroup', { authorization: unknownForm(config.runId) }, 'unknown'),
  unknownList(config),
];

const withoutLast = (token: string): Authorization => ({ value: `Bearer ${token.slice(0, -1)}`, shown: 'Bearer <AG_TOKEN without its last character>' });

/** The run's unknown token, the near misses on the list, and on the create the two commonest slips. */
export function nearMisses(config: KitConfig): PlannedRequest[] {
  const token = config.tokens.primary!;
  const middle = Math.floor(token.length / 2);
  const last = token.at(-1) === 'x' ? 'y' : 'x';
  const forms: Authorization[] = [
    ...(flipCase(token) !== token ? [{ value: `Bearer ${flipCase(token)}`, shown: "Bearer <AG_TOKEN with its letters' case flipped>" }] : []),
    withoutLast(token),
    { value: `Bearer ${token}x`, shown: 'Bearer <AG_TOKEN>x' },
    { value: `Bearer x${token}`, shown: 'Bearer x<AG_TOKEN>' },
    { value: `Bearer ${token.slice(0, -1)}${last}`, shown: 'Bearer <AG_TOKEN with its last character changed>' },
    { value: `Bearer ${token.slice(0, middle)} ${token.slice(middle)}`, shown: 'Bearer <AG_TOKEN with a space in the middle>' },
    { value: `Bearer ${token} ${token}`, shown: 'Bearer <AG_TOKEN> <AG_TOKEN>' },
    ...(config.tokens.otherUser ? [{ value: `Bearer ${config.tokens.otherUser}-${token}`, shown: 'Bearer <AG_TOKEN_OTHER_USER>-<AG_TOKEN>' }] : []),
  ];
  const creates = forms.filter((f) => /without its last|>x$/.test(f.shown));
  return [
    unknownList(config),
    ...forms.map((authorization): PlannedRequest => ({ action: 'ListAssetGroups', body: {}, options: { authorization } })),
    ...creates.map((authorization) => refusedRequest(config, 'CreateAssetGroup', { authorization }, authorization.shown)),
  ];
}

/** The run's unknown token first, then the near miss without its last character with the kit's User-Agent (the other test's too) and with none. */
export const nearMissAgents = (config: KitConfig): PlannedRequest[] => [
  unknownList(config),
  ...[undefined, null].map((userAgent): PlannedRequest => ({
    action: 'ListAssetGroups',
    body: {},
    options: { authorization: withoutLast(config.tokens.primary!), userAgent },
  })),
];

/** An otherwise valid request of each operation without a token and without a User-Agent. */
export const anonymousWithoutAgent = (config: KitConfig): PlannedRequest[] =>
  OPERATIONS.map((op) => refusedRequest(config, op, { as: null, userAgent: null }, 'no agent'));
