/** ENV: the envelope around every answer (Region, RequestId, Content-Type, Result). */
import { defaultHooks, JSON_CONTENT_TYPE, type ListResult } from '../behaviour';
import { family, isObject, withoutRegion } from './helpers';

export const ENV = family({
  /** The auth middleware answers 401 with an envelope of its own, without Region. */
  authEnvelopeWithoutRegion: {
    breaks: 'ENV-02',
    description: '401 answers carry an envelope without Region (the auth layer builds its own)',
    hooks: { errorBody: (meta, error, ctx) => defaultHooks.errorBody(error.status === 401 ? withoutRegion(meta) : meta, error, ctx) },
  },
  emptyRequestId: {
    breaks: 'ENV-03',
    description: 'ResponseMetadata.RequestId is an empty string',
    hooks: { newRequestId: () => '' },
  },
  constantRequestId: {
    breaks: 'ENV-04',
    description: 'every response has the same RequestId',
    hooks: { newRequestId: () => 'req-00000000' },
  },
  /** The JSON body parser's own 400 is the bare words "Bad Request" under the API's JSON content type. */
  malformedJsonPlainText: {
    breaks: 'ENV-05',
    description: 'malformed JSON gets 400 with the bare words "Bad Request" under a JSON content type',
    hooks: {
      encodeResponse: (payload, status) => {
        // The reference server always writes the reference profile's error body: ResponseMetadata.Error.Message.
        const message = (payload as { ResponseMetadata?: { Error?: { Message?: unknown } } } | undefined)?.ResponseMetadata?.Error?.Message;
        const parseError = status === 400 && typeof message === 'string' && message.includes('not valid JSON');
        return parseError ? { contentType: JSON_CONTENT_TYPE, text: 'Bad Request' } : defaultHooks.encodeResponse(payload, status);
      },
    },
  },
  /** Serialises JSON but labels it text/plain, as `res.end(JSON.stringify(x))` without a header does. */
  textPlainContentType: {
    breaks: 'ENV-05',
    description: 'JSON bodies are sent as Content-Type text/plain',
    hooks: { encodeResponse: (payload) => ({ contentType: 'text/plain; charset=utf-8', text: JSON.stringify(payload) }) },
  },
  /** An unfiltered, unpaged list comes back from the query layer as undefined; the envelope then has no Result. */
  resultOmittedWhenUnfiltered: {
    breaks: 'ENV-06',
    description: 'an unfiltered, unpaged list ({}) answers 200 with no Result',
    hooks: {
      listGroups: (principal, query, ctx) => {
        const { pageNumber, pageSize } = ctx.profile.list;
        const unfiltered = Object.keys(query.filter).length === 0 && query.pageNumber === pageNumber.default && query.pageSize === pageSize.default;
        return unfiltered ? (undefined as unknown as ListResult) : defaultHooks.listGroups(principal, query, ctx);
      },
    },
  },
  /** Creates through a channel-bound token are answered by the channel gateway, whose envelope has no Region. */
  channelCreateWithoutRegion: {
    breaks: 'ENV-01',
    description: 'creates through a channel-bound token answer an envelope without Region',
    hooks: {
      successBody: (meta, result, ctx) => {
        const id = isObject(result) ? result.Id : undefined;
        const viaChannel = typeof id === 'string' && ctx.store.all().some((g) => g.Id === id && g.channel !== null);
        return defaultHooks.successBody(viaChannel ? withoutRegion(meta) : meta, result, ctx);
      },
    },
  },
});
