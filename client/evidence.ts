/**
 * Bounded evidence. What the kit keeps of a target's answer (attachments, the run's dataset file,
 * the reports) is cut to a size and a nesting depth, with a note of what was cut: a target answering
 * megabytes, or JSON nested thousands deep, must not exhaust the kit or its reporters.
 */
import type { Exchange } from './exchange';
import { curlOf } from './curl';
import { redactText, secretPattern, secretsFromEnv } from './redact';

/** Characters of one body kept as evidence: AG_EVIDENCE_BYTES, 64 KiB by default. */
export function evidenceBytes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AG_EVIDENCE_BYTES;
  return raw && /^\d+$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : 64 * 1024;
}
/** Levels of a target's JSON kept; deeper values are replaced by a note. */
export const EVIDENCE_DEPTH = 64;
/** Exchanges one failure keeps (a page walk may have many). */
const MAX_EXCHANGES = 20;

export const cutNote = (length: number, limit: number) =>
  `[… ${length - limit} more characters cut: evidence is limited to ${limit} characters (AG_EVIDENCE_BYTES)]`;
export const DEPTH_NOTE = `[nested deeper than ${EVIDENCE_DEPTH} levels: cut]`;

export function cutText(text: string, limit = evidenceBytes()): string {
  return text.length > limit ? `${text.slice(0, limit)}${cutNote(text.length, limit)}` : text;
}

/**
 * A copy of a JSON-like value with its depth and its strings bounded, made without recursion (the
 * value may be nested thousands deep); `cut` is set when anything was.
 */
export function boundValue(value: unknown, limit = evidenceBytes(), depth = EVIDENCE_DEPTH): { value: unknown; cut: boolean } {
  let cut = false;
  const copyLeaf = (v: unknown) => {
    if (typeof v === 'string' && v.length > limit) {
      cut = true;
      return cutText(v, limit);
    }
    return v;
  };
  if (!value || typeof value !== 'object') return { value: copyLeaf(value), cut };
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [unknown, Record<string, unknown>, number][] = [[value, root as Record<string, unknown>, 1]];
  while (stack.length) {
    const [src, dst, level] = stack.pop()!;
    for (const [key, v] of Object.entries(src as Record<string, unknown>)) {
      if (v && typeof v === 'object') {
        if (level >= depth) {
          cut = true;
          dst[key] = DEPTH_NOTE;
          continue;
        }
        const child = Array.isArray(v) ? [] : {};
        dst[key] = child;
        stack.push([v, child as Record<string, unknown>, level + 1]);
      } else dst[key] = copyLeaf(v);
    }
  }
  return { value: root, cut };
}

const cutHeaders = (headers: Record<string, string> | undefined, limit: number) =>
  Object.fromEntries(
    Object.entries(headers ?? {})
      .slice(0, 100)
      .map(([k, v]) => [cutText(k, 256), cutText(v, Math.min(limit, 8192))]),
  );

/**
 * An exchange as evidence in attachments and reports: bodies and headers cut, with a note of what
 * was; the parsed JSON (the body shows it) and the cookies the target set (replayed by AUTH-01,
 * never shown) left out.
 */
export function evidenceOf(exchange: Exchange | undefined, limit = evidenceBytes()): unknown {
  if (!exchange || typeof exchange !== 'object') return exchange;
  const { request, response } = exchange;
  const notes: string[] = [];
  const body = (text: string, side: string) => {
    if (text.length > limit) notes.push(`${side} body: ${text.length} characters, ${limit} kept`);
    return cutText(text, limit);
  };
  return {
    request: request && { ...request, headers: cutHeaders(request.headers, limit), body: body(request.body ?? '', 'request') },
    ...curlEvidence(request, limit),
    ...(response
      ? {
          response: {
            status: response.status,
            headers: cutHeaders(response.headers, limit),
            body: body(response.body ?? '', 'response'),
            ...(response.jsonError ? { jsonError: cutText(response.jsonError, 2000) } : {}),
            ...(response.truncated ? { truncated: true } : {}),
          },
        }
      : {}),
    ...(exchange.networkError ? { networkError: cutText(exchange.networkError, 2000) } : {}),
    durationMs: exchange.durationMs,
    ...(notes.length ? { cut: notes.join('; ') } : {}),
  };
}

/**
 * The request as a curl command (client/curl.ts), built from the request as sent, before any cut: a
 * body longer than evidence keeps gets none, since the command would not send what the kit sent.
 */
function curlEvidence(request: Exchange['request'] | undefined, limit: number): { curl?: string; curlNote?: string } {
  if (!request || typeof request.url !== 'string' || typeof request.method !== 'string') return {};
  if ((request.body ?? '').length > limit) return { curlNote: `no curl command: the request body is longer than the ${limit} characters evidence keeps` };
  const { command, note } = curlOf(request);
  return { curl: command, ...(note ? { curlNote: note } : {}) };
}

/**
 * An exchange as the run's dataset keeps it for the tests: the parsed JSON stays (checks read it)
 * but bounded in depth and string length, the body cut; the cookies the target set stay.
 */
export function boundExchange(exchange: Exchange, limit = evidenceBytes()): Exchange {
  if (!exchange?.response) return exchange;
  const { json, body } = exchange.response;
  const bounded = json === undefined ? { value: undefined, cut: false } : boundValue(json, limit);
  return {
    ...exchange,
    response: {
      ...exchange.response,
      body: cutText(body, limit),
      ...(json === undefined ? {} : { json: bounded.value }),
      ...(bounded.cut || body.length > limit ? { cut: `the target's answer was cut to ${limit} characters and ${EVIDENCE_DEPTH} levels of nesting` } : {}),
    },
  };
}

/** The attachment body of a failure or finding: its exchanges as bounded evidence, its texts cut. */
export function evidenceJson(record: { failure?: unknown; exchange?: Exchange; exchanges?: Exchange[]; requirement?: string }): string {
  const limit = evidenceBytes();
  const failure = record.failure && typeof record.failure === 'object' ? boundValue(record.failure, limit, 4).value : record.failure;
  const out: Record<string, unknown> = {
    ...(record.requirement ? { requirement: record.requirement } : {}),
    failure,
    exchange: evidenceOf(record.exchange, limit),
  };
  if (record.exchanges) {
    out.exchanges = record.exchanges.slice(0, MAX_EXCHANGES).map((ex) => evidenceOf(ex, limit));
    if (record.exchanges.length > MAX_EXCHANGES) out.exchangesCut = `${record.exchanges.length - MAX_EXCHANGES} more exchanges not kept`;
  }
  // The exchanges were redacted when received; this is the guard for what a check quoted of them.
  return redactText(JSON.stringify(out, null, 2), secretPattern(secretsFromEnv()));
}
