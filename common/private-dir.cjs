// @ts-check
/**
 * A folder of the user's own under a shared one (the system's temporary folder): what the kit keeps there (parsed YAML,
 * schemas/yaml.ts; an installed kit's copy, bin/agc.mjs) is used only if no one else may have put it there.
 *
 * CommonJS, type-checked by `tsc` through its JSDoc (checkJs): bin/agc.mjs imports it without a TypeScript loader, and
 * the TypeScript that Playwright loads as CommonJS requires it on every Node 20.
 */
'use strict';
const { lstatSync, mkdirSync } = require('node:fs');

/**
 * @param {string} dir
 * @returns {boolean} the folder exists or is made, is a real folder (no link), belongs to this user and no one else may read or write it
 */
function privateDir(dir) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const uid = process.geteuid?.();
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

module.exports = { privateDir };
