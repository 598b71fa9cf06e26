/**
 * Reads sent once per run and shared by every worker through the run's private folder (run-dir.ts).
 *
 * The caller decides what may be shared (suites/api.ts: a list confined to groups already seen
 * listed, whose right answer cannot change during the run). Here only the mechanics: the first
 * worker to ask claims the read and sends it; one that asks meanwhile waits for that answer rather
 * than sending the same request again; later ones read it. Only an answer the caller calls shareable
 * (by default a 200) within the evidence bounds is shared: anything else is each asker's own to
 * receive, and a claim that never answers (its worker
 * died, its request hung) is given up after the caller's own timeout, and the read sent again.
 *
 * A run of one worker (`oneWorker`) has no other worker to share with: there its answers stay in the
 * worker's memory, kept exactly as they would be published, and only what the runner published (the
 * create-and-wait phase's reads, the requests it sends ahead: suites/plans/) is read from the folder:
 * some 170 files fewer per run, each a create on the disk (about 0.3 ms on this machine's), and fewer
 * copies of the target's answers left in a temp folder.
 *
 * The runner claims every request it will send ahead before any test may ask (`claim`), then sends them
 * (`answer`): a worker that asks meanwhile, one of many or the only one, waits for that answer.
 */
import { isThrottled } from './retry';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from './exchange';
import { evidenceBytes } from './evidence';
import { ensureRunDir, publishPrivate, runFile } from './run-dir';

/** How often a waiting worker looks for the claimed answer: small beside any target's latency. */
const POLL_MS = 5;

/** The answers each run's one worker keeps in memory (ReadCache.oneWorker), as published text: each reader parses its own copy. */
const keptByRun = new Map<string, Map<string, Promise<string>>>();

export class ReadCache {
  private readonly dir: string;
  private readonly mine = new Map<string, Promise<Exchange>>();
  private readonly kept: Map<string, Promise<string>>;

  constructor(
    runId: string,
    /** How long to wait for another worker's claimed read before sending it again. */
    private readonly patienceMs: number,
    /** This worker is the run's only one: what it sends is shared with no other process. */
    private readonly oneWorker = false,
  ) {
    ensureRunDir(runId);
    this.dir = runFile(runId, 'reads');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.kept = keptByRun.get(runId) ?? new Map();
    keptByRun.set(runId, this.kept);
  }

  static key(parts: unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  }

  /**
   * The shared answer to this read, sending it only if no worker has; `sent` tells whether this call
   * sent it. `shareable` says which answers the others may take (by default a 200 alone).
   */
  read(
    key: string,
    send: () => Promise<Exchange>,
    shareable: (exchange: Exchange) => boolean = (ex) => ex.response?.status === 200,
  ): Promise<{ exchange: Exchange; sent: boolean }> {
    const known = this.mine.get(key);
    if (known) return known.then((exchange) => ({ exchange, sent: false }));
    const outcome = this.fetch(key, send, shareable);
    const mine = outcome.then((o) => o.exchange);
    this.mine.set(key, mine);
    // A 429 or 503 is waited out and asked again (api.ts): asked again, the request is sent again.
    const forget = () => {
      if (this.mine.get(key) === mine) this.mine.delete(key);
    };
    outcome.then((o) => (isThrottled(o.exchange) ? forget() : undefined), forget);
    return outcome;
  }

