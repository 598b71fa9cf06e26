import { test, expect, requirement, groupsOf, itemsOf, listBody } from './fixtures';
import {
  emptyPage,
  errorWith,
  everyItem,
  isListResult,
  listsExactly,
  listsIncluding,
  pageWithinSize,
  pagingEchoes,
  totalCountIs,
} from './checks';
import { ahead, together } from './api';

// Queries stay within the run's own groups (their Ids, or names only the run uses), so a run
// costs the same whatever else the target holds, and never reads data it did not create.
//
// Requests that do not depend on each other's answers are sent a few at a time up front, through
// together()/ahead() (so a slow target's latency overlaps instead of adding up), and judged one by
// one in the order they were listed: the same requests, the same checks, in the same order.

test.describe('LIST the list operation and its filters', () => {
  test('LIST-01 An empty object is a valid ListAssetGroups body', requirement('LIST-01'), async ({ api, verify }) => {
    await verify(await api.call('ListAssetGroups', {}), [isListResult]);
  });

  test('LIST-02 The asset-space filter returns the matching groups and only those', requirement('LIST-02'), async ({ api, dataset, verify, kit }) => {
    const profile = kit.context.profile;
    const all = groupsOf(dataset, (g) => g.via === 'primary' || g.via === 'channelA' || g.via === 'channelB');
    const ids = all.map((g) => g.id);
    // The space of each group is only known from a list: the create request carries none.
    const everything = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageSize: profile.list.pageSize.maximum }));
    await verify(everything, [isListResult, listsIncluding(groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id))]);
    const spaceOf = new Map(itemsOf(everything).map((item) => [item.Id, item.AssetSpaceId]));
    const spaces = [...new Set(spaceOf.values())].filter((space): space is string => typeof space === 'string');
    expect(spaces.length, 'the run\'s groups carry an AssetSpaceId').toBeGreaterThan(0);
    const [none, ...bySpace] = await ahead([
      // A space no group is in: a filter that is ignored shows up here even when the run has one space.
      () => api.call('ListAssetGroups', listBody(profile, { assetSpaceId: `${dataset.prefix}no-such-space`, groupIds: ids })),
      ...spaces.map((space) => () => api.call('ListAssetGroups', listBody(profile, { assetSpaceId: space, groupIds: ids, pageSize: profile.list.pageSize.maximum }))),
    ]);
    for (const [i, space] of spaces.entries()) {
      const expected = [...spaceOf].filter(([, s]) => s === space).map(([id]) => id as string);
      await test.step(`AssetSpaceId ${space}`, async () => {
        const filtered = await bySpace[i];
        await verify(filtered, [isListResult, everyItem(`AssetSpaceId = ${space}`, (item) => item.AssetSpaceId === space, 'filtering by asset space'), listsExactly(expected)]);
      });
    }
    await verify(await none, [isListResult, listsExactly([])]);
  });

  test('LIST-03 The group-type filter returns the matching groups and only those', requirement('LIST-03'), async ({ api, dataset, verify, kit }) => {
    const profile = kit.context.profile;
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const [aigc, noSuchType] = await together([
      () => api.call('ListAssetGroups', listBody(profile, { groupType: 'AIGC', groupIds: ids })),
      () => api.call('ListAssetGroups', listBody(profile, { groupType: `AGC_NO_SUCH_TYPE_${dataset.runId}`, groupIds: ids })),
    ]);
    await verify(aigc, [isListResult, everyItem('GroupType = AIGC', (item) => item.GroupType === 'AIGC', 'filtering by group type'), listsExactly(ids)]);
    await verify(noSuchType, [isListResult, listsExactly([])]);
  });

  test('LIST-04 The logical-ID filter returns exactly the groups asked for', requirement('LIST-04'), async ({ api, dataset, verify, kit }) => {
    const groups = groupsOf(dataset, (g) => g.via === 'primary');
    const some = groups.filter((_, i) => i % 2 === 1).map((g) => g.id);
    expect(some.length).toBeGreaterThan(0);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: some })), [isListResult, listsExactly(some), totalCountIs(some.length)]);
  });

  test('LIST-05 The name filter returns the matching groups and only those', requirement('LIST-05'), async ({ api, dataset, verify, kit }) => {
    const profile = kit.context.profile;
    const [target] = groupsOf(dataset, (g) => g.key === 'p2');
    const matches = (name: unknown, query: string) =>
      typeof name === 'string' && (profile.list.nameMatch === 'exact' ? name === query : name.toLowerCase().includes(query.toLowerCase()));
    const queries = [target.sent.Name];
    // A differently-cased inner part of the name: only a substring, case-insensitive match finds it.
    if (profile.list.nameMatch === 'case-insensitive-substring') queries.push(target.sent.Name.slice(dataset.prefix.length).toUpperCase());
    const answers = await ahead(queries.map((query) => () => api.call('ListAssetGroups', listBody(profile, { name: query, pageSize: profile.list.pageSize.maximum }))));
    for (const [i, query] of queries.entries()) {
      await test.step(`Name ${query}`, async () => {
        const listed = await answers[i];
        await verify(listed, [isListResult, listsIncluding([target.id]), everyItem(`Name matches ${JSON.stringify(query)} (${profile.list.nameMatch})`, (item) => matches(item.Name, query), `filtering by name, profile "${profile.name}": ${profile.list.nameMatch}`)]);
      });
    }
  });

  test('LIST-06 A filter that matches nothing gives no items and TotalCount 0', requirement('LIST-06'), async ({ api, dataset, verify, kit }) => {
    const nobody = `${dataset.prefix}nothing-matches-${Math.random().toString(36).slice(2, 10)}`;
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { name: nobody })), [isListResult, emptyPage, totalCountIs(0)]);
  });
});

