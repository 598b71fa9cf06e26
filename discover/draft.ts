/**
 * The writing half of `agc profile discover`: turns the decisions of a discovery into a profile
 * file a person can review. Every setting carries its evidence as a comment; `$defs` are written
 * from the settings, so the draft passes the kit's consistency check as it stands, and a setting
 * edited by hand without its schema is caught by that check at the next run.
 */
import YAML from 'yaml';
import { readPointer, type Profile } from '../schemas/profile';
import { BUDGET, type Decision, type Discovery } from './discovery';
import { defsFromSettings, errorDetail } from '../schemas/profile-defs';

type Settings = Omit<Profile, '$defs'>;

/** The profile's settings as decided: the discovered values over the reference ones. */
export function settingsOf(discovery: Discovery, reference: Profile, name: string): Settings {
  const v = <T>(setting: string): T => {
    const decision = discovery.decisions.get(setting);
    if (decision) return decision.value as T;
    return readPointer(reference, `/${setting.replace(/\./g, '/')}`) as T;
  };
  return {
    name,
    list: {
      filterField: v('list.filterField'),
      filters: {
        assetSpaceId: v('list.filters.assetSpaceId'),
        groupType: v('list.filters.groupType'),
        groupIds: v('list.filters.groupIds'),
        name: v('list.filters.name'),
      },
      idFilterTakes: v('list.idFilterTakes'),
      nameMatch: v('list.nameMatch'),
      pageNumber: {
        field: v('list.pageNumber.field'),
        default: v('list.pageNumber.default'),
        minimum: v('list.pageNumber.minimum'),
        pastEnd: v('list.pageNumber.pastEnd'),
      },
      pageSize: {
        field: v('list.pageSize.field'),
        default: v('list.pageSize.default'),
        minimum: v('list.pageSize.minimum'),
        maximum: v('list.pageSize.maximum'),
        aboveMaximum: v('list.pageSize.aboveMaximum'),
      },
      invalidPaging: v('list.invalidPaging'),
      // Written only when a fraction was seen treated otherwise than a value below the minimum.
      ...(discovery.decisions.get('list.fractionalPaging')?.determined && v('list.fractionalPaging') !== v('list.invalidPaging')
        ? { fractionalPaging: v<NonNullable<Profile['list']['fractionalPaging']>>('list.fractionalPaging') }
        : {}),
    },
    create: {
      requiredFields: v('create.requiredFields'),
      maxLength: { ...reference.create.maxLength, Name: v('create.maxLength.Name'), Description: v('create.maxLength.Description') },
      // Written only when the answers settled it: unset, the kit tests the bounds with ASCII.
      ...(discovery.decisions.get('create.lengthUnit')?.determined ? { lengthUnit: v<NonNullable<Profile['create']['lengthUnit']>>('create.lengthUnit') } : {}),
      defaults: { ...reference.create.defaults, ProjectName: v('create.defaults.ProjectName') },
      groupTypes: v('create.groupTypes'),
    },
    error: { codePointer: v('error.codePointer'), messagePointer: v('error.messagePointer') },
    timestamps: v('timestamps.format') === undefined ? reference.timestamps : { format: v('timestamps.format') },
  };
}

/**
 * The `$defs` the settings decide, written from them as a profile file without them would get them
 * (schemas/profile-defs.ts), the error part with a Result where the target sends one. ProfileTimestamp only under
 * iso8601-utc; else the reference's applies.
 */
export function defsOf(s: Settings, errorHasResult: boolean): Record<string, Record<string, unknown>> {
  const note = 'Drafted by agc profile discover from the settings of this file.';
  const { ProfileTimestamp, ...defs } = defsFromSettings(s, note);
  return {
    ...defs,
    ProfileErrorDetail: errorDetail(s.error, note, errorHasResult),
    ...(s.timestamps.format === 'iso8601-utc' ? { ProfileTimestamp } : {}),
  };
}

const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function scalar(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(scalar).join(', ')}]`;
  const text = String(value);
  return /^[A-Za-z_/][A-Za-z0-9_/.~-]*$/.test(text) && !RESERVED.test(text) ? text : JSON.stringify(text);
}

/** One comment line per piece of evidence, on one line each, never overly long. */
function comments(indent: string, decision: Decision | undefined): string[] {
  if (!decision) return [`${indent}# reference value: not probed`];
  const head = decision.determined ? 'found' : 'reference value, not determined';
  return decision.evidence.map((line, i) => {
    const flat = line.replace(/[\r\n]+/g, ' ');
    const text = flat.length > 400 ? `${flat.slice(0, 400)}…` : flat;
    return `${indent}# ${i === 0 ? `${head}: ` : '  '}${text}`;
  });
}

