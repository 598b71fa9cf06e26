import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceSummary } from './verdict';
import { entryOf, heldExchanges, type HarEntry, type HeldExchange } from './har-entries';
import { LOG_SUFFIX } from '../client/exchange-log';
import { oneLine } from '../client/safe-text';

/**
 * exchanges.har of a certification's run (AG_HAR_ALL=1): every exchange the run sent, in the order they were sent, from
 * the files each sending process wrote (client/exchange-log.ts), each already bounded and redacted as evidence is; an
 * exchange that is the evidence of a failure or finding carries it in `_evidenceOf`, as in a plain run's HAR. Written a
 * line at a time: only an index of the lines (where each is, when it started) is held, never the exchanges, and the
 * file as a whole stops at AG_REPORT_TARGET_BYTES, saying how many exchanges it left out. The lines are removed after.
 */

interface Line {
  file: string;
  at: number;
  length: number;
  t: string;
}

/** Where each line of the senders' files is, and when its exchange started, in one order for the whole run. */
function indexOf(dir: string): { lines: Line[]; dropped: number } {
  const lines: Line[] = [];
  let dropped = 0;
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(LOG_SUFFIX)) : [];
  for (const name of files.sort()) {
    const file = path.join(dir, name);
    // One file at a time, each bounded by its writer (AG_REPORT_TARGET_BYTES).
    const bytes = readFileSync(file);
    for (let at = 0; at < bytes.length;) {
      const end = bytes.indexOf(10, at);
      const stop = end < 0 ? bytes.length : end;
      const head = bytes.subarray(at, Math.min(stop, at + 64)).toString('utf8');
      const t = /^\{"t":"([^"]+)"/.exec(head)?.[1];
      if (!t || head.includes('"dropped":true')) dropped++;
      else lines.push({ file, at, length: stop - at, t });
      at = stop + 1;
    }
  }
  // Stable: lines of one process that started in the same millisecond keep their order.
  lines.sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  return { lines, dropped };
}

/**
 * What tells an exchange apart: all it holds but its curl command, which the report writes for an embedded run with
 * "${AG_BASE_URL%/}" in place of the run's port (reporters/collect.ts) while the senders' lines keep the port.
 */
const exchangeKey = (exchange: object): string => JSON.stringify({ ...exchange, curl: undefined });

/** The exchanges the report holds as evidence, by what they hold, with what each is evidence of. */
function evidenceByExchange(s: ConformanceSummary): Map<string, { exchange: HeldExchange; of: HarEntry['_evidenceOf'] }> {
  const held = new Map<string, { exchange: HeldExchange; of: HarEntry['_evidenceOf'] }>();
  for (const r of s.requirements)
    for (const { exchange, failure, test } of heldExchanges(r)) {
      if (!exchange.request) continue;
      const key = exchangeKey(exchange);
      const entry = held.get(key) ?? held.set(key, { exchange, of: [] }).get(key)!;
      entry.of.push({
        requirement: r.id,
        level: r.level,
        check: String(failure.check),
        test: test.noticedIn ? `found while running ${test.noticedIn}` : test.title,
      });
    }
  return held;
}

export function writeFullHar(file: string, s: ConformanceSummary, dir: string, capBytes: number): void {
  const { lines, dropped: droppedBySender } = indexOf(dir);
  const evidence = evidenceByExchange(s);
  const out = openSync(file, 'w');
  let bytes = 0;
  let count = 0;
  let droppedHere = 0;
  let unreadable = 0;
  const put = (entry: HarEntry) => {
    const text = `${count ? ',\n' : '\n'}    ${JSON.stringify(entry)}`;
    if (bytes + text.length > capBytes) return void droppedHere++;
    writeSync(out, text);
    bytes += text.length;
    count++;
  };
  try {
    writeSync(out, `{\n  "log": {\n    "version": "1.2",\n    "creator": ${JSON.stringify({ name: s.kit.name, version: s.kit.version })},\n    "entries": [`);
    const fds = new Map<string, number>();
    try {
      for (const line of lines) {
        const fd = fds.get(line.file) ?? fds.set(line.file, openSync(line.file, 'r')).get(line.file)!;
        const buffer = Buffer.alloc(line.length);
        readSync(fd, buffer, 0, line.length, line.at);
        let parsed: { t: string; x: HeldExchange };
        try {
          parsed = JSON.parse(buffer.toString('utf8')) as { t: string; x: HeldExchange };
        } catch {
          unreadable++;
          continue;
        }
        const key = exchangeKey(parsed.x);
        const held = evidence.get(key);
        evidence.delete(key);
        put(entryOf(parsed.x, parsed.t, held?.of ?? []));
      }
    } finally {
      for (const fd of fds.values()) closeSync(fd);
    }
    // Evidence no sender wrote down (a run whose files were lost): still here, at the run's start.
    for (const { exchange, of } of evidence.values()) put(entryOf(exchange, s.startedAt, of));
    const left = [
      droppedBySender + droppedHere ? `${droppedBySender + droppedHere} exchange(s) left out by that bound` : '',
      unreadable ? `${unreadable} line(s) of the exchange log unreadable` : '',
      lines.length || droppedBySender ? '' : 'no exchange log was found (a merged or interrupted run): only the evidence is here',
    ].filter(Boolean);
    const comment = oneLine(
      `Every exchange of the conformance run against ${s.target.baseURL ?? 'the embedded reference server'} (${s.verdict}), in the order they were sent, passing or not (AG_HAR_ALL, set by agc certify); _evidenceOf names the failures and findings an exchange is evidence of. Tokens redacted, bodies cut to AG_EVIDENCE_BYTES, the file bounded by AG_REPORT_TARGET_BYTES${left.length ? `; ${left.join('; ')}` : ''}. startedDateTime is when the answer came less its duration.`,
    );
    writeSync(out, `\n    ],\n    "comment": ${JSON.stringify(comment)}\n  }\n}\n`);
  } finally {
    closeSync(out);
  }
  rmSync(dir, { recursive: true, force: true });
}
