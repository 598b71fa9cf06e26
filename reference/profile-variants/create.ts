/** Profile variants of the create (the profile's create.* settings): the length bounds, the unit they count in, an optional Name. */
import { LENGTHS_NOT_SHOWN, LIMITS_NOT_SHOWN, type ProfileVariant } from './helpers';

const LENGTH_UNIT_UNSET =
  'The reference profile states no create.lengthUnit: its bounds are tested with ASCII, the same length in every unit, and other text well inside them.';

function createConstraints(o: { nameMax?: number; descriptionMax?: number; nameOptional?: boolean; description: string }): Record<string, unknown> {
  const max = (bound: number | undefined) => (bound === undefined ? {} : { maxLength: bound });
  return {
    description: o.description,
    type: 'object',
    ...(o.nameOptional ? {} : { required: ['Name'] }),
    properties: {
      Name: o.nameOptional ? { type: 'string', ...max(o.nameMax) } : { type: 'string', minLength: 1, ...max(o.nameMax) },
      Description: { type: 'string', ...max(o.descriptionMax) },
      GroupType: { type: 'string', enum: ['AIGC'] },
      ProjectName: { type: 'string', default: 'default' },
    },
  };
}

/** Name and Description bounded otherwise, or not at all. */
export const LENGTH_BOUNDS: readonly ProfileVariant[] = [
  {
    name: 'longerFields',
    description: 'Name up to 128 characters and Description up to 1000, instead of 64 and 300.',
    allows: LENGTHS_NOT_SHOWN,
    profile: {
      name: 'longerFields',
      create: { maxLength: { Name: 128, Description: 1000 } },
      $defs: {
        ProfileCreateConstraints: createConstraints({
          nameMax: 128,
          descriptionMax: 1000,
          description: 'Variant longerFields: Name 1-128 characters, Description at most 1000.',
        }),
      },
    },
  },
  {
    name: 'noLengthBounds',
    description: 'No length bound on Name or Description at all (TEXT columns, nothing validated), where the reference bounds them at 64 and 300.',
    allows: LIMITS_NOT_SHOWN,
    profile: {
      name: 'noLengthBounds',
      create: { maxLength: { Name: null, Description: null } },
      $defs: { ProfileCreateConstraints: createConstraints({ description: 'Variant noLengthBounds: Name non-empty, no length bound on any field.' }) },
    },
  },
  {
    name: 'shorterFields',
    description: 'Name up to 56 characters and Description up to 200, instead of 64 and 300.',
    allows: LENGTHS_NOT_SHOWN,
    profile: {
      name: 'shorterFields',
      create: { maxLength: { Name: 56, Description: 200 } },
      $defs: {
        ProfileCreateConstraints: createConstraints({
          nameMax: 56,
          descriptionMax: 200,
          description: 'Variant shorterFields: Name 1-56 characters, Description at most 200.',
        }),
      },
    },
  },
];

/** The bounds counted in other units than code points. */
export const LENGTH_UNITS: readonly ProfileVariant[] = [
  {
    name: 'utf16Lengths',
    description:
      "Length bounds count UTF-16 code units, as JavaScript's String.length, Java's String.length() (Bean Validation @Size in Hibernate Validator) and C#'s string.Length do: a character outside the BMP counts twice.",
    allows: LENGTHS_NOT_SHOWN,
    profile: { name: 'utf16Lengths', create: { lengthUnit: 'utf16' } },
    admittedWithoutProfile: LENGTH_UNIT_UNSET,
  },
  {
    name: 'byteLengths',
    description:
      "Length bounds count UTF-8 bytes, as an Oracle VARCHAR2(64) under the default NLS_LENGTH_SEMANTICS=BYTE, or Go's len(s), does: é counts 2, an emoji 4.",
    allows: LENGTHS_NOT_SHOWN,
    profile: { name: 'byteLengths', create: { lengthUnit: 'bytes' } },
    admittedWithoutProfile: LENGTH_UNIT_UNSET,
  },
];

/** Name optional, with a longer bound. */
export const OPTIONAL_NAME: ProfileVariant = {
  name: 'optionalNameLongerBound',
  description:
    'Name optional (omitted or empty is accepted, stored as "") and up to 128 characters: a Django CharField(max_length=128, blank=True), which Django REST framework\'s ModelSerializer makes required=False, allow_blank=True.',
  allows: LENGTHS_NOT_SHOWN,
  profile: {
    name: 'optionalNameLongerBound',
    create: { requiredFields: [], maxLength: { Name: 128 } },
    $defs: {
      ProfileCreateConstraints: createConstraints({
        nameMax: 128,
        descriptionMax: 300,
        nameOptional: true,
        description: 'Variant optionalNameLongerBound: Name optional, at most 128 characters; Description at most 300.',
      }),
    },
  },
};
