/** `agc profile discover`: where the target's error bodies carry the error kind and its message. */
import { readPointer } from '../schemas/profile';
import { isObject, type Answer, type DiscoverSession } from './client';

/** Every JSON pointer in `data` whose value is the string `wanted`. */
export function pointersTo(data: unknown, wanted: string, at = ''): string[] {
  if (data === wanted) return [at];
  if (Array.isArray(data)) return data.flatMap((v, i) => pointersTo(v, wanted, `${at}/${i}`));
  if (isObject(data)) return Object.entries(data).flatMap(([k, v]) => pointersTo(v, wanted, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return [];
}

/** Where the error kind sits: TokenAuthError is searched for anywhere in the body of a 401. */
export async function errorPart(session: DiscoverSession): Promise<void> {
  const body = {};
  const answer = await session.call('ListAssetGroups', body, false);
  const seen = `ListAssetGroups ${session.show(body)} without Authorization -> HTTP ${answer.status}`;
  const whole = `the body of that answer: ${session.show(answer.json).slice(0, 300)}`;
  if (answer.status !== 401) {
    session.keep('error.codePointer', `${seen}: not the 401 the spec documents, so no error body to read the kind from`, whole);
    session.keep('error.messagePointer', 'see error.codePointer');
    return;
  }
  session.errorHasResult = isObject(answer.json) && 'Result' in answer.json;
  const found = pointersTo(answer.json, 'TokenAuthError');
  if (found.length !== 1) {
    session.keep(
      'error.codePointer',
      `${seen}: TokenAuthError found ${found.length === 0 ? 'nowhere' : `at ${found.length} places (${found.join(', ')})`} in the body`,
      whole,
    );
    session.keep('error.messagePointer', 'see error.codePointer');
    return;
  }
  const codePointer = found[0];
  if (/\/\d+(\/|$)/.test(codePointer) && Array.isArray(readPointer(answer.json, codePointer.replace(/\/\d+(\/.*)?$/, '')))) {
    // The draft's $defs describe objects only; an error part inside an array needs a hand-written schema.
    session.keep(
      'error.codePointer',
      `${seen}: TokenAuthError is at ${codePointer}, inside an array; write error.codePointer and ProfileErrorDetail by hand`,
      whole,
    );
    session.keep('error.messagePointer', 'see error.codePointer');
    return;
  }
  session.decide('error.codePointer', codePointer, `${seen}: TokenAuthError is at ${codePointer}`, whole);
  // The message is a string beside the kind, under a key that says so.
  const parent = codePointer.slice(0, codePointer.lastIndexOf('/'));
  const siblings = readPointer(answer.json, parent);
  const keys = isObject(siblings) ? Object.keys(siblings).filter((k) => typeof siblings[k] === 'string' && `${parent}/${k}` !== codePointer) : [];
  const messageKey = keys.find((k) => /^message$/i.test(k)) ?? keys.find((k) => /message|msg/i.test(k));
  if (messageKey === undefined) {
    session.keep('error.messagePointer', `${seen}: no string field named like a message beside ${codePointer}; set error.messagePointer by hand`);
    return;
  }
  session.messagePointer = `${parent}/${messageKey}`;
  session.decide(
    'error.messagePointer',
    session.messagePointer,
    `the same 401: the string beside the kind is ${session.messagePointer} = ${JSON.stringify(String(siblings && (siblings as Record<string, unknown>)[messageKey]).slice(0, 80))}`,
  );
}

/** A second look at the error pointer, on a 400 of the list. */
export function confirmErrorKind(session: DiscoverSession, answer: Answer, kind: string, seen: string): void {
  const decision = session.decisions.get('error.codePointer');
  if (!decision?.determined || session.errorKindConfirmed) return;
  session.errorKindConfirmed = true;
  const code = readPointer(answer.json, decision.value as string);
  decision.evidence.push(
    code === kind ? `${seen}: ${kind} at ${decision.value} too` : `${seen}: but ${session.show(code)} at ${decision.value}, not ${kind}; review this`,
  );
}
