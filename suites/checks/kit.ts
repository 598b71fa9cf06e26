import type { Exchange } from '../../client/exchange';
import { filterPointer, readPointer, type Profile } from '../../schemas/profile';
import { oneLine } from '../../client/safe-text';

/**
 * What checks are built from (`fail`, `named`, the reading of list items); nothing this module
 * exports is a check. The checks live in one file per family (env.ts, …); their types are the
 * protocol's (facts/judgement.ts), re-exported here for them.
 */
export type { Failure, CheckContext, Check, MultiCheck, Owned, Step } from '../../facts/judgement';
export { owned } from '../../facts/judgement';
import type { Check, Failure, MultiCheck } from '../../facts/judgement';

export { OPERATIONS, type Operation as OperationId } from '../../schemas/spec';

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
    ...(failure.flaky ? [`  Flaky:      ${oneLine(failure.flaky)}`] : []),
  ].join('\n');
}

export type Item = Record<string, unknown>;

export function items(ex: Exchange): Item[] | undefined {
  const list = readPointer(ex.response?.json, '/Result/Items');
  return Array.isArray(list) ? (list as Item[]) : undefined;
}

export const idsOf = (ex: Exchange): unknown[] => (items(ex) ?? []).map((item) => item?.Id);

/** The items of a list answer that are objects, or [] when there is no answer or it is not a list result. */
export const itemsOf = (ex: Exchange | undefined): Item[] =>
  (ex ? (items(ex) ?? []) : []).filter((item): item is Item => typeof item === 'object' && item !== null);

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

/** The Ids a list body asks for through the profile's Id filter: its array, or its one Id under list.idFilterTakes: one. */
export function idsAsked(list: Profile['list'], body: unknown): unknown[] | undefined {
  const asked = readPointer(body, filterPointer(list, list.filters.groupIds));
  return Array.isArray(asked) ? asked : typeof asked === 'string' && list.idFilterTakes === 'one' ? [asked] : undefined;
}
