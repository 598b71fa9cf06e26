import type { Middleware } from 'openapi-fetch';

/**
 * The contract keys its two operations with URI fragments (`/v1/media_assets/#CreateAssetGroup`),
 * because OpenAPI cannot hold two POST operations on one path. openapi-fetch appends the query
 * after the key, so it lands inside the fragment, which is never sent: the wire request would be
 * `POST /v1/media_assets/` with no Action. This moves the query out of the fragment and drops the
 * fragment, before the request leaves.
 */
export const fragmentKeys: Middleware = {
  onRequest({ request }) {
    const url = new URL(request.url);
    if (!url.hash) return undefined;
    const query = url.hash.indexOf('?');
    if (query >= 0) url.search = url.hash.slice(query);
    url.hash = '';
    return new Request(url, request);
  },
};
