/** The Name filter: its field, and how it matches (whole or part of a Name, case), asked one group at a time. */
import { projectNameDefault } from './items';
import { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';
import { NAME_INFIX, idsOf, itemsOf, type Group, type DiscoverSession } from './client';
import { Scope, scoped } from './list';

/** The Name filter's field and how it matches, over two of the run's groups. */
export async function nameFilter(session: DiscoverSession, scope: Scope): Promise<void> {
  // The groups the Id filter was found with (not those the length bounds create later).
  const groups = session.created.filter((g) => scope.all.includes(g.id));
  const [a, other] = [groups[0], groups.find((g, i) => i > 0 && g.name.length < 60) ?? groups[1]];
  const pair = [a.id, other.id];
  let field: string | undefined;
  const eliminated: string[] = [];
  for (const candidate of CANDIDATES.name) {
    // One Id at a time: the other group's Id with this Name must find nothing (an ignored field finds it) before the group's own counts.
    if (scope.oneId) {
      const body = scoped(scope, {}, { [candidate]: a.name }, [other.id]);
      const answer = await session.list(body);
      if (!(answer.status === 200 && idsOf(answer).length === 0)) {
        eliminated.push(`${candidate}: ${session.summary(answer)}`);
        continue;
      }
      const seen = session.evidence('ListAssetGroups', body, answer);
      const ownBody = scoped(scope, {}, { [candidate]: a.name }, [a.id]);
      const own = await session.list(ownBody);
      const ownSeen = session.evidence('ListAssetGroups', ownBody, own);
      const got = idsOf(own);
      if (own.status === 200 && got.length === 1 && got[0] === a.id) {
        session.decide('list.filters.name', candidate, `${seen}: not the other group`, `${ownSeen}: the group of that Name`);
        field = candidate;
        projectNameDefault(session, a, itemsOf(own)[0], ownSeen);
        break;
      }
      eliminated.push(`${candidate}: ${session.summary(own)}`);
      continue;
    }
    const body = scoped(scope, {}, { [candidate]: a.name }, pair);
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    const got = idsOf(answer);
    if (answer.status === 200 && got.length === 1 && got[0] === a.id) {
      session.decide('list.filters.name', candidate, `${seen}: only the group of that Name, of two`);
      field = candidate;
      const item = itemsOf(answer)[0];
      projectNameDefault(session, a, item, seen);
      break;
    }
    eliminated.push(`${candidate}: ${session.summary(answer)}`);
  }
  if (!field) {
    session.keep('list.filters.name', `a full Name did not narrow two of the run's groups to one under any name tried: ${eliminated.join('; ')}`);
    session.keep('list.nameMatch', 'the Name filter is not known');
    return;
  }
  await nameMatch(session, scope, field, a, pair);
}

/**
 * How the Name filter matches (list.nameMatch, six values), over two of the run's groups whose
 * Names share a leading part (the run prefix and `Disc-`, in mixed case) and differ after it. An
 * inner part of both (neither at their start nor their end) tells substring from the rest; a
 * leading part tells prefix from exact; the same upper-cased tells whether case is ignored.
 */
async function nameMatch(session: DiscoverSession, scope: Scope, field: string, a: Group, pair: string[]): Promise<void> {
  const setting = 'list.nameMatch';
  const seen: string[] = [];
  const ask = async (query: string, what: string): Promise<number | undefined> => {
    // Under a filter of one Id, each group of the pair is asked for alone and the matches added up.
    const asked = scope.oneId ? pair.map((id) => [id]) : [pair];
    let count = 0;
    const shown: string[] = [];
    for (const ids of asked) {
      const body = scoped(scope, {}, { [field]: query }, ids);
      const answer = await session.list(body);
      shown.push(session.evidence('ListAssetGroups', body, answer));
      if (answer.status !== 200) {
        seen.push(`${shown.join(', ')}: refused`);
        return undefined;
      }
      count += idsOf(answer).length;
    }
    seen.push(`${shown.join(', ')}: ${what} matches ${count === 2 ? 'both' : count === 0 ? 'neither' : count === 1 ? 'one' : count}`);
    return count;
  };
  const leading = `${session.namePrefix}${NAME_INFIX}`;
  const inner = leading.slice(1, -1);
  const caseOf = async (mode: 'exact' | 'substring' | 'prefix', query: string, what: string, expected: number): Promise<void> => {
    const count = await ask(query.toUpperCase(), `${what}, upper-cased,`);
    if (count === expected) return session.decide(setting, `case-insensitive-${mode}`, ...seen);
    if (count === 0) return session.decide(setting, mode, ...seen);
    session.keep(setting, ...seen, 'the upper-cased form matched neither as many groups as the same in its own case nor none');
  };
  const byInner = await ask(inner, 'a part of both Names, inside them,');
  if (byInner === 2) return caseOf('substring', inner, 'the same part', 2);
  if (byInner !== 0) return session.keep(setting, ...seen, 'neither both groups nor none');
  const byLeading = await ask(leading, 'the leading part both Names share');
  if (byLeading === 2) return caseOf('prefix', leading, 'the same leading part', 2);
  if (byLeading !== 0) return session.keep(setting, ...seen, 'neither both groups nor none');
  // Neither a part inside nor a leading part: the whole Name (which found the filter) only.
  return caseOf('exact', a.name, 'the full Name of one', 1);
}
