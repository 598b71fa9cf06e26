/**
 * Redaction (client/redact.ts) on its own: each form a target may echo a token in is found, where it
 * stands in the text, and what surrounds it is kept as it was, escapes included. The hostile target
 * (tests/hostile.test.ts) checks the same end to end, in every file a run writes.
 */
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { holdsSecret, REDACTED, redactText, secretPattern, secretsOf } from '../client/redact';

const TOKEN = 'tok-Primary-7f3a9c2e';
const SPACED = 'Basic user:pass word';
const redactor = secretPattern(secretsOf([TOKEN, SPACED]));

const unicodeEscaped = (text: string, backslashes = 1) =>
  [...text].map((c) => `${'\\'.repeat(backslashes)}u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');
const percentEncoded = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

test('a token is replaced where it stands, and the escapes around it are kept as they were', () => {
  const cases: [string, string][] = [
    // JSON escapes before and after, none in the token.
    [`{"a":"caf\\u00e9 \\/","t":"${TOKEN}","b":"\\u00e9"}`, `{"a":"caf\\u00e9 \\/","t":"${REDACTED}","b":"\\u00e9"}`],
    // Every character of the token escaped, as some JSON writers do (ensure_ascii and friends).
    [`"x":"${unicodeEscaped(TOKEN)}" \\u0041`, `"x":"${REDACTED}" \\u0041`],
    // JSON inside JSON doubles the backslashes.
    [`"\\\\u00e9 ${unicodeEscaped(TOKEN, 2)}!"`, `"\\\\u00e9 ${REDACTED}!"`],
    // Percent-encoded in a URL, behind other percent escapes.
    [`/cb?n=%C3%A9&t=${percentEncoded(TOKEN)}&x=%2F`, `/cb?n=%C3%A9&t=${REDACTED}&x=%2F`],
    // HTML entities around it, and inside the spaced secret a `+` read as its space.
    [`&lt;b&gt;${TOKEN}&amp;c &quot;${SPACED.replace(/ /g, '+')}&quot;`, `&lt;b&gt;${REDACTED}&amp;c &quot;${REDACTED}&quot;`],
    // Half a token escaped: the token still, from its first character to its last.
    [`a\\u00e9b${TOKEN.slice(0, 9)}${unicodeEscaped(TOKEN.slice(9))}c\\u00e9`, `a\\u00e9b${REDACTED}c\\u00e9`],
  ];
  for (const [text, expected] of cases) expect(redactText(text, redactor), text).toBe(expected);
});

test('a token in base64, at each of the three alignments, is found inside the longer value', () => {
  for (const lead of ['', 'x', 'xy', 'xyz']) {
    const encoded = Buffer.from(`${lead}${TOKEN}:rest`).toString('base64');
    const text = `Authorization: Basic ${encoded}`;
    expect(holdsSecret(text, redactor), lead).toBe(true);
    expect(holdsSecret(redactText(text, redactor), redactor), lead).toBe(false);
  }
});

/** Text that holds no secret: characters escapes are made of, and escapes of characters no secret has. */
const filler = fc
  .array(fc.constantFrom('\\', '\\\\', 'u', '00e9', '%', '%2F', '&', '&amp;', ';', '+', '/', '"', 'a', 'Z', ' ', '\n', '\\u00e9', '\\/'), { maxLength: 12 })
  .map((parts) => parts.join(''));

/** The token written in one of the forms a target may echo it in. */
const echoed = fc.constantFrom(
  TOKEN,
  unicodeEscaped(TOKEN),
  unicodeEscaped(TOKEN, 2),
  percentEncoded(TOKEN),
  JSON.stringify(TOKEN).slice(1, -1).replace(/-/g, '\\u002d'),
  SPACED.replace(/ /g, '+'),
  SPACED.replace(/:/g, '%3A'),
);

test('wherever a token is echoed among escapes, nothing of it is left, and text without one is left unchanged (property)', () => {
  fc.assert(
    fc.property(filler, echoed, filler, (before, token, after) => {
      const text = `${before}${token}${after}`;
      const redacted = redactText(text, redactor);
      // Plain booleans, not expect(): Playwright's expect captures a stack each time, which thousands of runs feel.
      return (
        holdsSecret(text, redactor) &&
        redacted.includes(REDACTED) &&
        !holdsSecret(redacted, redactor) &&
        // What comes after the token's last character is kept (its escapes stand alone: the token ends in a letter or digit).
        redacted.endsWith(after) &&
        redactText(before + after, redactor) === before + after
      );
    }),
    { numRuns: 1000, seed: 7 },
  );
});
