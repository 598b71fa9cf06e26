// Generates spec/openapi.single-path.yaml, the single-path view of spec/openapi.yaml, for tools
// that route by path and method (Prism mock and proxy, API gateways, path-keyed validators).
//
//   npm run contract            writes the view
//   tests/ecosystem.test.ts     fails when the checked-in view is not what this script writes
//
// openapi.yaml keys CreateAssetGroup and ListAssetGroups by URI fragments
// (`/v1/media_assets/#CreateAssetGroup`), which keeps each operation's body and responses apart
// but cannot be routed: a fragment never reaches a server. The view has one operation,
// `POST /v1/media_assets/`, whose `Action` is an enum of both, and whose body and responses are
// the two operations' schemas combined with `anyOf` (not `oneOf`: a Create body is also a valid
// List body, and Prism refuses a body that matches two `oneOf` branches). Components are copied
// unchanged, so every `$ref` of the contract means the same thing in the view.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export const SPEC_DIR = __dirname;
export const SOURCE_PATH = path.join(SPEC_DIR, 'openapi.yaml');
export const VIEW_PATH = path.join(SPEC_DIR, 'openapi.single-path.yaml');
export const WIRE_PATH = '/v1/media_assets/';

type Json = any;

const HEADER = `GENERATED FILE: do not edit by hand.
Written by spec/single-path.ts from spec/openapi.yaml (\`npm run contract\`); a test fails
when the two disagree. Edit spec/openapi.yaml, then run \`npm run contract\`.

The single-path view of the contract, for tools that route by path and method (Prism mock
and proxy, gateways). It keeps the components of openapi.yaml unchanged; what it loses is
which body and which responses belong to which Action. Use openapi.yaml everywhere else.`;

/** The operations of the source, in document order, with the wire path they share. */
function operationsOf(source: Json): { key: string; op: Json }[] {
  const found = Object.entries<Json>(source.paths ?? {}).map(([key, item]) => {
    const [wire, fragment] = key.split('#');
    if (wire !== WIRE_PATH || !fragment) throw new Error(`openapi.yaml: path ${key} is not ${WIRE_PATH}#<Action>`);
    if (Object.keys(item).join() !== 'post') throw new Error(`openapi.yaml: path ${key} must hold exactly one POST operation`);
    if (item.post.operationId !== fragment) throw new Error(`openapi.yaml: ${key} holds operationId ${item.post.operationId}, not ${fragment}`);
    return { key, op: item.post };
  });
  if (found.length < 2) throw new Error('openapi.yaml: expected the fragment-keyed operations of one wire path');
  return found;
}

function resolveLocal(source: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`unexpected non-local $ref ${ref} in an operation`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: Json, part) => node?.[part], source);
}

const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);

/** Distinct values in first-seen order: two operations sharing a schema give that schema once. */
function distinct<T>(values: T[]): T[] {
  return values.filter((value, i) => values.findIndex((other) => same(other, value)) === i);
}

/** One schema, or the anyOf of several. */
function anyOf(schemas: Json[]): Json {
  const unique = distinct(schemas);
  return unique.length === 1 ? unique[0] : { anyOf: unique };
}

function byAction(parts: { action: string; text: string | undefined }[]): string {
  return parts.map(({ action, text }) => `${action}: ${(text ?? '').trim()}`).join('\n\n');
}

/** The Action parameter: the enum of every operation, each operation's own description kept. */
function actionParameter(ops: { action: string; op: Json }[]): Json {
  const own = ops.map(({ action, op }) => {
    const param = op.parameters.find((p: Json) => p.name === 'Action' && p.in === 'query');
    if (!param || !same(param.schema?.enum, [action])) throw new Error(`openapi.yaml: ${action} has no Action query parameter with enum [${action}]`);
    return param;
  });
  return {
    name: 'Action',
    in: 'query',
    required: true,
    description: `${own[0].description} One of: ${ops.map((o) => o.action).join(', ')}.`,
    schema: { type: 'string', enum: ops.map((o) => o.action) },
  };
}

/** Every other parameter must be the same in every operation (Version is), or the view cannot hold it. */
function sharedParameters(ops: { action: string; op: Json }[]): Json[] {
  const rest = ops.map(({ op }) => op.parameters.filter((p: Json) => !(p.name === 'Action' && p.in === 'query')));
  for (const other of rest.slice(1)) {
    if (!same(other, rest[0])) throw new Error('openapi.yaml: the operations differ in parameters other than Action; the single-path view cannot combine them');
  }
  return rest[0];
}

function requestBody(ops: { action: string; op: Json }[]): Json {
  const types = distinct(ops.flatMap(({ op }) => Object.keys(op.requestBody?.content ?? {})));
  const content: Json = {};
  for (const type of types) {
    content[type] = { schema: anyOf(ops.filter(({ op }) => op.requestBody?.content?.[type]).map(({ op }) => op.requestBody.content[type].schema)) };
  }
  return {
    required: ops.every(({ op }) => op.requestBody?.required === true),
    description: byAction(ops.map(({ action, op }) => ({ action, text: op.requestBody?.description ?? `${describeSchemas(op.requestBody?.content)}.` }))),
    content,
  };
}

function describeSchemas(content: Json): string {
  return Object.values<Json>(content ?? {})
    .map((media) => (media.schema?.$ref ? media.schema.$ref.split('/').pop() : 'an inline schema'))
    .join(', ');
}

/**
 * One response per status of any operation. A status that only some operations answer keeps its
 * own response, with a description saying which. A status that all answer with the same response
 * keeps it; otherwise the descriptions are joined, the schemas combined with anyOf, each example
 * kept under its operation's name, and the error kinds kept per Action.
 */
