/**
 * The kit sends each request once per run: counted by what the server receives (method, URL, Authorization, User-Agent,
 * body), under the reference profile and under a one-Id filter with substring Name matching (oneIdFilter), where the
 * walks over the run's groups page by a Name part instead of their Ids. The only repeats are on purpose: the reads of the
 * run's groups by their Ids, which the create-and-wait phase polls until they show and VIS-02 asks again round after round,
 * and AUTH-02's two forms of an empty Bearer header (onPurpose).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { test, expect } from './helpers/fixtures';
import { findProfileVariant } from '../reference/profile-variants';
import { profileFromOverride, readPointer, filterPointer, loadProfile, type Profile } from '../schemas/profile';
import { referenceTokenEnv, runAgc } from './helpers/harness';
import { matches, plannedByRequirement, viewOfWire, type SentView } from './helpers/sent-views';
import { loadCatalogue } from '../schemas/requirements';
import { RUN_REQUESTS } from '../suites/run-budget';

/** A proxy in front of the target that counts every request it passes on by what the server would see of it. */
async function countingProxy(target: string): Promise<{ url: string; counts: Map<string, number>; seen: SentView[]; close: () => Promise<void> }> {
  const counts = new Map<string, number>();
  const seen: SentView[] = [];
  const tokens = referenceTokenEnv();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = JSON.stringify([req.method, req.url, req.headers.authorization ?? null, req.headers['user-agent'] ?? null, body.toString('latin1')]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const wire = {
        url: req.url!,
        authorization: req.headers.authorization ?? null,
        userAgent: req.headers['user-agent'] ?? null,
        body: body.toString('utf8'),
      };
      seen.push(viewOfWire(wire, tokens));
      const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether a repeated request is one on purpose: a read of groups by their Ids alone (the profile's Id filter, no other
 * filter), or AUTH-02's two forms of a Bearer header without a token, `Bearer ` and `Bearer`, which differ on the wire
 * but not once a parser drops the field value's trailing whitespace (RFC 9110, 5.5), as this proxy's does.
 */
function onPurpose(key: string, n: number, profile: Profile): boolean {
  const [method, url, authorization, , body] = JSON.parse(key) as [string, string, string | null, string | null, string];
  if (authorization === 'Bearer') return n === 2;
  if (method !== 'POST' || !url.includes('Action=ListAssetGroups')) return false;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return false;
  }
  const ids = readPointer(json, filterPointer(profile.list, profile.list.filters.groupIds));
  const name = readPointer(json, filterPointer(profile.list, profile.list.filters.name));
  return (Array.isArray(ids) ? ids.length > 0 : typeof ids === 'string') && name === undefined;
}

for (const variant of [undefined, 'oneIdFilter'] as const) {
  test(`no request is sent twice in a run but the reads by Id polled and VIS-02's rounds (${variant ?? 'reference profile'})`, async ({ startReference }) => {
    test.setTimeout(90_000);
    const override = variant ? findProfileVariant(variant)! : undefined;
    const target = await startReference(override ? { profile: profileFromOverride(override.profile, override.name), hooks: override.hooks ?? {} } : {});
    const proxy = await countingProxy(target.url);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agc-no-repeats-'));
    try {
      // Under the reference profile, a seed whose plans draw more distinct cases than most: with the model's long walks it took
      // a run to 251 requests before the model's drawn commands gave way to the run's budget (suites/run-budget.ts).
      const env: Record<string, string> = { ...referenceTokenEnv(), AG_VISIBILITY_TIMEOUT_MS: '10000', AG_SEED: variant ? '1' : '1215923234' };
      if (override) writeFileSync((env.AG_PROFILE = path.join(dir, 'profile.yaml')), YAML.stringify(override.profile));
      const run = await runAgc(['run', '--base-url', proxy.url, '--report-dir', path.join(dir, 'report')], env);
      expect(run.status, run.stdout.slice(-2000)).toBe(0);
      const profile = loadProfile(env.AG_PROFILE);
      const repeated = [...proxy.counts].filter(([, n]) => n > 1);
      expect(proxy.counts.size, 'requests the run sent').toBeGreaterThan(150);
      // Under a one-Id filter every read of several groups is one request per Id: such a run sends more (281 with seed 1).
      if (!variant)
        expect(
          [...proxy.counts.values()].reduce((a, b) => a + b, 0),
          'requests in all',
        ).toBeLessThanOrEqual(RUN_REQUESTS);
      expect(
        repeated.filter(([key, n]) => !onPurpose(key, n, profile)).map(([key, n]) => `${n}x ${key.replace(/Bearer [^"\\]+/, 'Bearer <token>').slice(0, 300)}`),
      ).toEqual([]);
      if (!variant) {
        // The entries whose tests send from their `run`, which no plan shows (tests/sends.test.ts checks the rest): each kind
        // of request their `sent` names is among what this whole run sent.
        const planned = plannedByRequirement();
        const unsent = loadCatalogue()
          .requirements.filter((r) => !planned.has(r.id))
          .flatMap((r) => (r.sent ?? []).filter((m) => !proxy.seen.some((v) => matches(m, v))).map((m) => `${r.id}: ${JSON.stringify(m)}`));
        expect(unsent, 'named in the catalogue, never sent in a whole run').toEqual([]);
      }
    } finally {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
