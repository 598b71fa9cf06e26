/**
 * `agc profile discover` one setting at a time (every list.nameMatch), and where discovery has no
 * hints: refusals that name no bound (bisection), a lagging target, an Id filter of one Id, whole-Name
 * matching with the user's own groups around the run's. Each draft within the budget (tests/helpers/discover-harness.ts).
 */
import { test, expect } from '@playwright/test';
import { ONE_ID_FILTER } from '../../reference/profile-variants/list';
import { PROFILE_VARIANTS } from '../../reference/profile-variants';
import type { PreloadSettings } from '../../reference/store';
import { NAME_MATCHES } from '../../schemas/profile';
import { draftOf, evidenceOf, expectBoundsBacked, expectPagingFound, settings, TERSE } from '../helpers/discover-harness';

test.describe.configure({ mode: 'parallel' });

test.describe('one setting at a time, on servers of this file', () => {
  for (const nameMatch of NAME_MATCHES) {
    test(`list.nameMatch ${nameMatch} is drafted from a leading part, an inner part and their upper-cased forms`, async () => {
      test.setTimeout(60_000);
      const { drafted, text } = await draftOf(`match-${nameMatch}`, { list: { nameMatch } });
      expect(drafted.list.nameMatch).toBe(nameMatch);
      expect(evidenceOf(text, 'nameMatch', nameMatch)?.[0]).toMatch(/^# found: /);
    });
  }

  test('terse refusals and a UTF-16 unit: bounds and unit found with the creates the budget leaves', async () => {
    test.setTimeout(60_000);
    const { expected, drafted, text } = await draftOf('terse-utf16', { create: { lengthUnit: 'utf16' } }, TERSE);
    expect(settings(drafted)).toEqual(settings(expected));
    expectBoundsBacked(text, drafted);
  });
});

test.describe('discover without hints', () => {
  test('refusals that name no bound: lengths and the largest page are bisected within the budget', async () => {
    test.setTimeout(120_000);
    const { expected, drafted, text } = await draftOf('terse', {}, TERSE);
    expect(settings(drafted)).toEqual(settings(expected));
    expectBoundsBacked(text, drafted);
  });

  test('a lagging target: the Id filter is told apart from an ignored one by waiting, within the budget', async () => {
    test.setTimeout(120_000);
    // New groups show up only after 1.5 s, and the Id filter is not the first name tried: until
    // then an ignored filter and a working one both list nothing on this otherwise empty target.
    const variant = PROFILE_VARIANTS.find((v) => v.name === 'groupIdList')!;
    const { expected, drafted } = await draftOf('lag', variant.profile, undefined, { lagMs: 1500, env: { AG_VISIBILITY_TIMEOUT_MS: '10000' } });
    expect(settings(drafted)).toEqual(settings(expected));
  });

  test('an Id filter that takes one Id as a string: drafted as list.idFilterTakes: one; the other filters, where they sit and how the Name matches, found one group at a time', async () => {
    test.setTimeout(120_000);
    // As a Flask server built blind from the spec did: every filter at the top level, Id a string, found one group at a time.
    // Names and matching other than the reference's, so "found" means found.
    const { expected, drafted, text, stdout } = await draftOf(
      'oneIdFilter',
      {
        list: {
          filterField: '',
          nameMatch: 'case-insensitive-prefix',
          filters: { name: 'Keyword', groupType: 'Type', assetSpaceId: 'SpaceId' },
          pageNumber: { field: 'Page', pastEnd: 'last' },
          pageSize: { field: 'Size', aboveMaximum: 'clamp' },
        },
      },
      ONE_ID_FILTER,
      { lagMs: 800, env: { AG_VISIBILITY_TIMEOUT_MS: '10000' } },
    );
    expect(stdout).toContain('list.idFilterTakes = "one"');
    expect({
      filterField: drafted.list.filterField,
      nameMatch: drafted.list.nameMatch,
      idFilterTakes: drafted.list.idFilterTakes,
      filters: drafted.list.filters,
    }).toEqual({
      filterField: '',
      nameMatch: 'case-insensitive-prefix',
      idFilterTakes: 'one',
      filters: { groupIds: 'Id', name: 'Keyword', groupType: 'Type', assetSpaceId: 'SpaceId' },
    });
    for (const [key, value] of [
      ['filterField', '""'],
      ['groupIds', 'Id'],
      ['idFilterTakes', 'one'],
      ['name', 'Keyword'],
      ['groupType', 'Type'],
      ['assetSpaceId', 'SpaceId'],
      ['nameMatch', 'case-insensitive-prefix'],
    ])
      expect(evidenceOf(text, key, value)?.[0], `${key}: ${value} is drafted, as found`).toMatch(/^# found: /);
    // The length bounds are still found, after the Name filter and before the value filters in the budget.
    expect(evidenceOf(text, 'Name', '64')?.[0], 'create.maxLength.Name').toMatch(/^# found: /);
    // Paging needs several of the run's groups in one list: the Name part they share lists them, the Name filter matching a leading part.
    // Paging fields and bounds other than the reference's, so "found" means found.
    expectPagingFound(drafted, expected, text, [
      ['field', 'Size'],
      ['field', 'Page'],
      ['maximum', '100'],
      ['aboveMaximum', 'clamp'],
      ['pastEnd', 'last'],
    ]);
    expect(text).toContain('"Keyword":"agc-');
  });

  // As a Sinatra server built blind from the spec did, with paging fields and bounds other than the reference's, so "found" means found;
  // the user has 130 groups of its own besides the run's (other users 70), so its whole list runs to three pages of 50.
  const wholeName = { list: { nameMatch: 'exact', pageNumber: { field: 'Page' }, pageSize: { field: 'Size', maximum: 50, aboveMaximum: 'clamp' } } };
  const PRELOAD: PreloadSettings = { groups: 200, primaryShare: 0.65 };
  for (const pastEnd of ['empty', 'refuse', 'last'] as const) {
    test(`an Id filter of one Id and a Name filter of whole Names: the paging found through the user's whole list, a page past its end answered ${pastEnd} found by its TotalCount`, async () => {
      test.setTimeout(120_000);
      const override = { list: { ...wholeName.list, pageNumber: { ...wholeName.list.pageNumber, pastEnd } } };
      const { expected, drafted, text } = await draftOf(`oneIdExact-${pastEnd}`, override, ONE_ID_FILTER, { preload: PRELOAD });
      expect({ idFilterTakes: drafted.list.idFilterTakes, nameMatch: drafted.list.nameMatch }).toEqual({ idFilterTakes: 'one', nameMatch: 'exact' });
      expectPagingFound(drafted, expected, text, [
        ['field', 'Size'],
        ['field', 'Page'],
        ['maximum', '50'],
        ['aboveMaximum', 'clamp'],
        ['pastEnd', pastEnd],
      ]);
      // No filter at all: the user's list, which holds the run's groups and what else the user has.
      expect(text).toContain('# found: ListAssetGroups {"Size":1} -> HTTP 200, 1 item');
      // Paged by what the user has, not by the run's groups: page 5 is two past the last page of 50.
      expect(evidenceOf(text, 'pastEnd', pastEnd)?.join('\n')).toMatch(
        /"Page":5,"Size":50.*page 5 of 3 .*the user's whole list, 13\d group\(s\) in pages of 50/s,
      );
    });
  }
});
