/**
 * What the profile variants share: the `ProfileVariant` shape, and the sentences of
 * spec/asset-group-interface.md they quote, verbatim, as leaving their point open.
 */
import type { ReferenceHooks } from '../behaviour';

export interface ProfileVariant {
  /** camelCase, unique. */
  name: string;
  /** The choice, as an implementer would describe it. */
  description: string;
  /** A sentence quoted verbatim from spec/asset-group-interface.md that leaves this point open. */
  allows: string;
  /** An override merged over spec/profile.yaml ($defs included); passes checkProfileConsistency. */
  profile: Record<string, unknown>;
  hooks?: Partial<ReferenceHooks>;
  /**
   * Set, with the reason, when the reference profile already admits this server: the kit tests the
   * point only where the reference's choice and this one agree, so without its profile the server
   * is conformant and there is no mismatch to name (tests/matrices/profile-mismatch.test.ts).
   */
  admittedWithoutProfile?: string;
  /** Where the point is a setting of its own, what the named mismatch must advise (tests/matrices/profile-mismatch.test.ts). */
  advises?: string;
}

export const NAMES_NOT_SHOWN = 'Names of the filter fields and of the pagination request fields: not shown.';
export const ERROR_SHAPE_NOT_SHOWN = 'Shape of the error body (the ErrorResponse carries ResponseMetadata and an error part): not shown.';
export const FILTER_BY_NAME = 'Filters: the body supports filtering by asset space, group type, logical ID and name.';
export const LENGTHS_NOT_SHOWN = 'Length bounds, formats and required/optional status of Name, Title, Description, ProjectName: not shown.';
export const LIMITS_NOT_SHOWN = 'Limits: not shown (rate limits, page-size bounds, field-length limits).';
export const PAGINATION_IMPLIED = 'Pagination is implied by the response fields.';
export const CONDITIONS_NOT_SHOWN = 'Conditions that trigger each status: not shown.';
export const TIMESTAMP_FIELD = 'CreateTime | string, ISO 8601 UTC timestamp <timestamp> | list item | Set by the service.';
