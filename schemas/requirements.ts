import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { SPEC_DIR } from './profile';

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
  expects?: string;
  reason?: string;
  /** What the test takes for granted beyond the quoted sentence, and why that is the spec's or the profile's. */
  assumes?: string[];
}

export interface Catalogue {
  families: Record<string, string>;
  requirements: Requirement[];
}

export const REQUIREMENTS_PATH = path.join(SPEC_DIR, 'requirements.yaml');

export function loadCatalogue(file = REQUIREMENTS_PATH): Catalogue {
  return YAML.parse(readFileSync(file, 'utf8')) as Catalogue;
}

export const familyOf = (id: string): string => id.replace(/-\d+$/, '');
