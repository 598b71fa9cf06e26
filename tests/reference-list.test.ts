/** The reference server's two operations: create and list validation, a group's round trip through the lagging snapshot, filters and paging. */
import { Client, CREATE, expect, expectError, expectSuccess, LIST, RFC3339_UTC, sleep, test } from './helpers/reference-client';

test.describe('CreateAssetGroup validation', () => {
  const emoji = '\u{1F600}'; // one code point, two UTF-16 units
  const rejected: Array<[string, unknown, RegExp]> = [
    ['missing Name', {}, /Name/],
    ['empty Name', { Name: '' }, /Name/],
    ['Name a number', { Name: 5 }, /Name/],
    ['Name null', { Name: null }, /Name/],
    ['Name an array', { Name: ['a'] }, /Name/],
    ['Name an object', { Name: {} }, /Name/],
    ['Name a boolean', { Name: true }, /Name/],
    ['Title a number', { Name: 'x', Title: 1 }, /Title/],
    ['Description a boolean', { Name: 'x', Description: false }, /Description/],
    ['GroupType a number', { Name: 'x', GroupType: 1 }, /GroupType/],
    ['ProjectName null', { Name: 'x', ProjectName: null }, /ProjectName/],
    ['Name of 65 characters', { Name: 'a'.repeat(65) }, /Name/],
    ['Name of 65 emoji', { Name: emoji.repeat(65) }, /Name/],
    ['Description of 301 characters', { Name: 'x', Description: 'd'.repeat(301) }, /Description/],
    ['Description of 301 emoji', { Name: 'x', Description: emoji.repeat(301) }, /Description/],
    ['GroupType lower case', { Name: 'x', GroupType: 'aigc' }, /GroupType/],
    ['GroupType unknown', { Name: 'x', GroupType: 'OTHER' }, /GroupType/],
    ['GroupType empty', { Name: 'x', GroupType: '' }, /GroupType/],
  ];
  test('invalid create bodies are a 400 AssetError whose Message names the field', async ({ ref }) => {
    for (const [label, body, names] of rejected) {
      await test.step(label, async () => {
        const r = await ref.create(body);
        expectError(r, 400, 'AssetError', CREATE);
        expect(r.json.ResponseMetadata.Error.Message).toMatch(names);
      });
    }
    expect(ref.server.stats().creates).toBe(0);
  });

  test('limits count code points, not UTF-16 units, and are inclusive', async ({ ref }) => {
    for (const body of [
      { Name: 'a'.repeat(64) },
      { Name: emoji.repeat(64) }, // 128 UTF-16 units
      { Name: 'x', Description: 'd'.repeat(300) },
      { Name: 'x', Description: emoji.repeat(300) },
      { Name: 'x', Title: 't'.repeat(1000), Description: '', ProjectName: '' },
    ]) {
      expectSuccess(await ref.create(body), CREATE);
    }
  });

  test('defaults: Title "", Description "", GroupType AIGC, ProjectName "default"; extra fields ignored', async ({ ref }) => {
    const id = await ref.createOk({ Name: 'defaults', Id: 'agp-chosen-by-client', AssetSpaceId: 'space-x', Extra: { a: 1 } });
    expect(id).not.toBe('agp-chosen-by-client');
    const [item] = (await ref.waitListed([id])).filter((i) => i.Id === id);
    expect(item).toMatchObject({ Name: 'defaults', Title: '', Description: '', GroupType: 'AIGC', ProjectName: 'default' });
    expect(item.AssetSpaceId).not.toBe('space-x');
  });
});

