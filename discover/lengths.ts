/**
 * `agc profile discover`: the longest Name and Description a create accepts, whether Name itself
 * may be left out, and the unit the bounds count in. Run after the list has been probed, with what
 * the create budget has left: every accepted probe is one more group on the target, a refused one
 * creates nothing. Each bound reported is backed by an accepted create at the bound and a refused
 * one just above it, so one create is kept back for every bound still to find.
 */
import { TargetError, type Answer, type DiscoverSession } from './client';
import { bound, type Outcome } from './bound';

/** A character outside the BMP (U+1F600: 1 code point, 2 UTF-16 code units, 4 UTF-8 bytes) and one inside it (U+00E9: 1, 1, 2). */
const ASTRAL = '\u{1F600}';
const LATIN = '\u00E9';

/** The bounds of Name and Description, then whether Name is required, then the bounds' unit. */
export async function lengthBounds(session: DiscoverSession, required: Record<string, string>): Promise<void> {
  const first = session.created[0];
  const name = await lengthBound(session, 'Name', [...first.name].length, 2048, 1, (length) => ({
    ...required,
    Name: session.name('n').padEnd(length, 'x').slice(0, Math.max(length, session.namePrefix.length)),
  }));
  const description = first.sent.Description;
  const longest = await lengthBound(session, 'Description', description === undefined ? 0 : [...description].length, 10_000, 0, (length) => ({
    ...required,
    Name: session.name('d'),
    Description: 'x'.repeat(length),
  }));
  // Refused whatever the answer, so it costs no create: before the unit, which may spend the last.
  await nameRequired(session, required, longest);
  if (name !== undefined) await lengthUnit(session, required, name);
  else session.keep('create.lengthUnit', 'create.maxLength.Name is not known, so no value at the bound could be sent');
}

/** The largest length a create accepts for one field, keeping `reserve` creates for later bounds. */
async function lengthBound(
  session: DiscoverSession,
  field: 'Name' | 'Description',
  accepted: number,
  big: number,
  reserve: number,
  body: (length: number) => Record<string, string>,
): Promise<number | undefined> {
  const setting = `create.maxLength.${field}`;
  const outcomes: string[] = [];
  const probe = async (length: number): Promise<Outcome> => {
    const fields = body(length);
    const answer = await session.create(fields);
    outcomes.push(session.evidence('CreateAssetGroup', fields, answer));
    session.lastMessage = session.messageOf(answer);
    return outcome(answer, `a create of ${field} with ${length} characters`, outcomes[outcomes.length - 1]);
  };
  const found = await bound(session, accepted, big, probe, setting, outcomes, {
    unit: 'characters',
    maxProbes: 20,
    eggs: () => session.createsLeft(reserve),
    noBound: true,
  });
  if (found !== undefined) session.decide(setting, found, ...outcomes);
  return found;
}

function outcome(answer: Answer, what: string, seen: string): Outcome {
  if (answer.status === 200) return 'accepted';
  if (answer.status === 400) return 'refused';
  throw new TargetError(`${what} got neither 200 nor 400: ${seen}`);
}

/**
 * The unit of the bounds: a Name of `max` code points ending in a character outside the BMP is
 * longer than `max` in UTF-16 code units and in bytes; accepted, the unit is code points. Refused,
 * a Name of `max` code points ending in é (as long in UTF-16, one byte longer in UTF-8) tells
 * UTF-16 (accepted) from bytes (refused). Written only when the answers settle it.
 */
async function lengthUnit(session: DiscoverSession, required: Record<string, string>, max: number): Promise<void> {
  const setting = 'create.lengthUnit';
  const base = session.name('u');
  if (max <= base.length) return session.keep(setting, `create.maxLength.Name is ${max}: too short for a Name of the run with a character to spare`);
  const seen: string[] = [];
  const ask = async (last: string, label: string): Promise<Outcome | undefined> => {
    if (session.createsLeft() < 1) {
      session.keep(setting, ...seen, 'not settled: the create budget is spent');
      return undefined;
    }
    const value = `${base.padEnd(max - 1, 'x')}${last}`;
    const fields = { ...required, Name: value };
    const answer = await session.create(fields);
    const units = `${[...value].length} code points, ${value.length} UTF-16 code units, ${Buffer.byteLength(value)} UTF-8 bytes`;
    const line = `CreateAssetGroup with a Name of ${label} (${units}) -> ${session.summary(answer)}`;
    seen.push(line);
    return outcome(answer, `a create of a Name ending in ${label}`, line);
  };
  const astral = await ask(ASTRAL, `${max} code points ending in U+1F600`);
  if (astral === undefined) return;
  if (astral === 'accepted') return session.decide(setting, 'code-points', `${seen[0]}: the bound counts code points`);
  const latin = await ask(LATIN, `${max} code points ending in U+00E9`);
  if (latin === undefined) return;
  if (latin === 'accepted') return session.decide(setting, 'utf16', `${seen[0]}: refused, so not code points`, `${seen[1]}: accepted, so UTF-16 code units`);
  session.decide(
    setting,
    'bytes',
    `${seen[0]}: refused, so not code points`,
    `${seen[1]}: refused too, so UTF-8 bytes (a target that refuses these characters for another reason looks the same: review this)`,
  );
}

/**
 * Whether a create may leave Name out, asked without risking a group that lacks the run prefix:
 * the create carries a Description already shown too long, so it is refused whatever the target
 * thinks of Name; whether the refusal names Name tells which.
 */
async function nameRequired(session: DiscoverSession, required: Record<string, string>, longest: number | undefined): Promise<void> {
  const decision = session.decisions.get('create.requiredFields');
  const fields = (decision?.value as string[] | undefined) ?? [];
  if (!decision?.determined || !fields.includes('Name')) return;
  if (longest === undefined) {
    decision.evidence.push(
      'whether Name itself may be left out is not probed: no Description is known to be refused, and a group without a Name would not carry the run prefix',
    );
    return;
  }
  if (session.createsLeft() < 1) {
    decision.evidence.push('whether Name itself may be left out is not probed: the create budget is spent');
    return;
  }
  const body = { ...required, Description: 'x'.repeat(longest + 1) };
  const answer = await session.create(body);
  const seen = session.evidence('CreateAssetGroup', body, answer);
  const message = session.messageOf(answer);
  if (answer.status === 400 && /\bname\b/i.test(message)) {
    decision.evidence.push(`${seen}: a create without Name, with a Description one too long, is refused naming Name: Name is required`);
  } else if (answer.status === 400 && /\bdescription\b/i.test(message)) {
    session.decide(
      'create.requiredFields',
      fields.filter((f) => f !== 'Name'),
      ...decision.evidence,
      `${seen}: a create without Name, with a Description one too long, is refused for its Description only: Name is not required (not confirmed by a create, which would leave a group without the run prefix: review this)`,
    );
  } else {
    if (answer.status === 200)
      session.notes.push(
        `a create without Name was accepted although its Description was one character over the bound found: the target holds a group without the run prefix (${seen})`,
      );
    decision.evidence.push(`${seen}: neither a refusal naming Name nor one naming Description only, so whether Name may be left out is not settled`);
  }
}
