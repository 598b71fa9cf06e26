/**
 * The map enforced (in the manner of Playwright's DEPS.list files and utils/check_deps.js):
 * each room states in its DEPS.list which rooms it may import, and every relative import of every
 * code file is judged against the nearest DEPS.list above it. Pure over a set of files, so that a
 * test can plant a wrong arrow and see it caught.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A room's rules: the folder its DEPS.list sits in, what all its files may import, and per-file additions. */
export interface Rules {
  room: string;
  allowed: string[];
  byFile: Record<string, string[]>;
}

export const CODE = /\.(ts|mts|cts|mjs|cjs|js)$/;
const SKIPPED = new Set(['node_modules', '.git', 'examples', 'test-results', 'conformance-report', 'playwright-report', 'blob-report']);

/** Every code file of the tree, relative to root, as git would see them (ignored folders left out). */
export function codeFiles(root: string, dir = ''): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = dir ? `${dir}/${name}` : name;
    if (SKIPPED.has(name)) return [];
    if (statSync(path.join(root, rel)).isDirectory()) return codeFiles(root, rel);
    return CODE.test(name) ? [rel] : [];
  });
}

export function parseDeps(room: string, text: string): Rules {
  const rules: Rules = { room, allowed: [], byFile: {} };
  let section: string[] = rules.allowed;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const file = /^\[(.+)\]$/.exec(line)?.[1];
    if (file) section = rules.byFile[file] = [];
    else section.push(line);
  }
  return rules;
}

/** Every DEPS.list of the tree, keyed by its folder ('' for the top). */
export function readRules(root: string, files: string[]): Map<string, Rules> {
  const folders = new Set(['', ...files.map((f) => path.posix.dirname(f)).flatMap((d) => d.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/')))]);
  const rules = new Map<string, Rules>();
  for (const folder of folders) {
    const file = path.join(root, folder, 'DEPS.list');
    if (existsSync(file)) rules.set(folder === '.' ? '' : folder, parseDeps(folder === '.' ? '' : folder, readFileSync(file, 'utf8')));
  }
  return rules;
}

/** The relative specifiers a source imports: static, re-exports, type-only, dynamic import() and require(). */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) if (m[1].startsWith('.')) found.push(m[1]);
  return found;
}

/** The file a specifier names, as the loaders resolve it (extension or index added), or its plain path when none is known. */
export function resolveImport(from: string, specifier: string, known: Set<string>): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, '.ts')]) if (known.has(candidate)) return candidate;
  return base;
}

function nearestRules(file: string, rules: Map<string, Rules>): Rules | undefined {
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const key = dir === '.' ? '' : dir;
    const found = rules.get(key);
    if (found) return found;
    if (!key) return undefined;
  }
}

const within = (file: string, entry: string): boolean => (entry.endsWith('/') ? file.startsWith(entry) : file === entry);

/** Every arrow the rules do not allow, and every file no room's rules cover, as one line each. */
export function violations(sources: Map<string, string>, rules: Map<string, Rules>): string[] {
  const known = new Set(sources.keys());
  const out: string[] = [];
  for (const [file, source] of sources) {
    const own = nearestRules(file, rules);
    const atTop = !file.includes('/');
    if (!own || (own.room === '' && !atTop)) {
      out.push(`${file}: no DEPS.list in its room`);
      continue;
    }
    if (own.room === '' && !own.byFile[file]) {
      out.push(`${file}: the top's DEPS.list has no [${file}] section`);
      continue;
    }
    const allowed = [...own.allowed, ...(own.byFile[path.posix.basename(file)] ?? [])];
    for (const specifier of importsOf(source)) {
      const target = resolveImport(file, specifier, known);
      const inOwnRoom = own.room !== '' && within(target, `${own.room}/`);
      if (!inOwnRoom && !allowed.some((entry) => within(target, entry))) out.push(`${file} -> ${target}: ${own.room || 'the top'}/DEPS.list does not allow it`);
    }
  }
  return out;
}

/** Import cycles between files (type-only imports included: a cycle of types is a seam in the wrong place). */
export function cycles(sources: Map<string, string>): string[][] {
  const known = new Set(sources.keys());
  const edges = new Map(
    [...sources].map(([file, source]) => [
      file,
      importsOf(source)
        .map((s) => resolveImport(file, s, known))
        .filter((t) => known.has(t)),
    ]),
  );
  // Tarjan's strongly connected components: a component of more than one file is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}
