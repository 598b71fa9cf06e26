/**
 * Durability across the runs of a certification: after each run but the first, `agc certify` reads back by Id every
 * group the earlier runs created and saw listed (their created.json, facts/created.ts), each with the token it was
 * created through, and judges the answers as VIS-02's and CREATE-02's own tests judge theirs: each group still listed
 * (staysVisible), with the values sent (itemMatchesSent). `--span` spreads the runs over time, so that a certificate
 * covers what a run of a few seconds cannot: a snapshot that stops refreshing, groups dropped with age.
 *
 * Pure: the span, the schedule, which reads to send and how to judge their answers. Sending is certify/read-back.ts's.
 */
import type { Exchange } from '../client/exchange';
import { evidenceOf } from '../client/evidence';
import type { Profile } from '../schemas/profile';
import type { CheckContext, Failure } from '../facts/judgement';
import { CREATED_VIA, type CreatedGroup, type CreatedVia } from '../facts/created';
import type { Verdict } from '../reporters/verdict';
import { idReads, type ListQuery } from '../suites/list-body';
import { itemMatchesSent, itemsOf, LISTED, staysVisible } from '../suites/checks';

// ---------------------------------------------------------------- the span and the schedule

/**
 * The default span: none, the runs back to back, as before there was a span. A span is a wait the certifier chooses
 * for their target (minutes for a cache, hours for a retention job); a default wait of minutes would slow every CI job
 * that certifies, and gains nothing against the embedded server, which starts afresh with each run. The certificate
 * says which span it covers (`durability.span`).
 */
