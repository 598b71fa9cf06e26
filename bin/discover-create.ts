/** `agc profile discover`: the run's groups, the fields a create requires, and the longest Name and Description it accepts. */
import { TargetError, TokenError, type ProbeSession } from './discover-client';

const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'] as const;

/** Bounds implementers commonly pick, tried by bisection when an error message names none. */
const COMMON_BOUNDS = [16, 20, 25, 30, 32, 40, 50, 60, 64, 80, 100, 120, 128, 150, 200, 250, 255, 256, 300, 400, 500, 512, 1000, 1024, 2000, 2048, 4096, 5000];

/**
 * Creates the run's groups, and learns from them which fields are required and how long Name and
 * Description may be: the groups that probe an accepted length are the run's data too.
 */
export async function createRunGroups(session: ProbeSession): Promise<void> {
  const filler: Record<string, string> = { Title: 'agc profile discover', Description: 'Created by agc profile discover', GroupType: 'AIGC', ProjectName: 'default' };
  let fields: Record<string, string> = { Name: session.name('a') };
  const refusals: string[] = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    const answer = await session.create(fields);
    if (answer.status === 200) break;
    const seen = session.evidence('CreateAssetGroup', fields, answer);
    if (answer.status === 401) throw new TokenError(`AG_TOKEN was refused: ${seen}`);
    if (answer.status !== 400) throw new TargetError(`could not create a group: ${seen}`);
    refusals.push(seen);
    // A refusal that names missing fields is believed; one that names none gets every field.
    const message = session.messageOf(answer);
    const named = CREATE_FIELDS.filter((f) => !(f in fields) && new RegExp(`\\b${f}\\b`, 'i').test(message));
    const next = named.length ? named : CREATE_FIELDS.filter((f) => !(f in fields));
    if (!next.length) throw new TargetError(`could not create a group even with every field: ${seen}`);
    fields = { ...fields, ...Object.fromEntries(next.map((f) => [f, filler[f]])) };
  }
  const first = session.created[0];
  if (!first) throw new TargetError(`could not create a group: ${refusals[refusals.length - 1] ?? 'no answer'}`);
  const requiredFields = Object.keys(first.sent);
  /** The fields every create must carry, found by the first create; the values sent for the optional ones. */
  const required = Object.fromEntries(Object.entries(first.sent).filter(([k]) => k !== 'Name'));
  session.decide('create.requiredFields', requiredFields, ...refusals, `CreateAssetGroup ${session.show(first.sent)} -> HTTP 200, Id g1: ${requiredFields.join(', ')} suffice${refusals.length ? ' (each field added because a refusal named it or named none)' : ''}; whether Name itself may be left out is not probed (a group without a Name would not carry the run prefix)`);

  await lengthBound(session, 'Name', [...first.name].length, 2048, (length) => ({ ...required, Name: `${session.name('n')}`.padEnd(length, 'x').slice(0, Math.max(length, session.namePrefix.length)) }));
  const description = first.sent.Description;
  await lengthBound(session, 'Description', description === undefined ? 0 : [...description].length, 10_000, (length) => ({ ...required, Name: session.name('d'), Description: 'x'.repeat(length) }));
  // Paging needs at least three of the run's groups.
  while (session.created.length < 3) {
    const fields = { ...required, Name: session.name(`g${session.created.length}`) };
    const answer = await session.create(fields);
    if (answer.status !== 200) throw new TargetError(`could not create a group: ${session.evidence('CreateAssetGroup', fields, answer)}`);
  }
}

/**
 * The largest length a create accepts for one field. A refusal's message usually names the bound
 * ("at most 64 characters"): it is then checked with two creates, bound and bound + 1. Otherwise
 * the bound is bisected over common values, then exactly, within the budgets.
 */
async function lengthBound(session: ProbeSession, field: 'Name' | 'Description', accepted: number, big: number, body: (length: number) => Record<string, string>): Promise<void> {
  const setting = `create.maxLength.${field}`;
  const outcomes: string[] = [];
  const probe = async (length: number): Promise<'accepted' | 'refused'> => {
    const fields = body(length);
    const answer = await session.create(fields);
    outcomes.push(session.evidence('CreateAssetGroup', fields, answer));
    session.lastMessage = session.messageOf(answer);
    if (answer.status === 200) return 'accepted';
    if (answer.status === 400) return 'refused';
    throw new TargetError(`a create of ${field} with ${length} characters got neither 200 nor 400: ${outcomes[outcomes.length - 1]}`);
  };
  const found = await bound(session, accepted, big, probe, setting, outcomes, 'characters', 9);
  if (found !== undefined) session.decide(setting, found, ...outcomes);
}

/**
 * Finds the largest value `probe` accepts, knowing `lo` is accepted. Refusal messages name
 * candidate bounds; else common bounds are bisected, then values, while the budgets last.
 * Returns undefined (and keeps the reference value, with the reason) when it cannot tell.
 */
export async function bound(
  session: ProbeSession,
  lo: number,
  big: number,
  probe: (value: number) => Promise<'accepted' | 'refused'>,
  setting: string,
  outcomes: string[],
  unit: string,
  maxProbes = 8,
): Promise<number | undefined> {
  let probes = 0;
  const ask = async (value: number) => {
    probes++;
    return probe(value);
  };
  if ((await ask(big)) === 'accepted') {
    session.keep(setting, ...outcomes, `${big} ${unit} were accepted: no bound below that; the kit expects a refusal above the profile's bound, so set it to what the target documents`);
    return undefined;
  }
  let hi = big;
  // The numbers a refusal names, largest first, between what is known to pass and to fail.
  const hints = [...new Set((session.lastMessage ?? '').match(/\d+/g)?.map(Number) ?? [])].filter((n) => n > lo && n < hi).sort((a, b) => b - a);
  for (const hint of hints.slice(0, 2)) {
    if ((await ask(hint + 1)) === 'accepted') {
      lo = hint + 1;
      continue;
    }
    hi = hint + 1;
    if ((await ask(hint)) === 'accepted') return hint;
    hi = hint;
  }
  // Bisect over common bounds, then over values, while probes remain.
  let triedJustAbove = false;
  for (;;) {
    if (hi - lo <= 1) return lo;
    if (probes >= maxProbes) {
      session.keep(setting, ...outcomes, `between ${lo} (accepted) and ${hi} (refused) ${unit}; the probe budget for this setting is spent`);
      return undefined;
    }
    const common = COMMON_BOUNDS.filter((c) => c > lo && c < hi);
    // Once no common bound is left between them, the likeliest bound is the accepted one (often
    // itself a common bound): one probe just above it settles that, else plain bisection.
    let value: number;
    if (common.length) value = common[Math.floor(common.length / 2)];
    else if (!triedJustAbove) {
      triedJustAbove = true;
      value = lo + 1;
    } else value = Math.floor((lo + hi) / 2);
    if ((await ask(value)) === 'accepted') lo = value;
    else hi = value;
  }
}
