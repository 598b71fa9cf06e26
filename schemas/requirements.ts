import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseYaml } from './yaml';
import { SPEC_DIR } from './profile';
import { deepFreeze } from './spec';

export type Level = 'MUST' | 'SHOULD' | 'MAY' | 'NOT-ASSESSED';
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY', 'NOT-ASSESSED'];
export type Basis = 'spec' | 'profile' | 'http';

export interface Requirement {
  id: string;
  level: Level;
  basis?: Basis;
  /** The profile settings its test reads (dotted paths into spec/profile.yaml): a target whose profile differs there is judged by its own. */
  settings?: string[];
  title: string;
  spec: string;
  sends?: string;
  /**
   * What `sends` names, as matchers of the requests the requirement's declared plans make (tests/sends.test.ts): each
   * must match at least one of them, so the catalogue never says more than the kit sends.
   */
  sent?: SentMatcher[];
  expects?: string;
  reason?: string;
  /** What the test takes for granted beyond the quoted sentence, and why that is the spec's or the profile's. */
  assumes?: string[];
}

/**
 * One kind of request a requirement's entry says it sends. Every key given must hold: `op` the Action (null: none),
 * `version` (null: none), `auth` the Authorization header as evidence shows it (null: none), `type` the body's JSON type
 * (`invalid`: not JSON), `body` the whole body; `at` a JSON pointer into the body, whose value is `value`, of `type`,
 * `includes` a text, is `above` a number or `longerThan` a length (a number, or a dotted path into the profile); `absent`
 * pointers the body does not hold; `anywhere` a text some string of the body holds, `pattern` a regular expression one matches; `length` the code points of the value at `at`.
 */
export interface SentMatcher {
  op?: string | null;
  version?: string | null;
  auth?: string | null;
  type?: 'array' | 'string' | 'number' | 'boolean' | 'null' | 'object' | 'invalid';
  body?: unknown;
  at?: string;
  value?: unknown;
  includes?: string;
  above?: number | string;
  longerThan?: number | string;
  absent?: string[];
  /** A text some string of the body holds, wherever it is. */
  anywhere?: string;
  /** A regular expression some string of the body matches, wherever it is. */
  pattern?: string;
  /** The length of the value at `at`, in code points: a number, or a dotted path into the profile. */
  length?: number | string;
}

export interface Catalogue {
  families: Record<string, string>;
  requirements: Requirement[];
}

export const REQUIREMENTS_PATH = path.join(SPEC_DIR, 'requirements.yaml');

/**
 * Parsed once per version of the file (its path, size and modification time): every test's title reads the catalogue,
 * in a matrix batch some two thousand times, each of which read the whole file and keyed a map by its text.
 */
const parsed = new Map<string, Catalogue>();

/** The catalogue, frozen: one object is shared by everything that loads the same version of the file. */
export function loadCatalogue(file = REQUIREMENTS_PATH): Catalogue {
  const { size, mtimeMs } = statSync(file);
  const key = `${file}\0${size}\0${mtimeMs}`;
  let catalogue = parsed.get(key);
  if (!catalogue) parsed.set(key, (catalogue = deepFreeze(parseYaml(readFileSync(file, 'utf8')) as Catalogue)));
  return catalogue;
}

export const familyOf = (id: string): string => id.replace(/-\d+$/, '');

export const REQUIREMENT_IDS_PATH = path.join(__dirname, '..', 'facts', 'requirement-ids.ts');

/** facts/requirement-ids.ts: the assessed requirement IDs as a type, so a typo in a test's ID fails the type check. */
export function renderRequirementIds(catalogue: Catalogue = loadCatalogue()): string {
  const ids = catalogue.requirements.filter((r) => r.level !== 'NOT-ASSESSED').map((r) => r.id);
  return [
    '// Generated from spec/requirements.yaml by `npm run requirement-ids`; tests/catalogue.test.ts fails when it is stale.',
    '/** Every assessed requirement of the catalogue: what a conformance test may cite. */',
    `export const REQUIREMENT_IDS = [\n${ids.map((id) => `  '${id}',`).join('\n')}\n] as const;`,
    'export type RequirementId = (typeof REQUIREMENT_IDS)[number];',
    '',
  ].join('\n');
}

if (require.main === module) {
  writeFileSync(REQUIREMENT_IDS_PATH, renderRequirementIds());
  console.log(`wrote ${path.relative(process.cwd(), REQUIREMENT_IDS_PATH)}`);
}
