/**
 * Requests a test sends whatever the target answers, as data: the test sends them (each `shared`,
 * api.ts), and the runner may send them first. Under latency a run was one test after another on each
 * worker, each waiting for its own round trips; the workers take seconds to start, while the runner
 * waits. So once the create-and-wait phase is over, the runner sends the requests of the tests this
 * run selected (suites/selection.ts), in the order the tests come, and publishes the answers in the
 * run's folder (client/read-cache.ts): a test takes its answers there instead of sending them. The
 * target gets the same requests, each once; they are only sent earlier, and together.
 *
 * Each plan is a pure function of the run's configuration, profile and dataset, the same in the runner
 * and in the test: its bodies carry names derived from the run's prefix and the planned request (planName), not
 * random ones, so that both build the very same request. A test whose requests depend on earlier
 * answers (a walk, a model run, a follow-up of an accepted value) sends those itself, as before.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Exchange } from '../../client/exchange';
import { MAX_SOCKETS } from '../../client/network';
import type { KitConfig } from '../../config';
import type { OperationId } from '../checks';
import { ahead, CONCURRENCY, inOrder, type Api, type CallOptions } from '../api';
import { type Dataset } from '../dataset';
import { type Profile } from '../../schemas/profile';

/** One request of a test, as data. */
export interface PlannedRequest {
  action: OperationId | string | null;
  body: unknown;
  options: CallOptions;
  /**
   * How a create goes: `create` through the retrying client (Api.create), `refused` as a create the
   * kit expects to be refused (Api.createRefused); both wait out a 429 or 503, which is never shared.
   */
  via?: 'create' | 'refused';
  /** Requests of one chain are sent one after another (VIS-02's rounds), each once the one before it has been answered. */
  chain?: string;
}

export interface PlanContext {
  config: KitConfig;
  profile: Profile;
  dataset: Dataset;
}

/** How many of the runner's requests are under way at once: what the run's workers could have, while they are still starting; never more than the connections a process opens (MAX_SOCKETS). */
export const sendAheadLanes = (workers: number): number => Math.min(MAX_SOCKETS, CONCURRENCY * Math.max(1, workers));

/** A name of this run (its prefix) for one planned request: the same in the runner and in the test, distinct per planned request. */
export function planName(config: Pick<KitConfig, 'namePrefix'>, label: string, ...parts: unknown[]): string {
  return `${config.namePrefix}${label}-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 6)}`;
}

/** Sends one planned request as a shared request: the runner's answer if it sent it first. */
export const sendPlanned = (api: Api, planned: PlannedRequest): Promise<Exchange> => send(api, planned, true);

/** Sends one planned request as this test's own request, never shared. */
export const sendOwn = (api: Api, planned: PlannedRequest): Promise<Exchange> => send(api, planned, false);

async function send(api: Api, planned: PlannedRequest, shared: boolean): Promise<Exchange> {
  const options = shared ? { ...planned.options, shared } : planned.options;
  if (planned.via === 'create') return (await api.create(planned.body as Record<string, unknown>, planned.options.as ?? 'primary', { shared })).exchange;
  if (planned.via === 'refused') return api.createRefused(planned.body, options);
  return api.call(planned.action, planned.body, options);
}

/** The planned requests' answers, sent a few at a time (client/concurrency.ts), each awaited in the order given. */
export async function plannedAhead(api: Api, plannedRequests: PlannedRequest[]): Promise<Promise<Exchange>[]> {
  return ahead(plannedRequests.map((planned) => () => sendPlanned(api, planned)));
}

export async function plannedTogether(api: Api, plannedRequests: PlannedRequest[]): Promise<Exchange[]> {
  return inOrder(await plannedAhead(api, plannedRequests));
}

/** A valid create body, to which one mistake is then added. */
export const createBody = (config: KitConfig, label: string, ...parts: unknown[]) => ({
  Name: planName(config, label, ...parts),
  Title: 'Input probe',
  Description: 'Created by the conformance kit',
  GroupType: 'AIGC',
  ProjectName: 'default',
});

/** A create through the retrying client: a 429 says nothing about how the body was judged. */
export const createRequest = (body: unknown): PlannedRequest => ({ action: 'CreateAssetGroup', body, options: {}, via: 'create' });
export const listRequest = (body: unknown, options: CallOptions = {}): PlannedRequest => ({ action: 'ListAssetGroups', body, options });

// ---------------------------------------------------------------- properties

/**
 * The values of a property's runs, as fc.check (suites/property.ts) is about to draw them: its examples,
 * then fc.sample of a tuple of the same arbitraries, with the same seed, numRuns and replay path, which
 * yields that very sequence (sampling the property object would not: fast-check biases it differently).
 * Runs that drew the same values (as JSON, which is what is sent) are one: the same request twice only loads the target.
 */
export function drawnRuns<Ts extends unknown[]>(config: KitConfig, arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, examples: Ts[] = []): Ts[] {
  const drawn = [
    ...examples,
    // fast-check counts the examples among numRuns: it draws that many fewer.
    ...(config.numRuns > examples.length
      ? fc.sample(fc.tuple<Ts>(...arbitraries), { seed: config.seed, numRuns: config.numRuns - examples.length, path: process.env.AG_FC_PATH || undefined })
      : []),
  ];
  return [...new Map(drawn.map((values) => [JSON.stringify(values), values])).values()];
}

// ---------------------------------------------------------------- declared plans

/**
 * A test's requests that need no earlier answer, declared once, with its test (suites/families/): the test names it in its details
 * (`requirement(id, plan)`) and takes its answers, and the runner, told which tests were selected by their plans' keys
 * (suites/selection.ts), sends it ahead. `firstReadOnly`: the plan is the test's first read alone.
 */
export interface DeclaredPlan {
  key: string;
  requests: (ctx: PlanContext) => PlannedRequest[];
  firstReadOnly?: true;
}

export const declarePlan = (key: string, requests: (ctx: PlanContext) => PlannedRequest[], options: { firstReadOnly?: true } = {}): DeclaredPlan => ({
  key,
  requests,
  ...options,
});

/** A property whose runs each send one request built from the run's values alone: its arbitraries, examples and request. */
export interface PropertyPlan<Ts extends unknown[]> {
  arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> };
  examples: Ts[];
  request: (...values: Ts) => PlannedRequest;
}

/** A declared property: its requests are those of the runs fc.check is about to draw (drawnRuns). */
export interface DeclaredProperty<Ts extends unknown[]> extends DeclaredPlan {
  property: (ctx: PlanContext) => PropertyPlan<Ts> | undefined;
}

export function declareProperty<Ts extends unknown[]>(key: string, property: (ctx: PlanContext) => PropertyPlan<Ts> | undefined): DeclaredProperty<Ts> {
  return {
    key,
    property,
    requests: (ctx) => {
      const spec = property(ctx);
      return spec ? drawnRuns(ctx.config, spec.arbitraries, spec.examples).map((values) => spec.request(...values)) : [];
    },
  };
}
