import { test, requirement, groupsOf, itemsOf, listBody, LISTED, pagingAssessable, idFilterAssessable } from './fixtures';
import {
  ERROR_BODY,
  SHAPED,
  pagingBounds,
  pastEndAnswer,
  resultPresent,
  tokenAccepted,
  everyItem,
  filtersHold,
  itemsAtMost,
  listedBy,
  listsExactly,
  listsIncluding,
  literalNameMatch,
  owned,
  pagesPartition,
  pagingEchoes,
  refusedOrEmpty,
  totalAtMost,
  totalCountIs,
  type Failure,
  type MultiCheck,
} from './checks';
import { ahead, together } from './api';
import { nameMatchParts, NAME_MATCHES, type NameMatch } from '../schemas/profile';

// Queries stay within the run's own groups (their Ids, or names only the run uses), so a run
// costs the same whatever else the target holds, and never reads data it did not create.

const contains = (name: unknown, query: string) => typeof name === 'string' && name.toLowerCase().includes(query.toLowerCase());

test.describe('LIST the list operation and its filters', () => {
  test('LIST-01 An empty object is a valid ListAssetGroups body', requirement('LIST-01'), async ({ dataset, verify }) => {
    // The preflight's list: a body of {} with the primary token, the run's first request.
    await verify(dataset.shared.emptyList, LISTED);
  });

  test('LIST-02 The asset-space filter returns the matching groups and only those', requirement('LIST-02'), async ({ api, dataset, verify, profile }) => {
    const all = groupsOf(dataset, () => true);
    const ids = all.map((g) => g.id);
    // The space of each group is only known from a list: the create request carries none.
    const everything = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageSize: profile.list.pageSize.maximum }));
    await verify(everything, [...listedBy('LIST-04'), owned('LIST-04', listsIncluding(groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id)))]);
    const spaceOf = new Map(itemsOf(everything).map((item) => [item.Id, item.AssetSpaceId]));
    const spaces = [...new Set(spaceOf.values())].filter((space): space is string => typeof space === 'string');
    test.skip(spaces.length === 0, 'not assessable: the run\'s groups carry no AssetSpaceId string (SCHEMA-02 judges that)');
    const [none, ...bySpace] = await ahead([
      // A space no group is in: a filter that is ignored shows up here even when the run has one space.
      () => api.call('ListAssetGroups', listBody(profile, { assetSpaceId: `${dataset.prefix}no-such-space`, groupIds: ids })),
      ...spaces.map((space) => () => api.call('ListAssetGroups', listBody(profile, { assetSpaceId: space, groupIds: ids, pageSize: profile.list.pageSize.maximum }))),
    ]);
    for (const [i, space] of spaces.entries()) {
      const expected = [...spaceOf].filter(([, s]) => s === space).map(([id]) => id as string);
      await test.step(`AssetSpaceId ${space}`, async () => {
        await verify(await bySpace[i], [...LISTED, ...filtersHold({ groupIds: ids }), everyItem(`AssetSpaceId = ${space}`, (item) => item.AssetSpaceId === space, 'filtering by asset space'), listsExactly(expected)]);
      });
    }
    // Whether a space no group has is answered with an empty list or refused is not shown: both conform.
    await verify(await none, [SHAPED, refusedOrEmpty]);
  });

  test('LIST-03 The group-type filter returns the matching groups and only those', requirement('LIST-03'), async ({ api, dataset, verify, profile }) => {
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const [aigc, noSuchType] = await together([
      () => api.call('ListAssetGroups', listBody(profile, { groupType: 'AIGC', groupIds: ids })),
      () => api.call('ListAssetGroups', listBody(profile, { groupType: `AGC_NO_SUCH_TYPE_${dataset.runId}`, groupIds: ids })),
    ]);
    await verify(aigc, [...LISTED, ...filtersHold({ groupIds: ids }), everyItem('GroupType = AIGC', (item) => item.GroupType === 'AIGC', 'filtering by group type'), listsExactly(ids)]);
    // Values of GroupType other than AIGC are not shown: an empty list and a refusal both conform.
    await verify(noSuchType, [SHAPED, refusedOrEmpty]);
  });

  test('LIST-04 The logical-ID filter returns exactly the groups asked for', requirement('LIST-04'), async ({ api, dataset, verify, profile }) => {
    const some = groupsOf(dataset, (g) => g.via === 'primary').filter((_, i) => i % 2 === 1).map((g) => g.id);
    idFilterAssessable(dataset);
    const answer = await api.call('ListAssetGroups', listBody(profile, { groupIds: some }));
    await verify(answer, [...LISTED, listsExactly(some), owned('LIST-04', totalAtMost(some.length)), owned('PAGE-04', totalCountIs(some.length))]);
  });

  test('LIST-05 The name filter finds a group by its full Name, and only groups whose Name contains what was asked', requirement('LIST-05'), async ({ api, dataset, verify, profile }) => {
    const [target] = groupsOf(dataset, (g) => g.key === 'p2');
    const name = target.sent.Name;
    // Wildcard probes: a name filter built on LIKE, glob or regex without escaping widens the match.
    const probes = [`${dataset.prefix}%`, `${name.slice(0, -2)}_${name.slice(-1)}`, `${dataset.prefix}.*`];
    const [full, ...wild] = await together([name, ...probes].map((query) => () => api.call('ListAssetGroups', listBody(profile, { name: query, pageSize: profile.list.pageSize.maximum }))));
    await verify(full, [...LISTED, listsIncluding([target.id]), everyItem(`Name contains ${JSON.stringify(name)}`, (item) => contains(item.Name, name), 'filtering by name')]);
    for (const [i, query] of probes.entries()) await test.step(`Name ${query}`, async () => verify(wild[i], [SHAPED, literalNameMatch(query)]));
  });

  test('LIST-06 A filter that matches nothing gives no items and TotalCount 0', requirement('LIST-06'), async ({ api, dataset, verify, profile }) => {
    const nobody = `${dataset.prefix}nothing-matches-${Math.random().toString(36).slice(2, 10)}`;
    await verify(await api.call('ListAssetGroups', listBody(profile, { name: nobody })), [...LISTED, ...filtersHold({ name: nobody }), totalCountIs(0)]);
  });

  test('LIST-07 The name filter matches as the profile says', requirement('LIST-07'), async ({ api, dataset, judge, verify, profile }) => {
    // p2's Name is agc-<run>-ds-p2-MixedCase-<salt>: a leading part, an inner part and the whole, each as
    // written and in upper case, tell exact from prefix from substring, and whether case matters.
    const [target] = groupsOf(dataset, (g) => g.key === 'p2');
    const name = target.sent.Name;
    const leading = name.slice(0, -3);
    const inner = name.slice(dataset.prefix.length, -3);
    const probes = { whole: name, leading, inner, wholeUpper: name.toUpperCase(), leadingUpper: leading.toUpperCase(), innerUpper: inner.toUpperCase() };
    const keys = Object.keys(probes) as (keyof typeof probes)[];
    const answers = await together(keys.map((key) => () => api.call('ListAssetGroups', listBody(profile, { name: probes[key], pageSize: profile.list.pageSize.maximum }))));
    const nameMatch: MultiCheck = (exchanges): Failure | undefined => {
      const documented = `profile "${profile.name}": list.nameMatch ${profile.list.nameMatch}`;
      const refused = exchanges.find((ex) => ex.response?.status !== 200);
      if (refused) return { check: 'nameMatch', received: `HTTP ${refused.response?.status ?? 'nothing'} for the name filter ${refused.request.body.slice(0, 200)}`, documented, fix: 'accept a name filter' };
      const found = Object.fromEntries(keys.map((key, i) => [key, itemsOf(exchanges[i]).some((item) => item.Id === target.id)])) as Record<keyof typeof probes, boolean>;
      // The one setting these answers fit, if any: what each mode and case would find.
      const fits = NAME_MATCHES.filter((match) => {
        const { mode, caseInsensitive } = nameMatchParts(match);
        const expect = { whole: true, leading: mode !== 'exact', inner: mode === 'substring' };
        return keys.every((key) => {
          const upper = key.endsWith('Upper');
          const base = key.replace('Upper', '') as 'whole' | 'leading' | 'inner';
          return found[key] === (expect[base] && (!upper || caseInsensitive || probes[key] === probes[base]));
        });
      });
      if (fits.includes(profile.list.nameMatch)) return undefined;
      const received = keys.map((key) => `${JSON.stringify(probes[key])} ${found[key] ? 'finds' : 'does not find'} it`).join('; ');
      const failure = { check: 'nameMatch', received, documented, fix: 'match the name filter as the profile says (one rule for every query), or supply your profile with AG_PROFILE' };
      // Exactly one setting explains every answer: the target made another choice, not a mistake.
      return fits.length === 1 ? { ...failure, profileMismatch: `the name filter matches as ${fits[0]}: ${received}; set list.nameMatch: ${fits[0] satisfies NameMatch}` } : failure;
    };
    // Answers that cannot be read as lists are SCHEMA-02's, not a way of matching.
    for (const answer of answers) await verify(answer, [SHAPED]);
    await judge(answers, Object.defineProperty(nameMatch, 'name', { value: 'nameMatch' }));
  });
});

