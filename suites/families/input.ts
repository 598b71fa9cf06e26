/** INPUT: malformed and unusual input. The family's declared tests and the plans of their requests that need no earlier answer. */
import type { TestGroup } from '../declare';
import { declarePlan, declareProperty, listRequest } from '../plans';
import {
  WRONG_TYPE_EXAMPLES,
  unknownActionRequests,
  beyondBounds,
  createField,
  malformedBodies,
  notAString,
  notObjects,
  unusualUnicode,
  unsupportedVersionRequests,
  wrongListBodies,
  wrongTypeCreate,
} from '../plans/input';

export const INPUT_01 = declarePlan('INPUT-01', ({ config }) => malformedBodies(config).plannedRequests);
export const INPUT_02 = declarePlan('INPUT-02', ({ config }) => notObjects(config).map(({ planned }) => planned));
export const INPUT_03_CREATE = declareProperty('INPUT-03 create', ({ config }) => ({
  arbitraries: [createField, notAString],
  examples: WRONG_TYPE_EXAMPLES,
  request: (name: string, value: unknown) => wrongTypeCreate(config, name, value),
}));
export const INPUT_03_LIST = declareProperty('INPUT-03 list', ({ profile, dataset }) => {
  const { wrongBody, examples } = wrongListBodies(profile, dataset);
  return wrongBody && { arbitraries: [wrongBody], examples, request: (body: unknown) => listRequest(body) };
});
export const INPUT_04 = declarePlan('INPUT-04', ({ config, profile }) => beyondBounds(config, profile).map(({ planned }) => planned));
export const INPUT_05 = declarePlan('INPUT-05', () => unknownActionRequests());
export const INPUT_06 = declarePlan('INPUT-06', () => unsupportedVersionRequests());
export const INPUT_07 = declarePlan('INPUT-07', ({ config, profile }) => unusualUnicode(config, profile).plannedRequests);

export const INPUT: readonly TestGroup[] = [];
