/** CHAN: a token's channel. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { everyGroupRead, otherChannelReads, roleReads } from '../plans/reads';

export const CHAN_03 = declarePlan('CHAN-03', ({ config, profile, dataset }) =>
  config.tokens.channelA && config.tokens.channelB ? everyGroupRead(profile, dataset) : [],
);
/** Its first read alone: what it sends next depends on the answer (a group's AssetSpaceId). */
export const CHAN_04 = declarePlan(
  'CHAN-04',
  ({ config, profile, dataset }) => (['channelA', 'channelB'] as const).flatMap((role) => roleReads(config, profile, dataset, role)),
  { firstReadOnly: true },
);
export const CHAN_02 = declarePlan('CHAN-02', ({ config, profile, dataset }) => otherChannelReads(config, profile, dataset).map(({ planned }) => planned));

export const CHAN: readonly TestGroup[] = [];
