/**
 * What the reference server reads of a request before any step of the behaviour sees it: the
 * request target, split into path and query, and the body, bounded (reference/server.ts).
 */
import type http from 'node:http';

/** The request target split by hand: `new URL('//x/...')` would read a host out of the path. */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return { path: url.pathname, query: url.searchParams };
    } catch {
      return { path: target, query: new URLSearchParams() };
    }
  }
  const q = target.indexOf('?');
  if (q < 0) return { path: target, query: new URLSearchParams() };
  return { path: target.slice(0, q), query: new URLSearchParams(target.slice(q + 1)) };
}

type BodyRead = { ok: true; raw: Buffer } | { ok: false; tooLarge: true };

/** The client went away before its body was read: there is no one to answer. */
export class ClientGone extends Error {}

/** Buffers up to `limit` bytes; past it, stops buffering and answers at once. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyRead | Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ ok: false, tooLarge: true });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, raw: Buffer.concat(chunks) });
    const onError = () => finish(new ClientGone());
    const onAborted = () => finish(new ClientGone());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
