/**
 * Whether the target still answers, for the whole run. After a few requests in a row got no
 * answer, one plain list tells a target that only chokes on some inputs (a failure of those
 * checks) from one that has gone away; once it has gone away every further request fails at once,
 * so the run ends in seconds instead of timing out test by test. The decision is the run's, not one
 * worker's: it is a marker in the run's private folder (run-dir.ts) that every worker reads, so a
 * dripping target is not given a fresh chance by each worker in turn.
 */
import { buildUrl, send, SPEC_PATH, type Exchange, type SendOptions } from './exchange';
import { markTargetGone, targetGone } from './run-dir';

/** Per run: one process may hold the phases of several runs (each its own target), which must not decide for each other. */
const healthOf = new Map<string, { failures: number; dead: string }>();
const health = (runId: string) => healthOf.get(runId) ?? healthOf.set(runId, { failures: 0, dead: '' }).get(runId)!;

/** Why the target is taken as gone for this run, or '' while it answers. */
function gone(runId: string): string {
  const h = health(runId);
  if (!h.dead) h.dead = targetGone(runId);
  return h.dead;
}

function notSent(baseURL: string, options: SendOptions, why: string): Exchange {
  return {
    request: {
      method: 'POST',
      url: buildUrl(baseURL, SPEC_PATH, options.action, options.version),
      action: options.action,
      version: options.version,
      headers: { authorization: options.authorizationShown },
      body: options.body,
    },
    networkError: `not sent: ${why}`,
    durationMs: 0,
  };
}

/** Sends the request, or records it as not sent once the target has gone away. */
export function sendWhileAlive(runId: string, baseURL: string, options: SendOptions): Promise<Exchange> {
  const dead = gone(runId);
  return dead ? Promise.resolve(notSent(baseURL, options, dead)) : send(baseURL, options);
}

/** Counts an answer or a failure to answer; the third failure in a row sends `request`, a plain list, to tell. */
export async function noteAnswer(runId: string, exchange: Exchange, baseURL: string, request: SendOptions): Promise<void> {
  const h = health(runId);
  if (exchange.networkError && !gone(runId)) {
    if (++h.failures < 3) return;
    const answer = await send(baseURL, request);
    if (answer.response) h.failures = 0;
    else {
      h.dead = `the target stopped answering (${h.failures} requests in a row, then a plain list: ${answer.networkError})`;
      markTargetGone(runId, h.dead);
    }
  } else if (exchange.response) h.failures = 0;
}