test.describe('PAGE paging fields and invariants', () => {
  /** The run's primary groups, paged two at a time: enough for three pages, the last one short. */
  const PAGE_SIZE = 2;

  test('PAGE-01 A page holds at most PageSize items', requirement('PAGE-01'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const sizes = [1, PAGE_SIZE];
    const answers = await together(sizes.map((pageSize) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber: 1, pageSize }))));
    for (const [i, pageSize] of sizes.entries()) await verify(answers[i], [...LISTED, ...filtersHold({ groupIds: ids }), itemsAtMost(pageSize)]);
  });

  test('PAGE-02 PageNumber and PageSize echo what was asked', requirement('PAGE-02'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    // Pages within the result: what a page past the end says is PAGE-06's (the profile's list.pageNumber.pastEnd).
    const pagings = [[2, PAGE_SIZE], [1, profile.list.pageSize.maximum], [2, 3]];
    const answers = await together(pagings.map(([pageNumber, pageSize]) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber, pageSize }))));
    for (const [i, [pageNumber, pageSize]] of pagings.entries()) await verify(answers[i], [...LISTED, pagingEchoes(pageNumber, pageSize)]);
  });

  test('PAGE-03 Omitted paging values take the profile\'s defaults', requirement('PAGE-03'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { pageNumber, pageSize } = profile.list;
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const filtered = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids }));
    await verify(filtered, [...listedBy('LIST-04'), pagingEchoes(pageNumber.default, pageSize.default)]);
    await verify(dataset.shared.emptyList, [...listedBy('LIST-01'), pagingEchoes(pageNumber.default, pageSize.default)]);
  });

  test('PAGE-04 TotalCount is the number of matching groups, not the size of the page', requirement('PAGE-04'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const pages = await together([1, 2].map((pageNumber) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber, pageSize: PAGE_SIZE }))));
    for (const page of pages) await verify(page, [...LISTED, ...filtersHold({ groupIds: ids }), owned('LIST-04', totalAtMost(ids.length)), totalCountIs(ids.length)]);
  });

  test('PAGE-05 Walking the pages of one query yields each group exactly once', requirement('PAGE-05'), async ({ api, dataset, verify, judge, profile }) => {
    pagingAssessable(dataset);
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const pages = await together(Array.from({ length: Math.ceil(ids.length / PAGE_SIZE) }, (_, i) => () => api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber: i + 1, pageSize: PAGE_SIZE }))));
    for (const page of pages) await verify(page, [...LISTED, ...filtersHold({ groupIds: ids }), owned('PAGE-01', itemsAtMost(PAGE_SIZE))]);
    await judge(pages, pagesPartition(ids));
  });

  test('PAGE-06 A page past the end is answered as the profile says', requirement('PAGE-06'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const ids = groupsOf(dataset, (g) => g.via === 'primary').map((g) => g.id);
    const lastPage = Math.ceil(ids.length / PAGE_SIZE);
    const answer = await api.call('ListAssetGroups', listBody(profile, { groupIds: ids, pageNumber: lastPage + 1, pageSize: PAGE_SIZE }));
    // Judged before anything that needs a 200: a refusal may be the profile's choice.
    const judged = pastEndAnswer(lastPage + 1, lastPage, ids.length);
    const refused = (answer.response?.status ?? 0) >= 400;
    await verify(answer, refused
      ? [owned('AUTH-05', tokenAccepted), judged, ...ERROR_BODY]
      : [owned('AUTH-05', tokenAccepted), owned('ENV-06', resultPresent), SHAPED, ...filtersHold({ groupIds: ids }), owned('LIST-04', totalAtMost(ids.length)), judged, owned('PAGE-04', totalCountIs(ids.length))]);
  });

  test('PAGE-07 Invalid paging values get 400 AssetBadRequest', requirement('PAGE-07'), async ({ api, dataset, verify, profile }) => {
    pagingAssessable(dataset);
    const { pageNumber, pageSize } = profile.list;
    const invalid: [string, unknown, unknown][] = [
      [`${pageNumber.field} below its minimum`, pageNumber.minimum - 1, undefined],
      [`negative ${pageNumber.field}`, -1, undefined],
      [`fractional ${pageNumber.field}`, 1.5, undefined],
      [`${pageNumber.field} as a string`, '1', undefined],
      [`${pageSize.field} below its minimum`, undefined, pageSize.minimum - 1],
      [`${pageSize.field} above its maximum`, undefined, pageSize.maximum + 1],
      [`${pageSize.field} as a string`, undefined, String(pageSize.default)],
    ];
    const answers = await ahead(invalid.map(([, number, size]) => () => api.call('ListAssetGroups', listBody(profile, { pageNumber: number, pageSize: size }))));
    for (const [i, [what, number, size]] of invalid.entries()) {
      await test.step(what, async () => {
        const answer = await answers[i];
        const judged = pagingBounds(number === undefined ? 'pageSize' : 'pageNumber', number ?? size);
        // Where the profile clamps, a page size above the maximum is a valid list; otherwise every value here is refused,
        // and a 400 whose body or kind is wrong is ENV's and ERR's finding.
        const clamped = pageSize.aboveMaximum === 'clamp' && size === pageSize.maximum + 1;
        return verify(answer, clamped ? [owned('AUTH-05', tokenAccepted), judged, owned('ENV-06', resultPresent), SHAPED] : [judged, ...ERROR_BODY]);
      });
    }
  });
});