export const DEFAULT_SPAN = '0';
/** A week: longer is most likely a typo (1000h), and a certification that long is better several certificates. */
export const MAX_SPAN_MS = 7 * 86_400_000;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `20s`, `5m`, `1h`, `2d`, or `0`: the span in ms, or undefined for anything else (a usage error). */
export function parseSpan(text: string): number | undefined {
  const m = /^(\d{1,9})(s|m|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  if (!m[2]) return Number(m[1]) === 0 ? 0 : undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms <= MAX_SPAN_MS ? ms : undefined;
}

export const SPAN_USAGE = `--span takes a duration: a whole number with s, m, h or d (20s, 5m, 1h, 2d; at most 7d), or 0 for runs back to back`;

/** A span as people read it: 0, 20 s, 5 min, 1 h 30 min. */
export function showSpan(ms: number): string {
  if (ms <= 0) return '0 (back to back)';
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)} ${unit}`);
    rest %= size;
  }
  return parts.join(' ');
}

/** When each run starts, in ms after the first: evenly over the span, run 1 at 0 and run N at its end. */
export function runOffsets(runs: number, spanMs: number): number[] {
  return Array.from({ length: runs }, (_, i) => (runs > 1 ? Math.round((spanMs * i) / (runs - 1)) : 0));
}

// ---------------------------------------------------------------- which reads

/** At most this many requests per read-back (besides the run's own, at most 250): a few lists, or one per Id. */
export const READ_BACK_MAX_REQUESTS = 12;

export interface EarlierGroup extends CreatedGroup {
  /** The run that created it. */
  run: number;
}

export interface PlannedRead {
  via: CreatedVia;
  query: ListQuery;
  body: Record<string, unknown>;
  /** The groups this read asks for by Id. */
  groups: EarlierGroup[];
}

/**
 * The reads of the earlier runs' groups: per creating token, lists filtered by their Ids, as many Ids a request as a
 * page holds (list.pageSize.maximum), or one request per Id where the Id filter takes one (list.idFilterTakes: one;
 * suites/list-body.ts idReads). At most `maxRequests`: past that, the first run's groups (the oldest), then the
 * previous run's (never read back yet), then the others oldest first; `left` counts those not read this time.
 */
export function planReadBack(profile: Profile, earlier: EarlierGroup[], maxRequests = READ_BACK_MAX_REQUESTS): { reads: PlannedRead[]; left: number } {
  const perPage = profile.list.pageSize.maximum;
  const runs = [...new Set(earlier.map((g) => g.run))].sort((a, b) => a - b);
  const order = [...new Set([runs[0], runs[runs.length - 1], ...runs])].filter((r) => r !== undefined);
  const cost = (groups: EarlierGroup[]) =>
    CREATED_VIA.reduce((sum, via) => {
      const n = groups.filter((g) => g.via === via).length;
      return sum + (profile.list.idFilterTakes === 'one' ? n : Math.ceil(n / perPage));
    }, 0);
  const chosen: EarlierGroup[] = [];
  for (const run of order) for (const g of earlier.filter((x) => x.run === run)) if (cost([...chosen, g]) <= maxRequests) chosen.push(g);
  const reads: PlannedRead[] = [];
  for (const via of CREATED_VIA) {
    const mine = chosen.filter((g) => g.via === via).sort((a, b) => a.run - b.run);
    for (let at = 0; at < mine.length; at += perPage) {
      const page = mine.slice(at, at + perPage);
      for (const { query, body } of idReads(profile, { groupIds: page.map((g) => g.id), pageSize: perPage }))
        reads.push({ via, query, body, groups: page.filter((g) => query.groupIds!.includes(g.id)) });
    }
  }
  return { reads, left: earlier.length - chosen.length };
}

// ---------------------------------------------------------------- judging the answers

export interface DurabilityFinding {
  /** The requirement that failed: VIS-02 (a group gone), CREATE-02 (its values changed), or the owner of a precondition. */
  requirement: string;
  failure: Failure;
  /** The run after which the read was sent. */
  afterRun: number;
  /** The groups the finding is about: `run-1 p0 <Id>`. */
  groups: string[];
  /** The read's exchange, bounded and redacted as the kit's evidence is (client/evidence.ts). */
  exchange: unknown;
}

export interface NotAssessed {
  afterRun: number;
  reason: string;
  groups: string[];
}

export interface ReadAnswer extends PlannedRead {
  exchange: Exchange;
}

const label = (g: EarlierGroup) => `run-${g.run} ${g.key} ${g.id}`;

/** How long after their creates the read was answered: `21 s`, or `19 s to 23 s`. */
function ages(groups: EarlierGroup[], answeredAt: number): string {
  const seconds = groups.map((g) => Math.max(0, Math.round((answeredAt - Date.parse(g.createdAt)) / 1000)));
  const [low, high] = [Math.min(...seconds), Math.max(...seconds)];
  return low === high ? `${low} s` : `${low} s to ${high} s`;
}

/**
 * Judges the read-back after run `afterRun`, as VIS-02's test judges its reads (LISTED, then staysVisible) and CREATE-02's
 * (itemMatchesSent, the fields sent only): a read refused or not a list is the finding of the requirement that owns it
 * (status 200 is VIS-02's own, as in its test); a group missing is VIS-02's, a group listed otherwise than sent is
 * CREATE-02's. A read that got no answer, or whose answer shows another profile, assesses nothing: not assessed.
 */
export function judgeReadBack(
  answers: ReadAnswer[],
  context: CheckContext,
  afterRun: number,
  answeredAt: number,
): { findings: DurabilityFinding[]; notAssessed: NotAssessed[] } {
  const findings: DurabilityFinding[] = [];
  const notAssessed: NotAssessed[] = [];
  const finding = (requirement: string, failure: Failure, read: ReadAnswer, groups: EarlierGroup[]) =>
    findings.push({ requirement, failure, afterRun, groups: groups.map(label), exchange: evidenceOf(read.exchange) });
  for (const read of answers) {
    const { exchange, groups } = read;
    if (!exchange.response) {
      notAssessed.push({ afterRun, reason: `no answer to the read by Id: ${exchange.networkError ?? 'unknown'}`, groups: groups.map(label) });
      continue;
    }
    let judged = true;
    for (const step of LISTED) {
      const [owner, check] = 'owner' in step ? [step.owner as string, step.check] : ['VIS-02', step];
      const failure = check(exchange, context);
      if (!failure) continue;
      judged = false;
      if (failure.profileMismatch) notAssessed.push({ afterRun, reason: `${failure.check}: ${failure.profileMismatch}`, groups: groups.map(label) });
      else finding(owner, failure, read, groups);
      break;
    }
    if (!judged) continue;
    const listed = new Set(itemsOf(exchange).map((item) => item.Id));
    const lost = groups.filter((g) => !listed.has(g.id));
    if (lost.length) {
      const where = `missing from a read of them by their Ids after run ${afterRun}, ${ages(lost, answeredAt)} after their creates (${lost.map((g) => `run ${g.run} ${g.key}`).join(', ')})`;
      const failure = staysVisible(
        lost.map((g) => g.id),
        where,
      )(exchange, context);
      if (failure) finding('VIS-02', failure, read, lost);
    }
    for (const g of groups.filter((x) => listed.has(x.id))) {
      const failure = itemMatchesSent(g.id, g.sent, {})(exchange, context);
      if (failure)
        finding('CREATE-02', { ...failure, received: `run ${g.run} ${g.key}, ${ages([g], answeredAt)} after its create: ${failure.received}` }, read, [g]);
    }
  }
  return { findings, notAssessed };
}

// ---------------------------------------------------------------- what the certificate says

/** At most this many findings in a certificate, each with its exchange: the first say what is wrong. */
export const MAX_FINDINGS = 30;

export interface ReadBackRecord {
  afterRun: number;
  /** When the answers were in (ISO 8601). */
  at: string;
  /** The runs whose groups were read. */
  createdIn: number[];
  groups: number;
  requests: number;
  /** Groups of earlier runs not read this time (READ_BACK_MAX_REQUESTS). */
  left: number;
  /** Seconds from the oldest create read to this read. */
  oldestAgeSeconds: number | null;
  verdict: Verdict;
}

export interface CertifiedDurability {
  /** The span over which the runs were spread, in ms and as people read it. */
  span: { ms: number; shown: string };
  /** null when not assessed (one run, or each run its own embedded server): then it adds nothing to the verdict. */
  verdict: Verdict | null;
  /** One line: what was read back, or why nothing was. */
  summary: string;
  reads: ReadBackRecord[];
  findings: DurabilityFinding[];
  /** More findings than MAX_FINDINGS: how many were left out. */
  findingsLeftOut?: number;
  notAssessed: NotAssessed[];
}

/** Failed over not assessed over passed, as a run's verdict: a finding fails it, a read that assessed nothing leaves it incomplete. */
export const readBackVerdict = (findings: readonly unknown[], notAssessed: readonly unknown[]): Verdict =>
  findings.length ? 'non-conformant' : notAssessed.length ? 'incomplete' : 'conformant';

/** The certificate's durability section, from every read-back (none when not assessed, with its reason). */
export function certifiedDurability(
  spanMs: number,
  reads: { record: ReadBackRecord; findings: DurabilityFinding[]; notAssessed: NotAssessed[] }[],
  notAssessedBecause?: string,
): CertifiedDurability {
  const span = { ms: spanMs, shown: showSpan(spanMs) };
  if (notAssessedBecause) return { span, verdict: null, summary: `not assessed: ${notAssessedBecause}`, reads: [], findings: [], notAssessed: [] };
  const findings = reads.flatMap((r) => r.findings);
  const notAssessed = reads.flatMap((r) => r.notAssessed);
  const verdict = readBackVerdict(findings, notAssessed);
  const groups = reads.reduce((n, r) => n + r.record.groups, 0);
  const oldest = Math.max(0, ...reads.map((r) => r.record.oldestAgeSeconds ?? 0));
  const first = findings[0] ? `; first: ${findings[0].requirement} ${findings[0].failure.received}` : '';
  return {
    span,
    verdict,
    summary: `${reads.length} read-back${reads.length === 1 ? '' : 's'} of ${groups} groups of earlier runs, the oldest ${oldest} s after its create: ${findings.length} finding${findings.length === 1 ? '' : 's'}${notAssessed.length ? `, ${notAssessed.length} read${notAssessed.length === 1 ? '' : 's'} not assessed` : ''}${first}`,
    reads: reads.map((r) => r.record),
    findings: findings.slice(0, MAX_FINDINGS),
    ...(findings.length > MAX_FINDINGS ? { findingsLeftOut: findings.length - MAX_FINDINGS } : {}),
    notAssessed,
  };
}
