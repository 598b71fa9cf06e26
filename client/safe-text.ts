/**
 * Target text is data, never markup or commands: the one guard every caller's console text goes
 * through. It lives in common/ as plain JavaScript so that the CLI shares it; the kit's rooms read
 * it here, in the HTTP client's room, beside the redaction and the evidence bounds.
 */
export { MAX_LINE, guardConsoleText, neutraliseCommands, oneLine } from '../common/safe-text.mjs';