test.describe('ListAssetGroups validation', () => {
  const rejected: Array<[string, unknown]> = [
    ['PageNumber 0', { PageNumber: 0 }],
    ['PageNumber -1', { PageNumber: -1 }],
    ['PageNumber 1.5', { PageNumber: 1.5 }],
    ['PageNumber "1"', { PageNumber: '1' }],
    ['PageNumber null', { PageNumber: null }],
    ['PageNumber true', { PageNumber: true }],
    ['PageSize 0', { PageSize: 0 }],
    ['PageSize 101', { PageSize: 101 }],
    ['PageSize 2.5', { PageSize: 2.5 }],
    ['PageSize "10"', { PageSize: '10' }],
    ['PageSize null', { PageSize: null }],
    ['Filter a string', { Filter: 'x' }],
    ['Filter an array', { Filter: [] }],
    ['Filter null', { Filter: null }],
    ['Filter.AssetSpaceId a number', { Filter: { AssetSpaceId: 1 } }],
    ['Filter.GroupType null', { Filter: { GroupType: null } }],
    ['Filter.Name a number', { Filter: { Name: 5 } }],
    ['Filter.GroupIds a string', { Filter: { GroupIds: 'agp-x' } }],
    ['Filter.GroupIds an object', { Filter: { GroupIds: {} } }],
    ['Filter.GroupIds with a number', { Filter: { GroupIds: ['agp-x', 1] } }],
  ];
  test('wrong types and out-of-range paging are a 400 AssetBadRequest', async ({ ref }) => {
    for (const [label, body] of rejected) {
      await test.step(label, async () => expectError(await ref.list(body), 400, 'AssetBadRequest', LIST));
    }
  });

  test('boundary paging values and empty filters are accepted', async ({ ref }) => {
    for (const body of [
      {},
      { PageNumber: 1, PageSize: 1 },
      { PageSize: 100 },
      { PageNumber: 1e9 },
      { Filter: {} },
      { Filter: { GroupIds: [] } },
      { Other: 1 },
    ]) {
      expectSuccess(await ref.list(body), LIST);
    }
  });
});

test.describe('create then list', () => {
  test('a created group is listed with all its fields after the lag', async ({ ref }) => {
    const before = new Date();
    const body = { Name: 'Round Trip', Title: 'A title', Description: 'Some text', GroupType: 'AIGC', ProjectName: 'proj-1' };
    const id = await ref.createOk(body);
    const items = await ref.waitListed([id]);
    const after = new Date();
    expect(items).toHaveLength(1);
    const item = items[0];
    expect(Object.keys(item).sort()).toEqual(['AssetSpaceId', 'CreateTime', 'Description', 'GroupType', 'Id', 'Name', 'ProjectName', 'Title', 'UpdateTime']);
    expect(item).toMatchObject({ Id: id, ...body });
    expect(typeof item.AssetSpaceId).toBe('string');
    expect(item.AssetSpaceId.length).toBeGreaterThan(0);
    expect(item.CreateTime).toMatch(RFC3339_UTC);
    expect(item.UpdateTime).toBe(item.CreateTime);
    const created = Date.parse(item.CreateTime);
    expect(created).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(created).toBeLessThanOrEqual(after.getTime() + 1);
  });

  test.describe('with a long lag', () => {
    test.use({ refOptions: { lagMs: 2000 } });
    test('a new group is invisible before the next snapshot refresh, visible after it', async ({ ref }) => {
      const id = await ref.createOk({ Name: 'late' });
      const created = performance.now();
      const first = await ref.list({});
      expectSuccess(first, LIST);
      expect(first.json.Result.Items).toEqual([]);
      expect(first.json.Result.TotalCount).toBe(0);
      await sleep(100);
      expect(await ref.listIds({})).toEqual([]);
      await ref.waitListed([id]);
      expect(performance.now() - created).toBeLessThan(2000 + 500);
    });
  });

  test('the snapshot refreshes at start + k*lag (injected clock)', async ({ startReference }) => {
    let now = 0;
    const ref = new Client(await startReference({ lagMs: 2000, clock: () => now }), 2000);
    now = 10;
    const id = await ref.createOk({ Name: 'clocked' });
    expect(await ref.listIds({})).toEqual([]);
    now = 1999;
    expect(await ref.listIds({})).toEqual([]);
    now = 2000;
    expect(await ref.listIds({})).toEqual([id]);
    now = 2001;
    const id2 = await ref.createOk({ Name: 'clocked 2' });
    now = 3999;
    expect(await ref.listIds({})).toEqual([id]);
    now = 4000;
    expect(await ref.listIds({})).toEqual([id, id2]);
  });

  test.describe('with no lag', () => {
    test.use({ refOptions: { lagMs: 0 } });
    test('lagMs 0 lists a group at once', async ({ ref }) => {
      const id = await ref.createOk({ Name: 'now' });
      expect(await ref.listIds({})).toEqual([id]);
    });
  });
});

