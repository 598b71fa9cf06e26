/**
 * What the report's pictures (docs/images/) were made from: the sources of index.html's template. The
 * pictures' script records this hash beside them and tests/docs.test.ts compares it with the files of
 * the day, so a template change without new pictures fails. A hash, not file times: a clone resets those.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The templates of the pictured pages: index.html, its parts with the styles, and agc compare's page. */
export const TEMPLATE_FILES = ['reporters/html.ts', 'reporters/html-parts.ts', 'compare/html.ts'] as const;

/** Where the pictures and their record live, relative to the kit's root. */
export const PICTURES_DIR = 'docs/images';
export const PICTURES_RECORD = 'docs/images/pictures.json';
/** A first screen of a laptop: what a reader sees before scrolling, small enough to keep in git. */
export const VIEWPORT = { width: 1200, height: 900 } as const;

export interface PicturesRecord {
  /** sha256 of TEMPLATE_FILES as templateHash computes it. */
  templateHash: string;
  templateFiles: string[];
  /** When the script ran, and against what; for people, no test reads them. */
  madeAt: string;
  pictures: { file: string; shows: string; verdict: string; width: number; height: number }[];
}

/** sha256 over each file's path and text, line endings made LF so a checkout with CRLF hashes the same. */
export function templateHash(root: string, files: readonly string[] = TEMPLATE_FILES): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file), 'utf8').replace(/\r\n/g, '\n'));
    hash.update('\0');
  }
  return hash.digest('hex');
}
