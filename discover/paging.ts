/** `agc profile discover`: the paging defaults, the page-number and page-size fields, and their bounds. */
import { FIELD_NAME_CANDIDATES as CANDIDATES } from '../schemas/profile';
import { TargetError, idsOf, itemsOf, resultOf, type DiscoverSession } from './client';
import { bound, type Outcome } from './bound';
import { confirmErrorKind } from './error-shape';
import { scoped, type Scope } from './list';

/**
 * Paging defaults: what the answer that confirmed the Id filter (the run's groups, no paging field
 * sent) says it used. No request of its own, and nothing read but the run's groups.
 */
export function pagingDefaults(session: DiscoverSession, scope: Scope | undefined): { pageNumber: number; pageSize: number } {
  const fallback = { pageNumber: session.value<number>('list.pageNumber.default'), pageSize: session.value<number>('list.pageSize.default') };
  if (!scope) {
    session.keep('list.pageNumber.default', "the Id filter is not known, so no list of the run's own groups could show it");
    session.keep('list.pageSize.default', "the Id filter is not known, so no list of the run's own groups could show it");
    return fallback;
  }
  const { body, answer } = scope.confirmed;
  const seen = session.evidence('ListAssetGroups', body, answer);
  const result = resultOf(answer);
  const number = result?.PageNumber;
  const size = result?.PageSize;
  if (answer.status !== 200 || !result) {
    session.keep('list.pageNumber.default', `${seen}: no list result`);
    session.keep('list.pageSize.default', `${seen}: no list result`);
    return fallback;
  }
  const items = itemsOf(answer).length;
  if (Number.isInteger(number)) session.decide('list.pageNumber.default', number, `${seen}: a body without paging fields is answered as page ${number}`);
  else session.keep('list.pageNumber.default', `${seen}: PageNumber is not an integer`);
  if (Number.isInteger(size) && (size as number) >= items)
    session.decide('list.pageSize.default', size, `${seen}: a body without paging fields is answered with PageSize ${size}`);
  else session.keep('list.pageSize.default', `${seen}: PageSize ${session.show(size)} is not an integer at least the number of items`);
  return {
    pageNumber: Number.isInteger(number) ? (number as number) : fallback.pageNumber,
    pageSize: Number.isInteger(size) ? (size as number) : fallback.pageSize,
  };
}

/** The page-size field: a size of 1 (2 when the default is 1) over the run's groups returns that many and echoes it. */
export async function pageSizeField(
  session: DiscoverSession,
  scope: Scope,
  defaults: { pageSize: number },
): Promise<{ field: string; firstId: string } | undefined> {
  const size = defaults.pageSize === 1 ? 2 : 1;
  const eliminated: string[] = [];
  for (const field of CANDIDATES.pageSize) {
    const body = scoped(scope, { [field]: size });
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    if (answer.status === 200 && itemsOf(answer).length === size && resultOf(answer)?.PageSize === size) {
      session.decide('list.pageSize.field', field, `${seen}: ${size} of the ${scope.unconfined ? "user's groups" : `run's ${scope.all.length} groups`}`);
      return { field, firstId: idsOf(answer)[0] };
    }
    eliminated.push(`${field}: ${session.summary(answer)}`);
  }
  session.keep(
    'list.pageSize.field',
    `a page size of ${size} over the ${scope.unconfined ? "user's groups" : `run's ${scope.all.length} groups`} was ignored or refused under every name tried: ${eliminated.join('; ')}`,
  );
  return undefined;
}

/** The page-number field: page 2 of size 1 echoes 2 and holds another group than page 1. */
export async function pageNumberField(
  session: DiscoverSession,
  scope: Scope,
  sized: { field: string; firstId: string },
  defaults: { pageNumber: number },
): Promise<void> {
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
      session.decide('list.pageNumber.field', field, `${seen}: another group than page ${defaults.pageNumber} (${session.show(first)})`);
      return;
    }
    eliminated.push(`${field}: ${session.summary(answer)}`);
  }
  session.keep('list.pageNumber.field', `page ${page} of size 1 was ignored or refused under every name tried: ${eliminated.join('; ')}`);
}

