/** CREATE's checks, judged on recorded exchanges (cases of tests/checks/create.test.ts). */
import * as CREATE from '../../../suites/checks/create';
import type { Case } from '../case';
import { createdId, recorded, ref } from '../exchanges';
import { PADDED, SENT } from '../sent';

const DEFAULTS = { ProjectName: 'default' };
const alpha = createdId(ref('create'));
const padded = createdId(ref('createPadded'));
const ignoredProject = createdId(recorded('projectNameIgnored', 'create'));
const trimmed = createdId(recorded('trimsWhitespace', 'createPadded'));

export const CASES: Case[] = [
  { check: 'createdWithId', title: 'a 200 with Result.Id', judge: CREATE.createdWithId, exchange: ref('create'), fails: false },
  { check: 'createdWithId', title: 'a 201', judge: CREATE.createdWithId, exchange: recorded('createdWith201', 'create'), fails: true, expect: 'HTTP 201' },
  {
    check: 'createdWithId',
    title: 'an Id beside the envelope',
    judge: CREATE.createdWithId,
    exchange: recorded('createIdOutsideResult', 'create'),
    fails: true,
    expect: 'Result.Id undefined',
  },

  {
    check: 'distinctCreatedIds',
    title: 'three creates, three Ids',
    judge: CREATE.distinctCreatedIds,
    exchanges: [ref('create'), ref('create2'), ref('create3')],
    fails: false,
  },
  {
    check: 'distinctCreatedIds',
    title: "two channels' sequences",
    judge: CREATE.distinctCreatedIds,
    exchanges: [recorded('channelSequenceIds', 'createA'), recorded('channelSequenceIds', 'createB')],
    fails: true,
    expect: 'returned by more than one of 2 creates',
  },

  { check: 'itemMatchesSent', title: 'every field as sent', judge: CREATE.itemMatchesSent(alpha, SENT, DEFAULTS), exchange: ref('byIds'), fails: false },
  {
    check: 'itemMatchesSent',
    title: 'an omitted field as the profile’s default',
    judge: CREATE.itemMatchesSent(createdId(ref('create2')), { Name: 'unit beta', GroupType: 'AIGC' }, DEFAULTS),
    exchange: ref('byIds'),
    fails: false,
  },
  {
    check: 'itemMatchesSent',
    title: 'the ProjectName sent ignored',
    judge: CREATE.itemMatchesSent(ignoredProject, SENT, DEFAULTS),
    exchange: recorded('projectNameIgnored', 'byIds'),
    fails: true,
    expect: 'ProjectName "default" (sent "proj-unit")',
  },
  {
    check: 'itemMatchesSent',
    title: 'the group not listed',
    judge: CREATE.itemMatchesSent(alpha, SENT, DEFAULTS),
    exchange: ref('otherUser'),
    fails: true,
    expect: `no item with Id ${alpha}`,
  },

  { check: 'keepsEdgeWhitespace', title: 'edge whitespace kept', judge: CREATE.keepsEdgeWhitespace(padded, PADDED), exchange: ref('all'), fails: false },
  {
    check: 'keepsEdgeWhitespace',
    title: "a group not listed is itemMatchesSent's",
    judge: CREATE.keepsEdgeWhitespace(padded, PADDED),
    exchange: ref('otherUser'),
    fails: false,
  },
  {
    check: 'keepsEdgeWhitespace',
    title: 'the Name trimmed',
    judge: CREATE.keepsEdgeWhitespace(trimmed, PADDED),
    exchange: recorded('trimsWhitespace', 'byIds'),
    fails: true,
    expect: 'Name "unit padded" (sent " unit padded ")',
  },
];
