/** LIST: the list operation and its filters. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan } from '../plans';
import { aigcReads, everyGroupRead, nameAndWildcards, nameParts } from '../plans/reads';

export const LIST_02 = declarePlan(
  'LIST-02',
  ({ profile, dataset }) => (dataset.profileMismatch?.filters?.assetSpaceId ? [] : everyGroupRead(profile, dataset)),
  {
    firstReadOnly: true,
  },
);
export const LIST_03 = declarePlan('LIST-03', ({ profile, dataset }) =>
  dataset.profileMismatch?.filters?.groupType ? [] : aigcReads(profile, dataset).map(({ planned }) => planned),
);
export const LIST_05 = declarePlan('LIST-05', ({ profile, dataset }) =>
  dataset.profileMismatch?.filters?.name ? [] : nameAndWildcards(profile, dataset).plannedRequests,
);
export const LIST_07 = declarePlan('LIST-07', ({ profile, dataset }) => (dataset.profileMismatch?.filters?.name ? [] : nameParts(profile, dataset).reads));

export const LIST: readonly TestGroup[] = [];