function responses(source: Json, ops: { action: string; op: Json }[]): Json {
  const statuses = distinct(ops.flatMap(({ op }) => Object.keys(op.responses)));
  statuses.sort();
  const out: Json = {};
  for (const status of statuses) {
    const having = ops.filter(({ op }) => op.responses[status]);
    const raw = having.map(({ op }) => op.responses[status]);
    if (having.length === ops.length && raw.every((r) => same(r, raw[0]))) {
      out[status] = raw[0];
      continue;
    }
    const resolved = raw.map((r) => (r.$ref ? resolveLocal(source, r.$ref) : r));
    if (having.length === 1) {
      out[status] = raw[0].$ref
        ? { $ref: raw[0].$ref, description: `${having[0].action} only. ${resolved[0].description.trim()}` }
        : { ...raw[0], description: `${having[0].action} only. ${resolved[0].description.trim()}` };
      continue;
    }
    const combined: Json = { description: byAction(having.map(({ action }, i) => ({ action, text: resolved[i].description }))) };
    const kinds = having.map(({ action }, i) => [action, resolved[i]['x-error-kind']]).filter(([, kind]) => kind);
    if (kinds.length) combined['x-error-kind-by-action'] = Object.fromEntries(kinds);
    const types = distinct(resolved.flatMap((r) => Object.keys(r.content ?? {})));
    if (types.length) combined.content = {};
    for (const type of types) {
      const medias = having.map(({ action }, i) => ({ action, media: resolved[i].content?.[type] })).filter((m) => m.media);
      const media: Json = { schema: anyOf(medias.map((m) => m.media.schema)) };
      const examples = medias.filter((m) => m.media.example !== undefined);
      if (examples.length) media.examples = Object.fromEntries(examples.map((m) => [m.action, { summary: `Action=${m.action}`, value: m.media.example }]));
      combined.content[type] = media;
    }
    out[status] = combined;
  }
  return out;
}

/** The source's description without its section on the fragment keys, which the view does not have. */
function infoDescription(source: Json): string {
  const sections = String(source.info.description ?? '').split(/\n(?=## )/);
  const kept = sections.filter((s) => s.startsWith('## ') && !/^## One path, two operations/.test(s));
  const intro = `This is the single-path view of the contract, generated from \`openapi.yaml\` by
\`spec/single-path.ts\` (\`npm run contract\`); do not edit it by hand.

## Which document to use

\`openapi.yaml\` is the contract: each operation has its own path item, keyed with a URI fragment
(\`/v1/media_assets/#CreateAssetGroup\`, \`/v1/media_assets/#ListAssetGroups\`), so each keeps its
own body and responses. Use it for reading, documentation, validation of exchanges and client
generation (drop everything from \`#\` on before sending). Tools that route a real request by path
and method cannot match a fragment key (Prism answers 404 NO_PATH_MATCHED); they use this view.

This view has one operation, \`POST ${WIRE_PATH}\`, selected by \`Action\` (an enum of both
operations). Its body and its responses are the two operations' schemas combined with \`anyOf\`,
and the components are those of \`openapi.yaml\`, unchanged. What it loses: which body and which
responses belong to which \`Action\` (a Create body passes as a List body here, and a List answer
as a Create answer). The examples of a combined response are named after their \`Action\`
(Prism: \`Prefer: example=ListAssetGroups\`); the error kinds are given per Action in
\`x-error-kind-by-action\`.`;
  return [intro, ...kept.map((s) => s.trimEnd())].join('\n\n') + '\n';
}

/** The view, as the YAML text that is checked in. */
export function singlePathView(sourceText: string): string {
  const source = YAML.parse(sourceText);
  const ops = operationsOf(source).map(({ key, op }) => ({ action: key.split('#')[1], op }));
  const view: Json = {
    openapi: source.openapi,
    info: {
      ...source.info,
      title: `${source.info.title} (single-path view)`,
      summary: `${source.info.summary} One path, POST ${WIRE_PATH}, selected by Action; generated from openapi.yaml.`,
      description: infoDescription(source),
    },
  };
  for (const key of Object.keys(source)) {
    if (key !== 'openapi' && key !== 'info' && key !== 'paths' && key !== 'components') view[key] = source[key];
  }
  view.paths = {
    [WIRE_PATH]: {
      post: {
        operationId: ops.map((o) => o.action).join('Or'),
        summary: `${ops.map((o) => o.action).join(' or ')}, selected by Action`,
        description: byAction(ops.map(({ action, op }) => ({ action, text: `${op.summary}. ${op.description ?? ''}` }))),
        parameters: [actionParameter(ops), ...sharedParameters(ops)],
        requestBody: requestBody(ops),
        responses: responses(source, ops),
      },
    },
  };
  view.components = source.components;
  // YAML 1.1 rules for quoting, so that readers of 1.1 (js-yaml, in Prism and Spectral) read
  // `'2024-01-01'` as a string, not a date; no anchors, so each place reads on its own.
  const doc = new YAML.Document(view, { version: '1.1', aliasDuplicateObjects: false });
  doc.commentBefore = HEADER.split('\n')
    .map((line) => (line ? ` ${line}` : ''))
    .join('\n');
  return doc.toString({ lineWidth: 100 });
}

if (require.main === module) {
  const text = singlePathView(readFileSync(SOURCE_PATH, 'utf8'));
  writeFileSync(VIEW_PATH, text);
  console.log(`wrote ${path.relative(process.cwd(), VIEW_PATH)} (${text.split('\n').length} lines) from ${path.relative(process.cwd(), SOURCE_PATH)}`);
}
