/**
 * Independent requests of one test are sent a few at a time and judged in order.
 *
 * A test whose requests do not depend on each other's answers (the same check over several
 * Authorization forms, several bodies, several filters) sends them at most `CONCURRENCY` at a time
 * up front, so that a slow target's latency overlaps instead of adding up, and then judges the
 * answers one by one in the order the test lists them. The judgement is the same as if each
 * request had been sent after the previous one answered: the same checks in the same order, and
 * an error of one task (a missing token, say) surfaces at that task's place in the order. Few at
 * a time keeps the kit gentle on a shared target, and nothing is left in flight when the test
 * moves on.
 */

/** At most this many requests of one test under way at once: enough to overlap a slow target's latency, few enough to stay gentle. */
export const CONCURRENCY = 8;

/** Starts `tasks` at most `limit` at a time; once all have settled, hands back their outcomes in the order given. */
export async function ahead<T>(tasks: (() => Promise<T>)[], limit = CONCURRENCY): Promise<Promise<T>[]> {
  const outcomes: Promise<T>[] = new Array(tasks.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, tasks.length) }, async () => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      outcomes[i] = (async () => task())();
      await outcomes[i].catch(() => undefined);
    }
  });
  await Promise.all(lanes);
  return outcomes;
}

/** Awaits outcomes in the order given: every value, or the first error in that order. */
export async function inOrder<T>(outcomes: Promise<T>[]): Promise<T[]> {
  const values: T[] = [];
  for (const outcome of outcomes) values.push(await outcome);
  return values;
}

/** ahead(), awaited in the order given: every outcome, or the first error in that order. */
export async function together<T>(tasks: (() => Promise<T>)[], limit = CONCURRENCY): Promise<T[]> {
  return inOrder(await ahead(tasks, limit));
}

/**
 * At most `limit` tasks under way at once, in the order they asked, whoever asks: the runner's requests sent ahead
 * for every target of a run (one, or a matrix batch's several) share one such limit. A task that asks `first` goes
 * before every task still waiting: the next step of a chain, which waited for the one before it, does not wait again
 * behind everything asked meanwhile (three VIS-02 rounds queued so ended a run far away three round trips late).
 */
export class Lanes {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.free = limit;
  }

  async run<T>(task: () => Promise<T>, { first = false } = {}): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => (first ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
