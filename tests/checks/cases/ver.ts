/** VER's checks, judged on recorded exchanges (cases of tests/checks/ver.test.ts). */
import * as VER from '../../../suites/checks/ver';
import type { Case } from '../case';
import { recorded, ref } from '../exchanges';

export const CASES: Case[] = [
  { check: 'echoesVersion', title: 'an unsupported Version echoed on its error', judge: VER.echoesVersion, exchange: ref('otherVersion'), fails: false },
  { check: 'echoesVersion', title: 'a success', judge: VER.echoesVersion, exchange: ref('all'), fails: false },
  {
    check: 'echoesVersion',
    title: 'a 401 with Version ""',
    judge: VER.echoesVersion,
    exchange: recorded('authErrorsWithoutVersion', 'noToken'),
    fails: true,
    expect: 'Version "" for a request sent with Version "2024-01-01"',
  },
  { check: 'echoesAction', title: 'an unknown Action echoed on its error', judge: VER.echoesAction, exchange: ref('unknownAction'), fails: false },
  {
    check: 'echoesAction',
    title: 'Action with a Response suffix',
    judge: VER.echoesAction,
    exchange: recorded('actionWithResponseSuffix', 'all'),
    fails: true,
    expect: '"ListAssetGroupsResponse"',
  },
];