test.describe('filters', () => {
  test('each filter, alone and combined', async ({ ref }) => {
    const alphaOne = await ref.createOk({ Name: 'Alpha One' });
    const alphaTwo = await ref.createOk({ Name: 'alpha two' });
    const beta = await ref.createOk({ Name: 'Beta' });
    const alphaA = await ref.createOk({ Name: 'ALPHA on A' }, 'channelA');
    const gammaB = await ref.createOk({ Name: 'Gamma' }, 'channelB');
    const all = [alphaOne, alphaTwo, beta, alphaA, gammaB];
    const items = await ref.waitListed(all);
    const spaceOf = (id: string) => items.find((i) => i.Id === id).AssetSpaceId as string;
    const unboundSpace = spaceOf(alphaOne);
    expect(spaceOf(alphaA)).not.toBe(unboundSpace);
    expect(spaceOf(gammaB)).not.toBe(spaceOf(alphaA));

    const ids = (Filter: unknown) => ref.listIds({ Filter, PageSize: 100 });
    expect(await ids({})).toEqual(all);
    // AssetSpaceId: exact.
    expect(await ids({ AssetSpaceId: unboundSpace })).toEqual([alphaOne, alphaTwo, beta]);
    expect(await ids({ AssetSpaceId: spaceOf(alphaA) })).toEqual([alphaA]);
    expect(await ids({ AssetSpaceId: unboundSpace.toUpperCase() })).toEqual([]);
    expect(await ids({ AssetSpaceId: unboundSpace.slice(0, -1) })).toEqual([]);
    // GroupType: exact.
    expect(await ids({ GroupType: 'AIGC' })).toEqual(all);
    expect(await ids({ GroupType: 'aigc' })).toEqual([]);
    expect(await ids({ GroupType: 'OTHER' })).toEqual([]);
    // GroupIds: membership; an empty list does not filter.
    expect(await ids({ GroupIds: [beta, alphaOne] })).toEqual([alphaOne, beta]);
    expect(await ids({ GroupIds: [] })).toEqual(all);
    expect(await ids({ GroupIds: ['agp-does-not-exist'] })).toEqual([]);
    // Name: case-insensitive substring.
    expect(await ids({ Name: 'alpha' })).toEqual([alphaOne, alphaTwo, alphaA]);
    expect(await ids({ Name: 'PHA T' })).toEqual([alphaTwo]);
    expect(await ids({ Name: 'Beta' })).toEqual([beta]);
    expect(await ids({ Name: '' })).toEqual(all);
    expect(await ids({ Name: 'zeta' })).toEqual([]);
    // Combined: all must hold.
    expect(await ids({ Name: 'alpha', AssetSpaceId: unboundSpace })).toEqual([alphaOne, alphaTwo]);
    expect(await ids({ Name: 'alpha', GroupIds: [alphaA, beta] })).toEqual([alphaA]);
    // Unknown filter fields are ignored.
    expect(await ids({ Colour: 'red' })).toEqual(all);
    // TotalCount counts the matches, not the user's groups.
    const r = await ref.list({ Filter: { Name: 'alpha' }, PageSize: 1 });
    expect(r.json.Result.TotalCount).toBe(3);
    expect(r.json.Result.Items.map((i: any) => i.Id)).toEqual([alphaOne]);
  });
});

test.describe('paging', () => {
  test('pages tile the result in creation order: no gap, no overlap, empty past the end', async ({ ref }) => {
    const created: string[] = [];
    for (let i = 0; i < 12; i++) created.push(await ref.createOk({ Name: `page-${i}` }));
    await ref.waitListed(created);

    const defaults = await ref.list({});
    expect(defaults.json.Result).toMatchObject({ PageNumber: 1, PageSize: 10, TotalCount: 12 });
    expect(defaults.json.Result.Items.map((i: any) => i.Id)).toEqual(created.slice(0, 10));

    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await ref.list({ PageNumber: page, PageSize: 5 });
      expectSuccess(r, LIST);
      expect(r.json.Result).toMatchObject({ PageNumber: page, PageSize: 5, TotalCount: 12 });
      expect(r.json.Result.Items).toHaveLength(page < 3 ? 5 : 2);
      seen.push(...r.json.Result.Items.map((i: any) => i.Id));
    }
    expect(seen).toEqual(created);

    for (const PageNumber of [4, 1000, 1e9]) {
      const past = await ref.list({ PageNumber, PageSize: 5 });
      expect(past.json.Result).toEqual({ Items: [], TotalCount: 12, PageNumber, PageSize: 5 });
    }
    const one = await ref.list({ PageNumber: 12, PageSize: 1 });
    expect(one.json.Result.Items.map((i: any) => i.Id)).toEqual([created[11]]);
    const big = await ref.list({ PageSize: 100 });
    expect(big.json.Result.Items.map((i: any) => i.Id)).toEqual(created);
  });
});