export function renderDraft(
  discovery: Discovery,
  reference: Profile,
  options: { name: string; target: string; date: string; file: string },
): { text: string; profile: Record<string, unknown> } {
  const s = settingsOf(discovery, reference, options.name);
  const defs = defsOf(s, discovery.errorHasResult);
  const d = (setting: string) => discovery.decisions.get(setting);
  const lines: string[] = [];
  const leaf = (indent: string, key: string, setting: string, value: unknown) => {
    lines.push(...comments(indent, d(setting)), `${indent}${key}: ${scalar(value)}`);
  };
  const found = [...discovery.decisions.values()].filter((x) => x.determined).length;
  lines.push(
    `# Draft profile of ${options.target}, written by \`agc profile discover\` on ${options.date}.`,
    '#',
    '# Each setting below says what was sent and what came back ("found"), or that the target\'s answers',
    '# did not settle it ("reference value, not determined": spec/profile.yaml\'s choice, kept). Check',
    '# each against what your implementation means to do, then run the kit with it:',
    `#   AG_PROFILE=${options.file} npx agc run`,
    '#',
    `# ${found} settings found, ${discovery.decisions.size - found} kept at the reference value.`,
    `# Budget used: ${discovery.requests} requests of ${BUDGET.requests}, ${discovery.created.length} groups created of ${BUDGET.creates}`,
    `# (${discovery.createRequests} create requests), every Name starting with ${discovery.namePrefix}`,
  );
  lines.push(
    '#',
    "# The run's groups, named g1, g2, … in the evidence:",
    ...discovery.created.map(
      (g, i) => `#   g${i + 1} = ${g.id} (Name ${g.name.length > 48 ? `${g.name.slice(0, 32)}…, ${[...g.name].length} characters` : g.name})`,
    ),
  );
  if (discovery.notes.length) lines.push('#', '# Notes:', ...discovery.notes.map((n) => `#   - ${n.replace(/[\r\n]+/g, ' ').slice(0, 400)}`));
  lines.push('', `name: ${scalar(s.name)}`, '', 'list:');
  leaf('  ', 'filterField', 'list.filterField', s.list.filterField);
  lines.push('  filters:');
  for (const key of ['assetSpaceId', 'groupType', 'groupIds', 'name'] as const) leaf('    ', key, `list.filters.${key}`, s.list.filters[key]);
  leaf('  ', 'idFilterTakes', 'list.idFilterTakes', s.list.idFilterTakes);
  leaf('  ', 'nameMatch', 'list.nameMatch', s.list.nameMatch);
  for (const paging of ['pageNumber', 'pageSize'] as const) {
    lines.push(`  ${paging}:`);
    for (const key of Object.keys(s.list[paging]) as (keyof Settings['list']['pageSize'])[]) {
      leaf('    ', key, `list.${paging}.${key}`, (s.list[paging] as Record<string, unknown>)[key]);
    }
  }
  leaf('  ', 'invalidPaging', 'list.invalidPaging', s.list.invalidPaging);
  if (s.list.fractionalPaging) leaf('  ', 'fractionalPaging', 'list.fractionalPaging', s.list.fractionalPaging);
  lines.push('', 'create:');
  leaf('  ', 'requiredFields', 'create.requiredFields', s.create.requiredFields);
  lines.push('  maxLength:');
  for (const [field, max] of Object.entries(s.create.maxLength)) leaf('    ', field, `create.maxLength.${field}`, max);
  if (s.create.lengthUnit) leaf('  ', 'lengthUnit', 'create.lengthUnit', s.create.lengthUnit);
  else
    lines.push(
      ...comments('  ', d('create.lengthUnit')).map((line) => line.replace('reference value, not determined', 'lengthUnit not written, not determined')),
    );
  lines.push('  defaults:');
  for (const [field, value] of Object.entries(s.create.defaults)) leaf('    ', field, `create.defaults.${field}`, value);
  leaf('  ', 'groupTypes', 'create.groupTypes', s.create.groupTypes);
  lines.push('', 'error:');
  leaf('  ', 'codePointer', 'error.codePointer', s.error.codePointer);
  leaf('  ', 'messagePointer', 'error.messagePointer', s.error.messagePointer);
  lines.push('', 'timestamps:');
  leaf('  ', 'format', 'timestamps.format', s.timestamps.format);
  lines.push(
    '',
    '# The schemas the kit validates with, written from the settings above. When you change a setting,',
    '# change its schema too, or delete the schema and the kit writes it from the setting: the kit refuses',
    '# a profile whose settings and $defs disagree, and says which.',
    ...(s.timestamps.format === 'iso8601-utc' ? [] : ["# ProfileTimestamp is not listed: the reference profile's applies."]),
    YAML.stringify({ $defs: defs }, { lineWidth: 0 }).trimEnd(),
    '',
  );
  return { text: lines.join('\n'), profile: { ...s, $defs: defs } };
}
