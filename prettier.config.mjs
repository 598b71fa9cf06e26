// TypeScript is parsed with Babel's parser, not TypeScript's: the same formatting for every file of the kit, and
// `prettier --check`, part of `npm test`, took 4.9 s instead of 6.3 s here. A syntax Babel does not read yet fails
// the check with a parse error, never by formatting it otherwise.
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
  overrides: [{ files: '*.ts', options: { parser: 'babel-ts' } }],
};
