/**
 * The spec's own constants, read once: the path, the Version, the two operations, the error table
 * (from spec/openapi.yaml's `x-error-kind` entries), the one `isObject` every room shares, and `deepFreeze`.
 * Light on purpose (no validators compiled): the reference server, discover and the suites all
 * import it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseYaml } from './yaml';

export const SPEC_PATH = '/v1/media_assets/';
/** "Version (fixed value 2024-01-01)". */
export const SPEC_VERSION = '2024-01-01';
export const OPERATIONS = ['CreateAssetGroup', 'ListAssetGroups'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Responses = Record<string, { $ref?: string; 'x-error-kind'?: string }>;
export const OPENAPI_PATH = path.join(__dirname, '..', 'spec', 'openapi.yaml');
let document: Record<string, unknown> | undefined;
/** spec/openapi.yaml, parsed once per process and shared (schemas/compile.ts compiles from it): nobody writes to it. */
export const openapiDocument = () => (document ??= parseYaml(readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, unknown>);

function resolve(ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), openapiDocument());
}

/** Each operation's Errors table, read once: every error answer of a run is judged by it. */
const kindsOf = new Map<string, Readonly<Record<number, string>>>();

/** The spec's Errors table for one operation: status -> error kind. */
export function errorKinds(operationId: string): Readonly<Record<number, string>> {
  let kinds = kindsOf.get(operationId);
  if (!kinds) kindsOf.set(operationId, (kinds = Object.freeze(errorKindsIn(operationId))));
  return kinds;
}

function errorKindsIn(operationId: string): Record<number, string> {
  for (const item of Object.values((openapiDocument().paths ?? {}) as Record<string, Record<string, { operationId?: string; responses?: Responses }>>)) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation?.operationId !== operationId) continue;
      const kinds: Record<number, string> = {};
      for (const [status, entry] of Object.entries(operation.responses ?? {})) {
        const response = entry.$ref ? resolve(entry.$ref) : entry;
        const kind = isObject(response) ? response['x-error-kind'] : undefined;
        if (typeof kind === 'string') kinds[Number(status)] = kind;
      }
      return kinds;
    }
  }
  throw new Error(`spec/openapi.yaml has no operation ${operationId}`);
}

/** Every error kind of the spec's table, over both operations. */
export const errorKindNames = (): string[] => [...new Set(OPERATIONS.flatMap((op) => Object.values(errorKinds(op))))];

/** The keys of a JSON pointer (RFC 6901), unescaped. */
export const pointerParts = (pointer: string): string[] =>
  pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));

/** The parsed JSON of a text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether a text is JSON at all (a body of `null` included). */
export const isJsonText = (text: string): boolean => parseJson(text) !== undefined || text.trim() === 'null';

/** A parsed value made read-only all the way down: one object shared by every reader (a catalogue, a run's dataset), which none can change for the next. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