  /**
   * Claims a read for this process to send: from then on a worker that asks for it waits for the answer instead of
   * sending it too. False if it is answered or claimed already. The runner claims what it sends ahead before any
   * test may ask.
   */
  claim(key: string): boolean {
    if (existsSync(path.join(this.dir, `${key}.json`))) return false;
    try {
      writeFileSync(path.join(this.dir, `${key}.claim`), '', { mode: 0o600, flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  }

  /** Sends a read this process claimed and publishes its answer (null where it is not shareable, or none came: each asker then sends its own). */
  async answer(key: string, send: () => Promise<Exchange>, shareable: (exchange: Exchange) => boolean): Promise<Exchange> {
    let exchange: Exchange | undefined;
    try {
      exchange = await send();
      return exchange;
    } finally {
      this.publish(path.join(this.dir, `${key}.json`), exchange && shareable(exchange) ? exchange : undefined);
    }
  }

  private async fetch(key: string, send: () => Promise<Exchange>, shareable: (exchange: Exchange) => boolean): Promise<{ exchange: Exchange; sent: boolean }> {
    const answer = path.join(this.dir, `${key}.json`);
    if (this.oneWorker) return this.fetchAlone(key, answer, send, shareable);
    if (this.claim(key)) return { exchange: await this.answer(key, send, shareable), sent: true };
    if (!existsSync(answer)) {
      // Another worker, or the runner, is sending it: wait for its answer, as long as the read itself may take.
      const shared = await this.waitFor(answer);
      return shared ? { exchange: shared, sent: false } : { exchange: await send(), sent: true };
    }
    const shared = this.load(answer);
    return shared ? { exchange: shared, sent: false } : { exchange: await send(), sent: true };
  }

  /** As fetch(), where no other worker asks: the phase's published answer, or this worker's kept one, or a read of its own. */
  private async fetchAlone(
    key: string,
    answer: string,
    send: () => Promise<Exchange>,
    shareable: (exchange: Exchange) => boolean,
  ): Promise<{ exchange: Exchange; sent: boolean }> {
    let kept = this.kept.get(key);
    if (!kept && existsSync(answer)) {
      kept = Promise.resolve(readFileSync(answer, 'utf8'));
      this.kept.set(key, kept);
    }
    // Claimed by the runner, which sends it ahead: its answer, once published.
    if (!kept && existsSync(path.join(this.dir, `${key}.claim`))) {
      const shared = await this.waitFor(answer);
      if (shared) return { exchange: shared, sent: false };
      return { exchange: await send(), sent: true };
    }
    if (kept) {
      const shared = JSON.parse(await kept) as Exchange | null;
      return shared ? { exchange: shared, sent: false } : { exchange: await send(), sent: true };
    }
    // Kept before it is sent, so that an asker meanwhile waits for this answer, as a claim makes other workers do.
    const exchange = send();
    this.kept.set(
      key,
      exchange.then(
        (ex) => published(shareable(ex) ? ex : undefined),
        () => 'null',
      ),
    );
    return { exchange: await exchange, sent: true };
  }

  /** An answer received outside read() (a visibility poll that saw everything it asked for), shared if none is yet. */
  offer(key: string, exchange: Exchange): void {
    const answer = path.join(this.dir, `${key}.json`);
    if (!existsSync(answer)) this.publish(answer, exchange);
  }

  /** Written whole (publishPrivate), so a reader never sees half of it. */
  private publish(answer: string, exchange: Exchange | undefined): void {
    publishPrivate(answer, published(exchange));
  }

  private load(answer: string): Exchange | null {
    return JSON.parse(readFileSync(answer, 'utf8')) as Exchange | null;
  }

  /** The answer once published (null when it is not shared), or undefined when none came within patience. */
  private async waitFor(answer: string): Promise<Exchange | null | undefined> {
    const deadline = Date.now() + this.patienceMs;
    while (Date.now() < deadline) {
      if (existsSync(answer)) return this.load(answer);
      await sleep(POLL_MS);
    }
    return undefined;
  }
}

/** An answer whole and within the evidence bounds: one that can be shared. */
export const withinShareBounds = (exchange: Exchange): boolean =>
  !!exchange.response && !exchange.response.truncated && exchange.response.body.length <= evidenceBytes();

/** An answer as it is shared: whole, within the evidence bounds, or `null`: not shared, each asker sends its own. */
function published(exchange: Exchange | undefined): string {
  if (exchange && withinShareBounds(exchange)) {
    try {
      const whole = JSON.stringify(exchange);
      if (whole.length <= 2 * evidenceBytes()) return whole;
    } catch {
      // Too deep to write: each asker receives its own.
    }
  }
  return 'null';
}
