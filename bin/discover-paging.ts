/** `agc profile discover`: the paging defaults, the page-number and page-size fields, and their bounds. */
import { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';
import { TargetError, TokenError, idsOf, itemsOf, resultOf, type ProbeSession } from './discover-client';
import { bound } from './discover-create';
import { confirmErrorKind } from './discover-error-shape';
import { scoped, type Scope } from './discover-list';

/** Paging defaults: what an empty list body's answer says it used. */
export async function pagingDefaults(session: ProbeSession): Promise<{ pageNumber: number; pageSize: number }> {
  const body = {};
  const answer = await session.list(body);
  if (answer.status === 401) throw new TokenError(`AG_TOKEN was refused: ListAssetGroups {} -> ${session.summary(answer)}`);
  const seen = session.evidence('ListAssetGroups', body, answer);
  const result = resultOf(answer);
  const number = result?.PageNumber;
  const size = result?.PageSize;
  const fallback = { pageNumber: session.value<number>('list.pageNumber.default'), pageSize: session.value<number>('list.pageSize.default') };
  if (answer.status !== 200 || !result) {
    session.keep('list.pageNumber.default', `${seen}: no list result`);
    session.keep('list.pageSize.default', `${seen}: no list result`);
    return fallback;
  }
  const items = itemsOf(answer).length;
  if (Number.isInteger(number)) session.decide('list.pageNumber.default', number, `${seen}: a body without paging fields is answered as page ${number}`);
  else session.keep('list.pageNumber.default', `${seen}: PageNumber is not an integer`);
  if (Number.isInteger(size) && (size as number) >= items) session.decide('list.pageSize.default', size, `${seen}: a body without paging fields is answered with PageSize ${size}`);
  else session.keep('list.pageSize.default', `${seen}: PageSize ${session.show(size)} is not an integer at least the number of items`);
  return { pageNumber: Number.isInteger(number) ? (number as number) : fallback.pageNumber, pageSize: Number.isInteger(size) ? (size as number) : fallback.pageSize };
}

/** The page-size field: a size of 1 (2 when the default is 1) over the run's groups returns that many and echoes it. */
export async function pageSizeField(session: ProbeSession, scope: Scope, defaults: { pageSize: number }): Promise<{ field: string; firstId: string } | undefined> {
  const size = defaults.pageSize === 1 ? 2 : 1;
  const eliminated: string[] = [];
  for (const field of CANDIDATES.pageSize) {
    const body = scoped(scope, { [field]: size });
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    if (answer.status === 200 && itemsOf(answer).length === size && resultOf(answer)?.PageSize === size) {
      session.decide('list.pageSize.field', field, `${seen}: ${size} of the run's ${scope.all.length} groups`);
      return { field, firstId: idsOf(answer)[0] };
    }
    eliminated.push(`${field}: ${session.summary(answer)}`);
  }
  session.keep('list.pageSize.field', `a page size of ${size} over the run's ${scope.all.length} groups was ignored or refused under every name tried: ${eliminated.join('; ')}`);
  return undefined;
}

/** The page-number field: page 2 of size 1 echoes 2 and holds another group than page 1. */
export async function pageNumberField(session: ProbeSession, scope: Scope, sized: { field: string; firstId: string }, defaults: { pageNumber: number }): Promise<void> {
  const page = defaults.pageNumber + 1;
  const eliminated: string[] = [];
  // Page 1's first group: the size probe's (of size 1, or 2 when the default size is 1).
  const first = sized.firstId;
  for (const field of CANDIDATES.pageNumber) {
    const body = scoped(scope, { [sized.field]: 1, [field]: page });
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    const got = idsOf(answer);
    if (answer.status === 200 && resultOf(answer)?.PageNumber === page && got.length === 1 && got[0] !== first) {
      session.decide('list.pageNumber.field', field, `${seen}: another group than page ${defaults.pageNumber} (${first})`);
      return;
    }
    eliminated.push(`${field}: ${session.summary(answer)}`);
  }
  session.keep('list.pageNumber.field', `page ${page} of size 1 was ignored or refused under every name tried: ${eliminated.join('; ')}`);
}

/** The smallest page number and size: one below the default page and a size of 0 should be refused. */
export async function pagingMinimums(session: ProbeSession, scope: Scope): Promise<void> {
  for (const [setting, below, minimum] of [
    ['list.pageNumber', session.value<number>('list.pageNumber.default') - 1, session.value<number>('list.pageNumber.default')],
    ['list.pageSize', 0, 1],
  ] as const) {
    const field = session.value<string>(`${setting}.field`);
    if (!session.decisions.get(`${setting}.field`)?.determined) {
      session.keep(`${setting}.minimum`, `${setting}.field is not known`);
      continue;
    }
    const body = scoped(scope, { [field]: below });
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    if (answer.status === 400) {
      session.decide(`${setting}.minimum`, minimum, `${seen}: ${below} is refused`);
      confirmErrorKind(session, answer, 'AssetBadRequest', seen);
    } else session.keep(`${setting}.minimum`, `${seen}: ${below} was not refused; the kit expects a 400 below the minimum (PAGE-07), review this`);
  }
}

/** The largest page size accepted: what is refused past it, by the message's bound or by bisection. */
export async function largestPage(session: ProbeSession, scope: Scope): Promise<void> {
  const setting = 'list.pageSize.maximum';
  if (!session.decisions.get('list.pageSize.field')?.determined) return session.keep(setting, 'list.pageSize.field is not known');
  const field = session.value<string>('list.pageSize.field');
  const outcomes: string[] = [];
  let clamped: number | undefined;
  const probe = async (size: number): Promise<'accepted' | 'refused'> => {
    const body = scoped(scope, { [field]: size });
    const answer = await session.list(body);
    outcomes.push(session.evidence('ListAssetGroups', body, answer));
    session.lastMessage = session.messageOf(answer);
    const echo = resultOf(answer)?.PageSize;
    if (answer.status === 200 && echo === size) return 'accepted';
    if (answer.status === 200 && typeof echo === 'number' && echo < size) clamped = echo;
    if (answer.status === 200 || answer.status === 400) return 'refused';
    throw new TargetError(`a page size of ${size} got neither 200 nor 400: ${outcomes[outcomes.length - 1]}`);
  };
  const lo = Math.max(session.value<number>('list.pageSize.default'), 1);
  const found = await bound(session, lo, 1000, probe, setting, outcomes, 'items per page', 10);
  if (found === undefined) return;
  const note = clamped !== undefined ? `; larger sizes are answered with PageSize ${clamped} instead of a 400: the kit expects a 400 above the maximum (PAGE-07), review this` : '';
  session.decide(setting, found, ...outcomes.slice(0, -1), `${outcomes[outcomes.length - 1]}${note}`);
}
