/**
 * Mutants: the reference server plus ONE small named modifier each, to prove that every check of
 * the kit can fail (STYLE 7). A modifier is a function replacing or wrapping one step of
 * `ReferenceHooks` (reference/behaviour.ts); everything else stays the reference behaviour.
 *
 * Each mutant breaks one requirement the way a real implementation might, and is written once, in
 * the file of that requirement's family (reference/mutants/env.ts, …): its name, the requirement
 * it breaks, its description and its modifier side by side. Which requirements the suites then
 * actually fail is data, in reference/mutants.expected.yaml, and tests/mutants.test.ts runs the
 * suites against every mutant to prove that file right.
 *
 * `npm run reference -- --mutant NAME` serves one; `--list-mutants` lists them.
 *
 * Rules that keep kills deterministic: no randomness and no wall-clock conditions in a modifier;
 * per-server state lives in a WeakMap keyed by the server's HookContext (`perServer`).
 */
import { AUTH, AUTH_HOSTILE } from './mutants/auth';
import { CHAN } from './mutants/chan';
import { CREATE } from './mutants/create';
import { ENV } from './mutants/env';
import { ERR } from './mutants/err';
import type { Mutant } from './mutants/helpers';
import { INPUT } from './mutants/input';
import { LIST } from './mutants/list';
import { PAGE } from './mutants/page';
import { SCHEMA } from './mutants/schema';
import { SCOPE } from './mutants/scope';
import { STACKS } from './mutants/stacks';
import { VER } from './mutants/ver';
import { VIS } from './mutants/vis';

export type { Mutant } from './mutants/helpers';

/** Every mutant, in the order of `--list-mutants` and of the kill matrix; a new one goes at the end. */
export const MUTANTS: readonly Mutant[] = [
  ENV.authEnvelopeWithoutRegion,
  ENV.emptyRequestId,
  ENV.constantRequestId,
  ENV.malformedJsonPlainText,
  ENV.textPlainContentType,
  ENV.resultOmittedWhenUnfiltered,
  VER.authErrorsWithoutVersion,
  VER.actionWithResponseSuffix,
  VER.versionEcho,
  VER.unknownActionNotEchoed,
  AUTH.missingAuthorizationIs400,
  AUTH.emptyBearerAccepted,
  AUTH.anySchemeAccepted,
  AUTH.unknownTokenAccepted,
  ERR.unknownTokenKindAssetError,
  ERR.errorBodyWithResult,
  ERR.listBadRequestAsAssetError,
  ERR.badBody422,
  CREATE.blankIdFromOneChannel,
  CREATE.unicodeNormalised,
  CREATE.channelSequenceIds,
  CREATE.projectNameDefaultEmpty,
  LIST.emptyListBodyRefused,
  LIST.assetSpaceFilterIgnored,
  LIST.groupTypeFilterIgnored,
  LIST.groupIdsFilterIgnored,
  LIST.nameFilterIgnored,
  PAGE.pageOneTooMany,
  PAGE.pageSizeClampedTo50,
  PAGE.defaultPageSize20,
  PAGE.totalCountOfPage,
  PAGE.pagesOverlapByOne,
  PAGE.pastEndShowsLastPage,
  PAGE.pagingNotValidated,
  SCOPE.unfilteredListIgnoresUser,
  SCOPE.idFilterIgnoresUser,
  SCOPE.exactNameIgnoresUser,
  VIS.evictedAfterTwoReads,
  CHAN.channelIgnored,
  CHAN.unboundSeesOnlyUnbound,
  CHAN.channelNotRecorded,
  VIS.flappingReplica,
  ENV.channelCreateWithoutRegion,
  SCHEMA.nullAssetSpace,
  SCHEMA.localTimeTimestamps,
  SCHEMA.updateBeforeCreate,
  INPUT.badEscapeCrashes,
  INPUT.nonObjectBodyAccepted,
  INPUT.createFieldsCoerced,
  INPUT.overlongNameAccepted,
  INPUT.unknownActionCrashes,
  INPUT.anyVersionAccepted,
  INPUT.loneSurrogateCrashes,
  INPUT.rateLimitWithoutRetryAfter,
  AUTH.tokenCaseInsensitive,
  AUTH.tokenTruncationAccepted,
  AUTH.tokenExtensionAccepted,
  AUTH.tokenSuffixAccepted,
  AUTH.tokenWhitespaceStripped,
  AUTH.tokenFirstWordOnly,
  AUTH.emptyListBodyUnauthenticated,
  SCOPE.spaceFilterIgnoresUser,
  SCOPE.typeAndIdsIgnoreUser,
  SCOPE.totalCountUnscoped,
  SCOPE.laterPagesUnscoped,
  CHAN.nameFilterIgnoresChannel,
  CHAN.spaceFilterIgnoresChannel,
  CHAN.totalCountIgnoresChannel,
  CREATE.longNameTruncated,
  CREATE.astralCharsReplaced,
  CREATE.emptyTitleDefaulted,
  LIST.nameFilterLikeWildcards,
  PAGE.pagesSkipOne,
  PAGE.pagesShortByOne,
  LIST.filteredNoMatchIs404,
  CREATE.projectNameIgnored,
  SCHEMA.singleItemNotInArray,
  VIS.snapshotFrozenAtFirstRead,
  SCHEMA.createReturnsWholeGroup,
  ERR.errorKindOmittedOn400,
  SCHEMA.goNilItems,
  SCHEMA.totalCountAsString,
  SCHEMA.idsAsIntegersInList,
  LIST.idFilterFirstOnly,
  PAGE.offsetTimesPageSize,
  CHAN.channelScopeFirstPageOnly,
  SCHEMA.localTimeLabelledZ,
  CREATE.trimsWhitespace,
  LIST.nameFilterLowercasesStoredOnly,
  SCHEMA.emptyStringsOmitted,
  PAGE.pagingEchoesZeroWhenOmitted,
  INPUT.nulCharacterCrashes,
  ...Object.values(STACKS),
  AUTH_HOSTILE.cookieAuthAccepted,
  AUTH_HOSTILE.authWaivedWithoutUserAgent,
  SCOPE.emptyIdLookupRetriedUnscoped,
  SCHEMA.zeroOffsetNotZ,
];

export function findMutant(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name);
}
