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

// Queries stay within the run's own groups (their Ids, or names only the run uses), so a run
// costs the same whatever else the target holds, and never reads data it did not create.

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
    for (const space of spaces) {
      const expected = [...spaceOf].filter(([, s]) => s === space).map(([id]) => id as string);
      await test.step(`AssetSpaceId ${space}`, async () => {
        const filtered = await api.call('ListAssetGroups', listBody(profile, { assetSpaceId: space, groupIds: ids, pageSize: profile.list.pageSize.maximum }));
        await verify(filtered, [isListResult, everyItem(`AssetSpaceId = ${space}`, (item) => item.AssetSpaceId === space, 'filtering by asset space'), listsExactly(expected)]);
      });
    }
    // A space no group is in: a filter that is ignored shows up here even when the run has one space.
    const none = await api.call('ListAssetGroups', listBody(profile, { assetSpaceId: `${dataset.prefix}no-such-space`, groupIds: ids }));
    await verify(none, [isListResult, listsExactly([])]);
  });

  test('LIST-03 The group-type filter returns the matching groups and only those', requirement('LIST-03'), async ({ api, dataset, verify, kit }) => {
    const profile = kit.context.profile;
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(profile, { groupType: 'AIGC', groupIds: ids })), [isListResult, everyItem('GroupType = AIGC', (item) => item.GroupType === 'AIGC', 'filtering by group type'), listsExactly(ids)]);
    await verify(await api.call('ListAssetGroups', listBody(profile, { groupType: `AGC_NO_SUCH_TYPE_${dataset.runId}`, groupIds: ids })), [isListResult, listsExactly([])]);
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
    for (const query of queries) {
      await test.step(`Name ${query}`, async () => {
        const listed = await api.call('ListAssetGroups', listBody(profile, { name: query, pageSize: profile.list.pageSize.maximum }));
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
    for (const pageSize of [1, PAGE_SIZE]) {
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber: 1, pageSize })), [isListResult, pageWithinSize, pagingEchoes(1, pageSize)]);
    }
  });

  test('PAGE-02 PageNumber and PageSize echo what was asked', requirement('PAGE-02'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const max = kit.context.profile.list.pageSize.maximum;
    for (const [pageNumber, pageSize] of [[2, PAGE_SIZE], [1, max], [7, 3]]) {
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber, pageSize })), [isListResult, pagingEchoes(pageNumber, pageSize)]);
    }
  });

  test('PAGE-03 Omitted paging values take the profile\'s defaults', requirement('PAGE-03'), async ({ api, dataset, verify, kit }) => {
    const { pageNumber, pageSize } = kit.context.profile.list;
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids })), [isListResult, pagingEchoes(pageNumber.default, pageSize.default)]);
    await verify(await api.call('ListAssetGroups', {}), [isListResult, pagingEchoes(pageNumber.default, pageSize.default)]);
  });

  test('PAGE-04 TotalCount is the number of matching groups, not the size of the page', requirement('PAGE-04'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    expect(ids.length).toBeGreaterThan(PAGE_SIZE);
    for (const pageNumber of [1, 2]) {
      await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber, pageSize: PAGE_SIZE })), [isListResult, totalCountIs(ids.length)]);
    }
  });

  test('PAGE-05 Walking the pages of one query yields each group exactly once', requirement('PAGE-05'), async ({ api, dataset, verify, kit }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const pages = Math.ceil(ids.length / PAGE_SIZE);
    const seen: unknown[] = [];
    for (let pageNumber = 1; pageNumber <= pages; pageNumber++) {
      const page = await api.call('ListAssetGroups', listBody(kit.context.profile, { groupIds: ids, pageNumber, pageSize: PAGE_SIZE }));
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
    for (const [what, number, size] of invalid) {
      await test.step(what, async () => {
        await verify(await api.call('ListAssetGroups', listBody(kit.context.profile, { pageNumber: number, pageSize: size })), [errorWith(400, 'AssetBadRequest')]);
      });
    }
  });
});
