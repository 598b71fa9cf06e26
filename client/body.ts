/** Reading a target's answer body: bounded, decoded whatever coding it came in, and its JSON found after a printed prefix. */
import zlib from 'node:zlib';

/** Bodies beyond this are cut short so a target answering megabytes cannot exhaust the kit. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** How many `{` of a body that is not JSON are tried as the start of the JSON after a prefix: each try parses the rest once. */
const PREFIX_TRIES = 8;

/**
 * The offset of the first `{` from which the rest of the body parses as one JSON object, when something was printed
 * before it (PHP's "Deprecated: …" line with display_errors on, a UTF-8 byte-order mark); undefined when none of the
 * first few `{` does. Bounded: at most PREFIX_TRIES parses of a body the client already bounded.
 */
export function jsonAfterPrefix(body: string): number | undefined {
  let at = body.indexOf('{', 1);
  for (let tries = 0; at > 0 && tries < PREFIX_TRIES; tries++, at = body.indexOf('{', at + 1)) {
    try {
      const parsed: unknown = JSON.parse(body.slice(at));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return at;
    } catch {
      // Not here: the next `{`.
    }
  }
  return undefined;
}

/**
 * RFC 9110 §12.5.3: a request with no Accept-Encoding accepts any coding, so a proxy in front of a
 * target may compress whatever the kit asked. The body is read as the target meant it, whatever
 * was sent; what a coding inflates to is bounded like the wire bytes.
 */
export function decodeBody(raw: Buffer, encoding: string | string[] | undefined): { bytes: Buffer; error?: string } {
  const codings = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? ''))
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let bytes = raw;
  const options = { maxOutputLength: MAX_RESPONSE_BYTES };
  // Codings are listed in the order they were applied: undone last first.
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = zlib.gunzipSync(bytes, options);
      else if (coding === 'deflate') bytes = inflateEither(bytes, options);
      else if (coding === 'br') bytes = zlib.brotliDecompressSync(bytes, options);
      else return { bytes, error: `Content-Encoding ${coding} is not one the kit can decode (gzip, deflate, br)` };
    } catch (error) {
      return { bytes: raw, error: `Content-Encoding ${coding}, but the body does not decode: ${(error as Error).message}` };
    }
  }
  return { bytes };
}

/** "deflate" is zlib-wrapped per RFC 9110, but some servers send raw deflate: both are read. */
function inflateEither(bytes: Buffer, options: zlib.ZlibOptions): Buffer {
  try {
    return zlib.inflateSync(bytes, options);
  } catch {
    return zlib.inflateRawSync(bytes, options);
  }
}
