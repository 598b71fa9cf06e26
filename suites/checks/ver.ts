/** VER: ResponseMetadata echoes the Action and Version of the request. */
import type { Exchange } from '../../client/exchange';
import { readPointer } from '../../schemas/profile';
import { fail, show, type Failure } from './kit';

export function echoesVersion(ex: Exchange): Failure | undefined {
  const got = readPointer(ex.response?.json, '/ResponseMetadata/Version');
  const sent = ex.request.version ?? '';
  if (got !== sent) {
    return fail(
      echoesVersion,
      `ResponseMetadata.Version ${show(got)} for a request sent with Version ${show(sent)}`,
      'The response echoes it [Version] in ResponseMetadata.Version.',
      'copy the Version query parameter of the request into ResponseMetadata.Version, on errors too; do not write a constant',
    );
  }
  return undefined;
}

export function echoesAction(ex: Exchange): Failure | undefined {
  const got = readPointer(ex.response?.json, '/ResponseMetadata/Action');
  const sent = ex.request.action ?? '';
  if (got !== sent) {
    return fail(
      echoesAction,
      `ResponseMetadata.Action ${show(got)} for a request sent with Action ${show(sent)}`,
      'ResponseMetadata.Action | string | Echoes the Action of the request.',
      'copy the Action query parameter of the request into ResponseMetadata.Action, on errors too',
    );
  }
  return undefined;
}
