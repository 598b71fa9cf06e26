// A typed client of the asset-group contract, as a user of the contract would write it: the types
// are generated from ../../spec/openapi.yaml by openapi-typescript (`npm run generate`), the calls
// go through openapi-fetch, and one middleware (./fragment-keys.ts) makes the fragment keys work.
//
//   AG_BASE_URL=https://staging.example.com AG_TOKEN=… npm start
//
// Creates one group (its Name starts with `agc-`, unique to this run), waits until the target
// lists it, and prints its Id. Exit status: 0 done, 1 the target failed (the reason is printed),
// 2 the configuration is incomplete.
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import { fragmentKeys } from './fragment-keys.ts';
import type { components, paths } from './generated/openapi.ts';

type ErrorResponse = components['schemas']['ErrorResponse'];

const VERSION = '2024-01-01';

class TargetFailed extends Error {}

function setting(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') {
    console.error(`typed-client: ${name} is not set (AG_BASE_URL is the target's base URL, AG_TOKEN the Bearer token)`);
    process.exit(2);
  }
  return value;
}

const baseUrl = setting('AG_BASE_URL');
const token = setting('AG_TOKEN');
const visibilityTimeoutMs = Number(setting('AG_VISIBILITY_TIMEOUT_MS', '60000'));
const requestTimeoutMs = Number(setting('AG_REQUEST_TIMEOUT_MS', '15000'));

const client = createClient<paths>({
  baseUrl,
  headers: { Authorization: `Bearer ${token}` },
  // Every request has a timeout: a target that stops answering fails this run, it does not hang it.
  fetch: (request) => fetch(request, { signal: AbortSignal.timeout(requestTimeoutMs) }),
});
client.use(fragmentKeys);

/** What an answer that is not a 200 says, in one line: the status, and the error kind if the body carries one. */
function reason(action: string, response: Response, error: unknown): string {
  const detail = (error as ErrorResponse | undefined)?.ResponseMetadata as { Error?: { Code?: string; Message?: string } } | undefined;
  const kind = detail?.Error?.Code ? ` ${detail.Error.Code}${detail.Error.Message ? `: ${detail.Error.Message}` : ''}` : '';
  return `${action} answered HTTP ${response.status}${kind}`;
}

async function createGroup(name: string): Promise<string> {
  const { data, error, response } = await client.POST('/v1/media_assets/#CreateAssetGroup', {
    params: { query: { Action: 'CreateAssetGroup', Version: VERSION } },
    body: { Name: name, Title: 'Typed-client example', Description: 'Created by examples/typed-client of the conformance kit', GroupType: 'AIGC' },
  });
  if (!data) throw new TargetFailed(reason('CreateAssetGroup', response, error));
  if (!data.Result?.Id) throw new TargetFailed('CreateAssetGroup answered 200 without Result.Id');
  return data.Result.Id;
}

/** True once the target lists the group. The list reads a snapshot that may lag, so a miss is not yet a failure. */
async function isListed(name: string, id: string): Promise<boolean> {
  const { data, error, response } = await client.POST('/v1/media_assets/#ListAssetGroups', {
    params: { query: { Action: 'ListAssetGroups', Version: VERSION } },
    body: { Filter: { Name: name }, PageSize: 100 },
  });
  if (!data) throw new TargetFailed(reason('ListAssetGroups', response, error));
  return data.Result.Items.some((group) => group.Id === id);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const name = `agc-typed-client-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
  const id = await createGroup(name);
  const createdAt = Date.now();
  console.error(`typed-client: created ${name} as ${id}; waiting until it is listed (at most ${visibilityTimeoutMs} ms)`);
  // Gentle and bounded: one list request per round, rounds backing off from 250 ms to 5 s,
  // and no more rounds than the visibility timeout allows.
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    if (await isListed(name, id)) {
      console.error(`typed-client: listed after ${Date.now() - createdAt} ms`);
      console.log(id);
      return;
    }
    const left = createdAt + visibilityTimeoutMs - Date.now();
    if (left <= 0) throw new TargetFailed(`group ${id} (${name}) was created but not listed within ${visibilityTimeoutMs} ms`);
    await sleep(Math.min(delay, left));
  }
}

main().catch((error: unknown) => {
  const message = error instanceof TargetFailed ? error.message : `request failed: ${(error as Error)?.cause ?? (error as Error)?.message ?? error}`;
  console.error(`typed-client: ${message} (target ${baseUrl})`);
  process.exit(1);
});
