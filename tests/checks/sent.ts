/** What tests/checks/record.ts sends that the unit tests compare answers with. */

/** A group the sessions create: every field of the create, so that its list item can be compared with it. */
export const SENT = { Name: 'unit alpha', Title: 'Alpha', Description: 'the first', GroupType: 'AIGC', ProjectName: 'proj-unit' };

/** A group created with whitespace at both ends of its Name. */
export const PADDED = { Name: ' unit padded ', GroupType: 'AIGC' };

/** LIST-07's six probes for the group "unit alpha": the whole Name, a leading part and an inner part, as written and in upper case. */
export const NAME_PROBES = {
  whole: 'unit alpha',
  leading: 'unit al',
  inner: 'it alp',
  wholeUpper: 'UNIT ALPHA',
  leadingUpper: 'UNIT AL',
  innerUpper: 'IT ALP',
};

/** The keys of the probes' answers in a recording, in the order of NAME_PROBES. */
export const NAME_PROBE_KEYS = Object.keys(NAME_PROBES).map((key) => `name.${key}`);

/** A list query's paging the recordings use: three groups, pages of two. */
export const PAGE_SIZE = 2;
