/**
 * Every exchange of a run, for a certification's HAR (AG_HAR_ALL=1, which `agc certify` sets for its runs): a reviewer
 * of a certificate sees what was sent and received, passing or not, as OpenID publishes a certification's logs.
 * Each process that sends (the runner, each worker) appends each exchange as it is answered, as bounded evidence
 * (evidence.ts `evidenceOf`) and redacted, one JSON line, to a file of its own; nothing is held in memory, since a
 * target's answers held by the runner made its memory grow with their count (suites/api.ts). The files live in the
 * report folder, not the run's private folder, which global teardown removes before the reporters end; the HAR
 * reporter (reporters/har-all.ts) gathers them into exchanges.har and removes them.
 */
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from './exchange';
import { evidenceOf } from './evidence';
import { redactText, secretPattern, secretsFromEnv, secretsOf } from './redact';

/** One process's file holds at most this share of the report-wide bound; past it, an exchange is counted, not kept. */
const DROPPED = '{"dropped":true}\n';

/** The folder of one run's exchange files, in its report folder; named by the run id, so two runs never mix. */
export const exchangeLogDir = (reportDir: string, runId: string): string => path.join(reportDir, `.exchanges-${runId}`);

/** The name of one process's file in it. */
export const LOG_SUFFIX = '.jsonl';

/** An earlier run's files under the same run id (AG_RUN_ID given) are not this run's. */
export function clearExchangeLog(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Bytes this process has written, per file. */
const written = new Map<string, number>();

export interface LogBounds {
  /** Characters of one body kept (AG_EVIDENCE_BYTES), as evidence is. */
  limit: number;
  /** Bytes one process's file may hold (AG_REPORT_TARGET_BYTES): the HAR is bounded again as a whole when written. */
  capBytes: number;
  /** The run's tokens: every form of each, and of the environment's, is blotted out of the line (the exchange was redacted when received; this guards the rest). */
  tokens: readonly (string | undefined)[];
}

/**
 * Appends one exchange. A line starts with its start time (`{"t":"…"`), so the reporter orders the lines without parsing
 * them all at once. Synchronous: one line is written whole before the next, and the process's file is its own.
 */
export function logExchange(dir: string, exchange: Exchange, bounds: LogBounds): void {
  const file = path.join(dir, `${process.pid}${LOG_SUFFIX}`);
  const t = new Date(Date.now() - Math.max(0, exchange.durationMs || 0)).toISOString();
  const redactor = secretPattern([...new Set([...secretsOf(bounds.tokens), ...secretsFromEnv()])].sort((a, b) => b.length - a.length));
  const line = `${redactText(JSON.stringify({ t, x: evidenceOf(exchange, bounds.limit) }), redactor)}\n`;
  const before = written.get(file) ?? 0;
  const text = before + line.length > bounds.capBytes ? `{"t":"${t}",${DROPPED.slice(1)}` : line;
  if (before === 0) mkdirSync(dir, { recursive: true, mode: 0o700 });
  appendFileSync(file, text, { mode: 0o600 });
  written.set(file, before + text.length);
}