/** The smallest page number and size: one below the default page and a size of 0 should be refused. */
export async function pagingMinimums(session: DiscoverSession, scope: Scope): Promise<void> {
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
    const served = { number: resultOf(answer)?.PageNumber, size: resultOf(answer)?.PageSize };
    if (answer.status === 400) {
      session.decide(`${setting}.minimum`, minimum, `${seen}: ${below} is refused`);
      if (setting === 'list.pageNumber') session.decide('list.invalidPaging', 'refuse', `${seen}: ${below} is refused`);
      confirmErrorKind(session, answer, 'AssetBadRequest', seen);
    } else if (
      answer.status === 200 &&
      Number.isInteger(served.number) &&
      (served.number as number) >= minimum &&
      Number.isInteger(served.size) &&
      (served.size as number) >= 1
    ) {
      // Served as a valid page the answer states: the smallest value it serves as asked is the minimum, and the rest is adjusted.
      session.decide(`${setting}.minimum`, minimum, `${seen}: ${below} is served as PageNumber ${served.number}, PageSize ${served.size}`);
      session.decide('list.invalidPaging', 'adjust', `${seen}: ${below} is not refused but served as a valid page the answer states`);
    } else session.keep(`${setting}.minimum`, `${seen}: ${below} was not refused; the kit expects a 400 below the minimum (PAGE-07), review this`);
  }
  await fractionalPaging(session, scope);
}

/**
 * A fractional page number: refused, or served as a valid page the answer states. Asked apart from a
 * value below the minimum, since stacks differ there: Jackson reads 1.5 as 1 where @Min(1) refuses 0.
 */
async function fractionalPaging(session: DiscoverSession, scope: Scope): Promise<void> {
  const setting = 'list.fractionalPaging';
  if (!session.decisions.get('list.pageNumber.field')?.determined) return session.keep(setting, 'list.pageNumber.field is not known');
  const value = session.value<number>('list.pageNumber.default') + 0.5;
  const body = scoped(scope, { [session.value<string>('list.pageNumber.field')]: value });
  const answer = await session.list(body);
  const seen = session.evidence('ListAssetGroups', body, answer);
  const served = { number: resultOf(answer)?.PageNumber, size: resultOf(answer)?.PageSize };
  if (answer.status === 400) return session.decide(setting, 'refuse', `${seen}: ${value} is refused`);
  if (answer.status === 200 && Number.isInteger(served.number) && Number.isInteger(served.size))
    return session.decide(setting, 'adjust', `${seen}: ${value} is served as PageNumber ${served.number}, PageSize ${served.size}`);
  session.keep(setting, `${seen}: neither refused nor served as a page the answer states`);
}

/**
 * The largest page size, and what a larger one gets. A size answered 200 with that size is
 * accepted; a 400 refuses it; a 200 with a smaller Result.PageSize serves the smaller size instead
 * (clamp), and names the bound as a refusal's message would. The answer just above the bound found
 * settles list.pageSize.aboveMaximum: 400 refuse, 200 with Result.PageSize = the bound clamp.
 */
export async function largestPage(session: DiscoverSession, scope: Scope): Promise<void> {
  const setting = 'list.pageSize.maximum';
  if (!session.decisions.get('list.pageSize.field')?.determined) {
    session.keep('list.pageSize.aboveMaximum', 'list.pageSize.field is not known');
    return session.keep(setting, 'list.pageSize.field is not known');
  }
  const field = session.value<string>('list.pageSize.field');
  const outcomes: string[] = [];
  const answers = new Map<number, { status: number; echo: unknown; seen: string }>();
  const probe = async (size: number): Promise<Outcome> => {
    const body = scoped(scope, { [field]: size });
    const answer = await session.list(body);
    const seen = session.evidence('ListAssetGroups', body, answer);
    outcomes.push(seen);
    const echo = resultOf(answer)?.PageSize;
    answers.set(size, { status: answer.status, echo, seen });
    session.lastMessage = answer.status === 200 && typeof echo === 'number' ? `served as ${echo}` : session.messageOf(answer);
    if (answer.status === 200 && echo === size) return 'accepted';
    if (answer.status === 400 || (answer.status === 200 && typeof echo === 'number' && echo < size)) return 'refused';
    throw new TargetError(`a page size of ${size} got neither 200 with PageSize ${size} or less, nor 400: ${seen}`);
  };
  const lo = Math.max(session.value<number>('list.pageSize.default'), 1);
  const found = await bound(session, lo, 1000, probe, setting, outcomes, { unit: 'items per page', maxProbes: 10, eggs: () => Infinity });
  if (found === undefined) return session.keep('list.pageSize.aboveMaximum', 'list.pageSize.maximum is not known');
  session.decide(setting, found, ...outcomes);
  // The answer just above the bound: the search asked it, unless the bound came from bisection's other side.
  let above = answers.get(found + 1);
  if (!above) {
    await probe(found + 1);
    above = answers.get(found + 1)!;
  }
  if (above.status === 400) return session.decide('list.pageSize.aboveMaximum', 'refuse', `${above.seen}: one above the maximum is refused`);
  if (above.status === 200 && above.echo === found)
    return session.decide('list.pageSize.aboveMaximum', 'clamp', `${above.seen}: one above the maximum is served as the maximum, and Result.PageSize says so`);
  session.keep('list.pageSize.aboveMaximum', `${above.seen}: neither a 400 nor Result.PageSize ${found}`);
}