test.describe('PAGE paging fields and invariants', () => {
  /** The run's primary groups, paged two at a time: enough for three pages, the last one short. */
  const PAGE_SIZE = 2;

  test('PAGE-01 A page holds at most PageSize items', requirement('PAGE-01'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const sizes = [1, PAGE_SIZE];
    const answers = await together(sizes.map((pageSize) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber: 1, pageSize }))));
    for (const [i, pageSize] of sizes.entries()) {
      await verify(answers[i], [isListResult, pageWithinSize, pagingEchoes(1, pageSize)]);
    }
  });

  test('PAGE-02 PageNumber and PageSize echo what was asked', requirement('PAGE-02'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const max = kit.context.profile.list.pageSize.maximum;
    const pagings = [[2, PAGE_SIZE], [1, max], [7, 3]];
    const answers = await together(pagings.map(([pageNumber, pageSize]) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber, pageSize }))));
    for (const [i, [pageNumber, pageSize]] of pagings.entries()) {
      await verify(answers[i], [isListResult, pagingEchoes(pageNumber, pageSize)]);
    }
  });

  test('PAGE-03 Omitted paging values take the profile\'s defaults', requirement('PAGE-03'), async ({ api, dataset, verify, kit }) => {
    const { pageNumber, pageSize } = kit.context.profile.list;
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const [filtered, unfiltered] = await together([() => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids })), () => api.call('ListAssetGroups', {})]);
    await verify(filtered, [isListResult, pagingEchoes(pageNumber.default, pageSize.default)]);
    await verify(unfiltered, [isListResult, pagingEchoes(pageNumber.default, pageSize.default)]);
  });

  test('PAGE-04 TotalCount is the number of matching groups, not the size of the page', requirement('PAGE-04'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    expect(ids.length).toBeGreaterThan(PAGE_SIZE);
    const pages = await together([1, 2].map((pageNumber) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber, pageSize: PAGE_SIZE }))));
    for (const page of pages) {
      await verify(page, [isListResult, totalCountIs(ids.length)]);
    }
  });

  test('PAGE-05 Walking the pages of one query yields each group exactly once', requirement('PAGE-05'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const pages = Math.ceil(ids.length / PAGE_SIZE);
    const seen: unknown[] = [];
    const answers = await together(Array.from({ length: pages }, (_, i) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber: i + 1, pageSize: PAGE_SIZE }))));
    for (const page of answers) {
      await verify(page, [isListResult, pageWithinSize]);
      seen.push(...itemsOf(page).map((item) => item.Id));
    }
    const repeated = seen.filter((id, i) => seen.indexOf(id) !== i);
    const missing = ids.filter((id) => !seen.includes(id));
    const stranger = seen.filter((id) => !ids.includes(id as string));
    expect({ repeated, missing, stranger }, `pages 1..${pages} of size ${PAGE_SIZE} over ${ids.length} groups`).toEqual({ repeated: [], missing: [], stranger: [] });
  });

  test('PAGE-06 A page past the end is empty and keeps the TotalCount', requirement('PAGE-06'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const pastEnd = Math.ceil(ids.length / PAGE_SIZE) + 1;
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber: pastEnd, pageSize: PAGE_SIZE })), [isListResult, emptyPage, totalCountIs(ids.length)]);
  });

  test('PAGE-07 Invalid paging values get 400 AssetBadRequest', requirement('PAGE-07'), async ({ api, verify, kit }) => {
    const { pageNumber, pageSize } = kit.context.profile.list;
    const invalid: [string, unknown, unknown][] = [
      [`${pageNumber.field} below its minimum`, pageNumber.minimum - 1, undefined],
      [`negative ${pageNumber.field}`, -1, undefined],
      [`fractional ${pageNumber.field}`, 1.5, undefined],
      [`${pageNumber.field} as a string`, '1', undefined],
      [`${pageSize.field} below its minimum`, undefined, pageSize.minimum - 1],
      [`${pageSize.field} above its maximum`, undefined, pageSize.maximum + 1],
      [`${pageSize.field} as a string`, undefined, String(pageSize.default)],
    ];
    const answers = await ahead(invalid.map(([, number, size]) => () => api.call('ListAssetGroups', listBody(kit.context.profile, { pageNumber: number, pageSize: size }))));
    for (const [i, [what]] of invalid.entries()) {
      await test.step(what, async () => {
        await verify(await answers[i], [errorWith(400, 'AssetBadRequest')]);
      });
    }
  });
});
