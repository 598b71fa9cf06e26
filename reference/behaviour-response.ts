/** The steps after an operation: the request id and the success, error and wire forms of an answer. */
import { randomUUID } from 'node:crypto';
import { isObject, type ApiError } from './behaviour-base';
import type { EncodedResponse, HookContext, ResponseMetadata } from './behaviour-types';
import { pointerParts } from '../schemas/spec';

export function newRequestId(): string {
  return randomUUID();
}

export function successBody(meta: ResponseMetadata, result: unknown): unknown {
  return { ResponseMetadata: meta, Result: result };
}

/** Writes Code and Message where the profile's JSON pointers say; the reference profile: ResponseMetadata.Error. */
export function errorBody(meta: ResponseMetadata, error: ApiError, ctx: HookContext): unknown {
  const body: Record<string, unknown> = { ResponseMetadata: { ...meta } };
  setPointer(body, ctx.profile.error.codePointer, error.code);
  setPointer(body, ctx.profile.error.messagePointer, error.message);
  return body;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function encodeResponse(payload: unknown): EncodedResponse {
  return { contentType: JSON_CONTENT_TYPE, text: JSON.stringify(payload) };
}

function setPointer(target: Record<string, unknown>, pointer: string, value: unknown): void {
  const parts = pointerParts(pointer);
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}