/**
 * A page past the end: no items with TotalCount kept (empty), the last page with its own PageNumber
 * (last), or a 400 (refuse). Over the run's three groups in pages of 2 (two pages), or, where no list
 * holds them alone (scope.unconfined), over the user's whole list: a first page of the largest size
 * tells how many the user has, then the page two past its last is asked. Groups the user creates
 * meanwhile may move the end, so there the answer is read by its own TotalCount; a page two past the
 * end stays past it unless more than a whole page was created in between.
 */
export async function pastEnd(session: DiscoverSession, scope: Scope): Promise<void> {
  const setting = 'list.pageNumber.pastEnd';
  for (const paging of ['list.pageNumber', 'list.pageSize'] as const) {
    if (!session.decisions.get(`${paging}.field`)?.determined) return session.keep(setting, `${paging}.field is not known`);
  }
  const numberField = session.value<string>('list.pageNumber.field');
  const sizeField = session.value<string>('list.pageSize.field');
  const first = session.value<number>('list.pageNumber.default');
  let size = 2;
  let total = scope.all.length;
  if (scope.unconfined) {
    // A size the target was seen to serve: a refused size would read as a refused page.
    if (!session.decisions.get('list.pageSize.maximum')?.determined)
      return session.keep(setting, "list.pageSize.maximum is not known, and the user's whole list is paged in pages of that size");
    size = session.value<number>('list.pageSize.maximum');
    const body = scoped(scope, { [numberField]: first, [sizeField]: size });
    const answer = await session.list(body);
    const count = resultOf(answer)?.TotalCount;
    if (answer.status !== 200 || typeof count !== 'number' || !Number.isInteger(count) || count < scope.all.length)
      return session.keep(setting, `${session.evidence('ListAssetGroups', body, answer)}: no TotalCount of the user's whole list to page past`);
    total = count;
  }
  const last = first + Math.max(1, Math.ceil(total / size)) - 1;
  const body = scoped(scope, { [numberField]: last + 2, [sizeField]: size });
  const answer = await session.list(body);
  const seen = session.evidence('ListAssetGroups', body, answer);
  const result = resultOf(answer);
  const items = itemsOf(answer).length;
  const counted = typeof result?.TotalCount === 'number' ? result.TotalCount : undefined;
  // The end as the answer itself counts it: the user's list may have grown since the first page.
  const theirs = scope.unconfined && counted !== undefined && counted >= total ? counted : total;
  const theirLast = first + Math.max(1, Math.ceil(theirs / size)) - 1;
  const onLast = theirs - (theirLast - first) * size;
  const ofWhat = scope.unconfined ? ` (the user's whole list, ${theirs} group(s) in pages of ${size})` : '';
  if (answer.status === 400) return session.decide(setting, 'refuse', `${seen}: page ${last + 2} of ${last} is refused${ofWhat}`);
  if (answer.status === 200 && items === 0 && counted === theirs && theirLast < last + 2)
    return session.decide(setting, 'empty', `${seen}: page ${last + 2} of ${theirLast} has no items, and TotalCount is kept${ofWhat}`);
  const ownGroups = scope.unconfined || idsOf(answer).every((id) => scope.all.includes(id));
  if (answer.status === 200 && items === onLast && result?.PageNumber === theirLast && theirLast < last + 2 && ownGroups) {
    return session.decide(
      setting,
      'last',
      `${seen}: page ${last + 2} of ${theirLast} is answered with the last page, ${onLast} item(s), and its own PageNumber${ofWhat}`,
    );
  }
  session.keep(
    setting,
    `${seen}: page ${last + 2} of ${theirLast} got none of: a 400, no items with TotalCount ${theirs}, the last page (${onLast} item(s), PageNumber ${theirLast})${ofWhat}`,
  );
}
