// @ts-check
/**
 * Target text is data, never markup or commands. Whatever a target sent is shown on one line, with
 * control characters (newlines, ESC, BEL, …) made visible as escapes, and with the prefixes CI
 * runners read as workflow commands (GitHub Actions `::error::`, `::add-mask::`; Azure Pipelines
 * `##[group]`, `##vso[`) broken up, so a console line or a log can never become a command.
 *
 * Plain JavaScript, so that the CLI (bin/agc.mjs), which starts without a TypeScript loader, shows
 * text it did not write through the same guard as the suites (client/safe-text.ts re-exports it).
 */

/** Longest piece of target text a console line carries; the reports keep more (see evidence.ts). */
export const MAX_LINE = 2000;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** @param {string} c */
const visible = (c) => {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Breaks `::` and `##` so no runner reads them as a command, wherever the text lands in a line.
 * @param {string} text
 * @returns {string}
 */
export function neutraliseCommands(text) {
  return text.replace(/::/g, ':\\x3a').replace(/##/g, '#\\x23');
}

/**
 * One line, control characters visible, workflow-command prefixes broken, at most `max` characters.
 * @param {unknown} text
 * @returns {string}
 */
export function oneLine(text, max = MAX_LINE) {
  let s = typeof text === 'string' ? text : String(text);
  if (s.length > max) s = `${s.slice(0, max)}… (${s.length - max} more characters)`;
  return neutraliseCommands(s.replace(CONTROL, visible));
}

/**
 * The last guard on what goes to a console: a line that, trimmed, would start a workflow command is
 * prefixed so it cannot. Kept for text that did not go through `oneLine` (a runner's own message
 * quoting a target's answer).
 * @param {string} text
 * @returns {string}
 */
export function guardConsoleText(text) {
  return text
    .split('\n')
    .map((line) => {
      // eslint-disable-next-line no-control-regex
      const bare = line.replace(/\u001b\[[0-9;]*m/g, '').trimStart();
      return bare.startsWith('::') || bare.startsWith('##') || line.includes('##vso[') ? `| ${neutraliseCommands(line)}` : line;
    })
    .join('\n');
}
