/** The reference server honours every profile setting a target may choose (spec/profile.yaml): the servers the profile variants and discover are tested against. */
import type { ReferenceOptions, ReferenceServer } from '../reference/server';
import { profileFromOverride } from '../schemas/profile';
import { Client, CREATE, expect, expectError, expectSuccess, LIST, RFC3339_UTC, test } from './helpers/reference-client';

test.describe('profile settings the reference server honours', () => {
  /** A server with the reference profile plus `override`, and no lag. */
  const serve = async (startReference: (o: ReferenceOptions) => Promise<ReferenceServer>, override: Record<string, unknown>) =>
    new Client(await startReference({ lagMs: 0, profile: profileFromOverride(override, 'test') }), 0);

  test('list.nameMatch: each of the six matches as named', async ({ startReference }) => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['exact', { 'Alpha One': ['Alpha One'], 'alpha one': [], Alpha: [] }],
      ['case-insensitive-exact', { 'alpha one': ['Alpha One'], Alpha: [] }],
      ['substring', { pha: ['Alpha One', 'alpha two'], Alpha: ['Alpha One'], PHA: [] }],
      ['case-insensitive-substring', { PHA: ['Alpha One', 'alpha two'], one: ['Alpha One'] }],
      ['prefix', { Alpha: ['Alpha One'], alpha: ['alpha two'], pha: [] }],
      ['case-insensitive-prefix', { ALPHA: ['Alpha One', 'alpha two'], 'alpha t': ['alpha two'], one: [] }],
    ];
    for (const [nameMatch, queries] of cases) {
      await test.step(nameMatch, async () => {
        const ref = await serve(startReference, { list: { nameMatch } });
        const ids = new Map<string, string>();
        for (const Name of ['Alpha One', 'alpha two', 'Beta']) ids.set(await ref.createOk({ Name }), Name);
        for (const [query, names] of Object.entries(queries)) {
          const found = (await ref.listIds({ Filter: { Name: query } })).map((id) => ids.get(id));
          expect(found, `${nameMatch}: ${JSON.stringify(query)}`).toEqual(names);
        }
      });
    }
  });

  test('list.pageSize.aboveMaximum: refuse answers 400, clamp serves the maximum and says so', async ({ ref, startReference }) => {
    expectError(await ref.list({ PageSize: 101 }), 400, 'AssetBadRequest', LIST);
    const clamped = await serve(startReference, { list: { pageSize: { aboveMaximum: 'clamp' } } });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) created.push(await clamped.createOk({ Name: `clamp-${i}` }));
    for (const PageSize of [101, 1e9]) {
      const r = await clamped.list({ PageSize });
      expectSuccess(r, LIST);
      expect(r.json.Result).toMatchObject({ PageNumber: 1, PageSize: 100, TotalCount: 3 });
      expect(r.json.Result.Items.map((i: any) => i.Id)).toEqual(created);
    }
    // Only sizes above the maximum are clamped: other invalid sizes are still refused.
    for (const PageSize of [0, 101.5, '200']) expectError(await clamped.list({ PageSize }), 400, 'AssetBadRequest', LIST);
    expect((await clamped.list({ PageSize: 100 })).json.Result.PageSize).toBe(100);
  });

  test('list.pageNumber.pastEnd: last serves the last page with its own number; refuse answers 400', async ({ startReference }) => {
    const last = await serve(startReference, { list: { pageNumber: { pastEnd: 'last' } } });
    const refuse = await serve(startReference, { list: { pageNumber: { pastEnd: 'refuse' } } });
    for (const ref of [last, refuse]) {
      // Page 1 exists even when nothing matches.
      expect((await ref.list({ PageNumber: 1 })).json.Result).toEqual({ Items: [], TotalCount: 0, PageNumber: 1, PageSize: 10 });
    }
    expect((await last.list({ PageNumber: 3 })).json.Result).toEqual({ Items: [], TotalCount: 0, PageNumber: 1, PageSize: 10 });
    expectError(await refuse.list({ PageNumber: 2 }), 400, 'AssetBadRequest', LIST);

    const ids: Record<string, string[]> = { last: [], refuse: [] };
    for (let i = 0; i < 7; i++) {
      ids.last.push(await last.createOk({ Name: `last-${i}` }));
      ids.refuse.push(await refuse.createOk({ Name: `refuse-${i}` }));
    }
    for (const PageNumber of [4, 5, 1e9]) {
      const r = await last.list({ PageNumber, PageSize: 3 });
      expectSuccess(r, LIST);
      expect(r.json.Result).toMatchObject({ PageNumber: 3, PageSize: 3, TotalCount: 7 });
      expect(r.json.Result.Items.map((i: any) => i.Id)).toEqual(ids.last.slice(6));
      expectError(await refuse.list({ PageNumber, PageSize: 3 }), 400, 'AssetBadRequest', LIST);
    }
    // Pages up to the last one are served as usual.
    expect(await last.listIds({ PageNumber: 2, PageSize: 3 })).toEqual(ids.last.slice(3, 6));
    expect(await refuse.listIds({ PageNumber: 3, PageSize: 3 })).toEqual(ids.refuse.slice(6));
    // The past-end rule counts what the caller's filter matches, not every group.
    expectError(await refuse.list({ Filter: { Name: 'refuse-1' }, PageNumber: 2, PageSize: 1 }), 400, 'AssetBadRequest', LIST);
  });

  test('create.lengthUnit: bounds count code points (also unset), UTF-16 code units or UTF-8 bytes', async ({ ref, startReference }) => {
    const emoji = '\u{1F600}'; // 1 code point, 2 UTF-16 units, 4 UTF-8 bytes
    const e = '\u00e9'; // 1 code point, 1 UTF-16 unit, 2 UTF-8 bytes
    const cases: Array<[string, Client, Array<[string, boolean]>]> = [
      [
        'unset',
        ref,
        [
          [emoji.repeat(64), true],
          [emoji.repeat(65), false],
          [e.repeat(64), true],
        ],
      ],
      [
        'code-points',
        await serve(startReference, { create: { lengthUnit: 'code-points' } }),
        [
          [emoji.repeat(64), true],
          [emoji.repeat(65), false],
        ],
      ],
      [
        'utf16',
        await serve(startReference, { create: { lengthUnit: 'utf16' } }),
        [
          [emoji.repeat(32), true],
          [emoji.repeat(32) + 'a', false],
          [e.repeat(64), true],
          [e.repeat(65), false],
        ],
      ],
      [
        'bytes',
        await serve(startReference, { create: { lengthUnit: 'bytes' } }),
        [
          [emoji.repeat(16), true],
          [emoji.repeat(16) + 'a', false],
          [e.repeat(32), true],
          [e.repeat(32) + 'a', false],
          ['a'.repeat(64), true],
        ],
      ],
    ];
    for (const [unit, client, names] of cases) {
      await test.step(unit, async () => {
        for (const [Name, ok] of names) {
          const r = await client.create({ Name });
          if (ok) expectSuccess(r, CREATE);
          else expectError(r, 400, 'AssetError', CREATE);
        }
        // Description's bound (300) counts in the same unit.
        const over = unit === 'bytes' ? e.repeat(151) : unit === 'utf16' ? emoji.repeat(151) : emoji.repeat(301);
        expectError(await client.create({ Name: 'x', Description: over }), 400, 'AssetError', CREATE);
      });
    }
  });

  test('timestamps.format iso8601-utc: the reference server keeps writing RFC 3339 with Z', async ({ startReference }) => {
    const ref = await serve(startReference, { timestamps: { format: 'iso8601-utc' } });
    const id = await ref.createOk({ Name: 'ts' });
    const [item] = await ref.waitListed([id]);
    expect(item.CreateTime).toMatch(RFC3339_UTC);
  });
});
