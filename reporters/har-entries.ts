/** The evidence's exchanges as HAR 1.2 entries: what the evidence HAR (har.ts) and a certification's full HAR (har-all.ts) both write. */
import { STATUS_CODES } from 'node:http';
import type { ConformanceSummary, FailureEvidence, Outcome, RequirementResult } from './verdict';
import { oneLine } from '../client/safe-text';

interface HarHeader {
  name: string;
  value: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

const headerList = (headers: unknown): HarHeader[] =>
  headers && typeof headers === 'object' ? Object.entries(headers as Record<string, unknown>).map(([name, value]) => ({ name, value: str(value) })) : [];

const headerValue = (headers: HarHeader[], name: string): string | undefined => headers.find((h) => h.name.toLowerCase() === name)?.value;

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** An exchange as the report holds it (client/evidence.ts `evidenceOf`), or the note left when it was dropped. */
export interface HeldExchange {
  request?: { method?: unknown; url?: unknown; headers?: unknown; body?: unknown };
  response?: { status?: unknown; headers?: unknown; body?: unknown; jsonError?: unknown; truncated?: unknown };
  networkError?: unknown;
  durationMs?: unknown;
  cut?: unknown;
  dropped?: unknown;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text: string; comment?: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: 0; wait: number; receive: 0 };
  comment: string;
  /** The requirements and checks whose evidence this exchange is (HAR allows custom fields starting with `_`); empty in a certification's HAR for an exchange that is evidence of nothing. */
  _evidenceOf: { requirement: string; level: string; check: string; test: string }[];
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment: string;
  };
}

/** The exchanges a requirement's report holds, each with the failure and test it is evidence of. */
export function* heldExchanges(r: RequirementResult): Generator<{ exchange: HeldExchange; failure: FailureEvidence; test: Outcome }> {
  for (const test of r.tests)
    for (const failure of test.failures)
      if (failure.exchange && typeof failure.exchange === 'object') yield { exchange: failure.exchange as HeldExchange, failure, test };
}

export function renderHar(s: ConformanceSummary): Har {
  // Exchanges carry how long they took (durationMs), not when they started. Each entry starts at
  // the run's start plus its order in milliseconds: tools sort and lay entries out by
  // startedDateTime, and this keeps the report's order (catalogue order, then test, then failure)
  // without claiming a time the kit did not measure.
  const runStart = Date.parse(s.startedAt);
  const start = Number.isFinite(runStart) ? runStart : 0;
  const entries = new Map<string, HarEntry>();
  let dropped = 0;
  for (const r of s.requirements) {
    for (const { exchange, failure, test } of heldExchanges(r)) {
      if (!exchange.request) {
        if (exchange.dropped) dropped++;
        continue;
      }
      const evidenceOf = {
        requirement: r.id,
        level: r.level,
        check: str(failure.check),
        test: test.noticedIn ? `found while running ${test.noticedIn}` : test.title,
      };
      // The same exchange held twice (a finding and the evidence of one request) is one entry.
      const key = JSON.stringify(exchange);
      const known = entries.get(key);
      if (known) {
        known._evidenceOf.push(evidenceOf);
        known.comment = commentOf(known._evidenceOf);
        continue;
      }
      entries.set(key, entryOf(exchange, new Date(start + entries.size).toISOString(), [evidenceOf]));
    }
  }
  return {
    log: {
      version: '1.2',
      creator: { name: s.kit.name, version: s.kit.version },
      entries: [...entries.values()],
      comment: oneLine(
        `Evidence of the failures and findings of the conformance run against ${s.target.baseURL ?? 'no target'} (${s.verdict}), as conformance.json holds it: tokens redacted, bodies cut to AG_EVIDENCE_BYTES, the report bounded by AG_REPORT_TARGET_BYTES${dropped ? `; ${dropped} exchange(s) dropped by that bound are not here` : ''}. Each entry starts at the run's start (${s.startedAt}) plus its order in ms: the kit records durations, not start times.`,
      ),
    },
  };
}

export const commentOf = (list: HarEntry['_evidenceOf']) => oneLine(list.map((e) => `${e.requirement} [${e.level}] ${e.check} (${e.test})`).join('; '));

export function entryOf(ex: HeldExchange, startedDateTime: string, evidenceOf: HarEntry['_evidenceOf']): HarEntry {
  const durationMs = Math.max(0, Number(ex.durationMs) || 0);
  const cut = str(ex.cut);
  const url = str(ex.request?.url);
  const requestHeaders = headerList(ex.request?.headers);
  const requestBody = str(ex.request?.body);
  const method = str(ex.request?.method) || 'GET';
  const res = ex.response;
  const responseHeaders = headerList(res?.headers);
  const responseBody = str(res?.body);
  // The kit decodes gzip/deflate/br and may cut a body: then the bytes on the wire are not known (-1, as HAR says).
  const responseSizeKnown = !!res && !headerValue(responseHeaders, 'content-encoding') && !/response body/.test(cut) && res.truncated !== true;
  const contentNotes = [
    res?.truncated === true ? 'the kit stopped reading this answer at its read cap' : '',
    /response body/.test(cut) ? cut : '',
    str(res?.jsonError) ? `not JSON: ${str(res?.jsonError)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const status = res ? Number(res.status) || 0 : 0;
  return {
    startedDateTime,
    time: durationMs,
    request: {
      method,
      url,
      // The kit speaks HTTP/1.1 (node:http, node:https).
      httpVersion: 'HTTP/1.1',
      // Cookies are never shown: the kit keeps the ones a target set only to send them back (AUTH-01).
      cookies: [],
      headers: requestHeaders,
      queryString: queryOf(url),
      ...(requestBody || !['GET', 'HEAD'].includes(method.toUpperCase())
        ? { postData: { mimeType: headerValue(requestHeaders, 'content-type') ?? '', text: requestBody } }
        : {}),
      headersSize: -1,
      bodySize: /request body/.test(cut) ? -1 : Buffer.byteLength(requestBody),
    },
    response: {
      status,
      // The standard phrase of the status: the kit does not keep the target's own reason phrase.
      statusText: res ? (STATUS_CODES[status] ?? '') : '',
      httpVersion: res ? 'HTTP/1.1' : '',
      cookies: [],
      headers: responseHeaders,
      content: {
        size: Buffer.byteLength(responseBody),
        mimeType: headerValue(responseHeaders, 'content-type') ?? (res ? 'x-unknown' : ''),
        text: responseBody,
        ...(contentNotes ? { comment: oneLine(contentNotes) } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseSizeKnown ? Buffer.byteLength(responseBody) : -1,
      // No HTTP answer at all (refused, reset, timed out): status 0 and the error, as browsers write it.
      ...(res ? {} : { _error: str(ex.networkError) || 'no response' }),
    },
    cache: {},
    timings: { send: 0, wait: durationMs, receive: 0 },
    comment: evidenceOf.length ? commentOf(evidenceOf) : 'sent by the kit; evidence of no failure',
    _evidenceOf: evidenceOf,
  };
}
