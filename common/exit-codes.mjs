// @ts-check
/**
 * The exit status of every command of the kit, defined once: `agc run`, `agc merge`,
 * `agc reference` (and `npm run reference`), `agc profile discover`. Each command's `--help`
 * prints EXIT_HELP; the README's table "The CLI and exit codes" is the one description for people.
 *
 * Plain JavaScript with JSDoc types (type-checked by `tsc`, checkJs), so that bin/agc.mjs imports
 * it without a TypeScript loader and starts fast; the TypeScript programs (discover/, reference/)
 * import it as well.
 */

export const EXIT = Object.freeze({
  /** `conformant` (run, merge): every MUST passed; for the other commands: done. */
  ok: /** @type {0} */ (0),
  /** `non-conformant` (run, merge): a MUST failed and no current waiver covers it. */
  nonConformant: /** @type {1} */ (1),
  /** `incomplete` (run, merge): a MUST could not be assessed; or the target could not be reached or probed (discover). */
  incomplete: /** @type {2} */ (2),
  /** An error of the kit or of its configuration, a usage error included (every command). */
  error: /** @type {3} */ (3),
  /** `--strict-waivers` (run, merge): every MUST passed, but a waiver is stale (its requirement passed) or expired. */
  staleWaivers: /** @type {4} */ (4),
});

/** @typedef {typeof EXIT[keyof typeof EXIT]} ExitCode */

/**
 * What a command exits with when the child it ran (Playwright, the reference server, discover)
 * was ended by a signal without an exit code of its own.
 */
export const SIGNALLED = 128;

/** The exit status a verdict of conformance.json gives; any other value is the kit's error. */
export const VERDICT_EXIT = Object.freeze({
  conformant: EXIT.ok,
  'non-conformant': EXIT.nonConformant,
  incomplete: EXIT.incomplete,
});

/**
 * @param {unknown} verdict the `verdict` of a conformance.json
 * @returns {ExitCode}
 */
export function exitForVerdict(verdict) {
  return typeof verdict === 'string' && Object.hasOwn(VERDICT_EXIT, verdict) ? VERDICT_EXIT[/** @type {keyof typeof VERDICT_EXIT} */ (verdict)] : EXIT.error;
}

/**
 * The exit status of a conformance.json: its verdict's; a conformant run whose waivers fail it
 * (`waivers.failure`, set only under --strict-waivers) exits EXIT.staleWaivers. A verdict short of
 * conformant keeps its own status: the failure or the gap is what to fix first.
 * @param {unknown} report a parsed conformance.json
 * @returns {ExitCode}
 */
export function exitForReport(report) {
  const r = /** @type {{ verdict?: unknown, waivers?: { failure?: unknown } } | null} */ (report);
  const code = exitForVerdict(r?.verdict);
  return code === EXIT.ok && typeof r?.waivers?.failure === 'string' ? EXIT.staleWaivers : code;
}

/** One line per exit status, as every `--help` prints it. @type {readonly [ExitCode, string][]} */
export const EXIT_LINES = Object.freeze([
  [EXIT.ok, 'conformant: every MUST passed (run, merge); for the other commands: done'],
  [EXIT.nonConformant, 'non-conformant: a MUST failed and no current waiver covers it (run, merge)'],
  [EXIT.incomplete, 'incomplete: a MUST could not be assessed (run, merge), or the target could not be reached or probed (run, profile discover)'],
  [EXIT.error, 'error of the kit or of its configuration, a usage error included: the message names the option or variable (every command)'],
  [EXIT.staleWaivers, 'waivers to update: conformant, but with --strict-waivers a waiver is stale (its requirement passed) or expired (run, merge)'],
]);

/** The exit statuses for a `--help`. */
export const EXIT_HELP = `Exit status (the same for every agc command):
${EXIT_LINES.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}`;
