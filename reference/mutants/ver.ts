/** VER: the Version and Action echoed in ResponseMetadata. */
import { defaultHooks, OPERATIONS, SPEC_VERSION, type Operation } from '../behaviour';
import { family, nameSearchEnvelope } from './helpers';

export const VER = family({
  /** The auth middleware runs before the query is read: its 401s carry an empty Version. */
  authErrorsWithoutVersion: {
    breaks: 'VER-01',
    description: '401 answers carry ResponseMetadata.Version ""',
    hooks: { errorBody: (meta, error, ctx) => defaultHooks.errorBody(error.status === 401 ? { ...meta, Version: '' } : meta, error, ctx) },
  },
  /** Successes name the response type instead of echoing the Action. */
  actionWithResponseSuffix: {
    breaks: 'VER-02',
    description: 'successes answer Action "<Action>Response" instead of echoing it',
    hooks: { successBody: (meta, result, ctx) => defaultHooks.successBody({ ...meta, Action: `${meta.Action}Response` }, result, ctx) },
  },
  /** Error answers write the supported Version, a constant, instead of echoing the request's. */
  versionEcho: {
    breaks: 'VER-03',
    description: "error answers write the constant Version 2024-01-01 instead of echoing the request's",
    hooks: { errorBody: (meta, error, ctx) => defaultHooks.errorBody({ ...meta, Version: SPEC_VERSION }, error, ctx) },
  },
  /** Only known Actions are echoed; an unknown one is blanked. */
  unknownActionNotEchoed: {
    breaks: 'VER-04',
    description: 'an unknown Action is answered with Action ""',
    hooks: {
      errorBody: (meta, error, ctx) => {
        const known = OPERATIONS.includes(meta.Action as Operation);
        return defaultHooks.errorBody(known ? meta : { ...meta, Action: '' }, error, ctx);
      },
    },
  },
  /**
   * The search by name is a handler of its own, written later, that builds its envelope without reading the query's
   * Version. The VER tests judge the preflight and the provoked errors: only the run-wide oracle reads a name search's envelope.
   */
  nameSearchVersionBlank: {
    breaks: 'VER-01',
    description: 'answers to a list filtered by name carry ResponseMetadata.Version ""',
    hooks: nameSearchEnvelope((meta) => ({ ...meta, Version: '' })),
  },
  /** The same later handler, whose envelope names the response type instead of echoing the Action. */
  nameSearchActionSuffixed: {
    breaks: 'VER-02',
    description: 'answers to a list filtered by name carry ResponseMetadata.Action "ListAssetGroupsResponse"',
    hooks: nameSearchEnvelope((meta) => ({ ...meta, Action: `${meta.Action}Response` })),
  },
});
