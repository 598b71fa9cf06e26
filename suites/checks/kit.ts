import type { Exchange } from '../../client/exchange';
import type { Profile } from '../../schemas/profile';
import { readPointer } from '../../schemas/profile';
import { oneLine } from '../../client/safe-text';

/**
 * Checks are small named pure functions over one captured exchange: they never send a request.
 * A check's function name is its key in reports and docs. It answers undefined when the exchange
 * satisfies it, or a Failure saying what was received, what the spec or profile documents, and
 * how a server author fixes it.
 *
 * This module holds what checks are built from (the types, `owned`, `fail`, `named`, the reading of
 * list items); nothing it exports is a check. The checks live in one file per family (env.ts, …).
 */
export interface Failure {
  check: string;
  received: string;
  documented: string;
  fix: string;
  /**
   * Set when what was received shows the target follows another profile (a field name, the place
   * of the error kind): the requirement is then not assessable rather than failed, and this says
   * which profile setting probably fits.
   */
  profileMismatch?: string;
  /**
   * Ids of groups the check expected in a list and did not find. A group seen before and missing
   * now may be lost (VIS-02) rather than filtered out: the suite reads it back by Id to tell which.
   */
  missing?: string[];
}

export interface CheckContext {
  profile: Profile;
  validate: (component: string, data: unknown) => { valid: boolean; errors: string[] };
  /** The spec's error table for an operation: status -> error kind. */
  errorKinds: (operationId: string) => Record<number, string>;
  /** The run's valid requests the create-and-wait phase saw answered (p0's create, the preflight's list); [] before it ran. */
  successes: Exchange[];
}

export type Check = (exchange: Exchange, context: CheckContext) => Failure | undefined;

/** A check over several exchanges together (distinct Ids, pages that partition a result). */
export type MultiCheck = (exchanges: Exchange[], context: CheckContext) => Failure | undefined;

/**
 * A check whose finding belongs to another requirement. A test applies it as a precondition of
 * its own judgement: where it fails, the finding is that requirement's and the test is blocked by
 * it, so one deviation is reported once, by the requirement that owns it.
 */
export interface Owned {
  owner: string;
  check: Check;
}
export const owned = (owner: string, check: Check): Owned => ({ owner, check });

/** What a test applies to an exchange: its own checks, and preconditions owned by other requirements. */
export type Step = Check | Owned;

export const OPERATIONS = ['CreateAssetGroup', 'ListAssetGroups'] as const;
export type OperationId = (typeof OPERATIONS)[number];

/**
 * A value of the target's, short, for a failure's text. JSON nested too deep to serialise (a
 * hostile target's) is described rather than crashing the check.
 */
export const show = (value: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    text = `(a value the kit cannot show: ${(error as Error).message})`;
  }
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** A Failure of the given check, with what was received, what is documented and how to fix it. */
export function fail(check: { name: string } | string, received: string, documented: string, fix: string): Failure {
  return { check: typeof check === 'string' ? check : check.name, received, documented, fix };
}

/** Gives a built check a readable name, since reports key checks by their function name. */
export function named<F extends Check | MultiCheck>(name: string, check: F): F {
  return Object.defineProperty(check, 'name', { value: name });
}

/**
 * A failure as the console shows it: four lines of the kit's, each field on its own single line,
 * since they quote the target (control characters visible, workflow-command prefixes broken; see
 * safe-text.ts): a target's answer never starts a line of a CI log.
 */
export function formatFailure(failure: Failure, ex: Exchange): string {
  return [
    `${oneLine(failure.check, 200)} failed for ${oneLine(ex.request.method, 20)} ${oneLine(ex.request.url, 500)}`,
    `  Received:   ${oneLine(failure.received)}`,
    `  Documented: ${oneLine(failure.documented)}`,
    `  Fix:        ${oneLine(failure.fix)}`,
  ].join('\n');
}

export type Item = Record<string, unknown>;

export function items(ex: Exchange): Item[] | undefined {
  const list = readPointer(ex.response?.json, '/Result/Items');
  return Array.isArray(list) ? (list as Item[]) : undefined;
}

export const idsOf = (ex: Exchange): unknown[] => (items(ex) ?? []).map((item) => item?.Id);

/** The items of a list answer that are objects, or [] when the answer is not a list result. */
export const objectItems = (ex: Exchange): Item[] => (items(ex) ?? []).filter((item): item is Item => typeof item === 'object' && item !== null);

/** The JSON pointer of the first string in `data` that is one of `values`, searching breadth-first. */
export function pointerOf(data: unknown, values: readonly string[]): string | undefined {
  const queue: [unknown, string][] = [[data, '']];
  while (queue.length) {
    const [node, at] = queue.shift()!;
    if (typeof node === 'string' && values.includes(node)) return at;
    if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) queue.push([value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
    }
  }
  return undefined;
}
