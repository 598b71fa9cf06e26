/** `agc profile discover`: the run's groups, and the fields a create requires. */
import { TargetError, TokenError, type DiscoverSession } from './client';

export const CREATE_FIELDS = ['Name', 'Title', 'Description', 'GroupType', 'ProjectName'] as const;

/**
 * Creates the run's three groups (paging needs three), learning from the first which fields a
 * create requires. Nothing else is spent on creates until the list has been probed: the length
 * bounds come last (lengths.ts), with what the create budget has left.
 * Returns the fields every create must carry besides Name, with the values sent.
 */
export async function createRunGroups(session: DiscoverSession): Promise<Record<string, string>> {
  const filler: Record<string, string> = {
    Title: 'agc profile discover',
    Description: 'Created by agc profile discover',
    GroupType: 'AIGC',
    ProjectName: 'default',
  };
  // g0, g1, g2: the run's three groups share the Name part `Disc-g`, which no later group has (oneIdPagingScope).
  let fields: Record<string, string> = { Name: session.name('g0') };
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
  const required = Object.fromEntries(Object.entries(first.sent).filter(([k]) => k !== 'Name'));
  session.decide(
    'create.requiredFields',
    requiredFields,
    ...refusals,
    `CreateAssetGroup ${session.show(first.sent)} -> HTTP 200, Id g1: ${requiredFields.join(', ')} suffice${requiredFields.length === 1 ? 's' : ''}${refusals.length ? ' (each field added because a refusal named it or named none)' : ''}`,
  );
  while (session.created.length < 3) {
    const more = { ...required, Name: session.name(`g${session.created.length}`) };
    const answer = await session.create(more);
    if (answer.status !== 200) throw new TargetError(`could not create a group: ${session.evidence('CreateAssetGroup', more, answer)}`);
  }
  return required;
}
