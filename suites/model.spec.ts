import fc from 'fast-check';
import { test, requirement, itemsOf, listBody, type Api, type Verify } from './fixtures';
import { checkProperty } from './property';
import { createdWithId, everyItem, isListResult, listsIncluding, pagingEchoes, totalCountIs, type Check } from './checks';
import type { Profile } from '../schemas/profile';

/**
 * Model-based: random sequences of creates and lists, checked against a model far simpler than
 * any server (a list of the groups this sequence created). Every list is confined to the model's
 * own Ids or names, so whatever else the target holds cannot disturb it.
 */
interface Model {
  groups: { id: string; name: string }[];
}

interface Real {
  api: Api;
  verify: Verify;
  profile: Profile;
  waitVisible: (id: string) => Promise<void>;
}

const MAX_GROUPS = 4;

class CreateGroup implements fc.AsyncCommand<Model, Real> {
  constructor(readonly label: string) {}
  check = (m: Readonly<Model>) => m.groups.length < MAX_GROUPS;
  async run(m: Model, r: Real): Promise<void> {
    const name = r.api.uniqueName(`m-${this.label}`);
    const { exchange } = await r.api.create({ Name: name, Title: 'Model probe', Description: '', GroupType: 'AIGC', ProjectName: 'default' });
    await r.verify(exchange, [createdWithId]);
    const id = (exchange.response!.json as { Result: { Id: string } }).Result.Id;
    await r.waitVisible(id);
    m.groups.push({ id, name });
  }
  toString = () => `CreateGroup(${this.label})`;
}

class ListByIds implements fc.AsyncCommand<Model, Real> {
  constructor(readonly picks: boolean[], readonly pageSize: number, readonly pageNumber: number) {}
  check = (m: Readonly<Model>) => m.groups.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const chosen = m.groups.filter((_, i) => this.picks[i % this.picks.length]).map((g) => g.id);
    const ids = chosen.length ? chosen : [m.groups[0].id];
    const exchange = await r.api.call('ListAssetGroups', listBody(r.profile, { groupIds: ids, pageSize: this.pageSize, pageNumber: this.pageNumber }));
    const expectedCount = Math.max(0, Math.min(this.pageSize, ids.length - (this.pageNumber - 1) * this.pageSize));
    const modelPageCount: Check = (ex) => {
      const got = itemsOf(ex).length;
      return got === expectedCount ? undefined : { check: 'modelPageCount', received: `${got} items`, documented: `${expectedCount} items: page ${this.pageNumber} of ${ids.length} matches at PageSize ${this.pageSize}`, fix: 'page through exactly the matching groups' };
    };
    await r.verify(exchange, [isListResult, pagingEchoes(this.pageNumber, this.pageSize), totalCountIs(ids.length), everyItem('Id is one of those asked for', (item) => ids.includes(item.Id as string), 'filtering by logical ID'), modelPageCount]);
  }
  toString = () => `ListByIds(picks=${JSON.stringify(this.picks)}, PageSize=${this.pageSize}, PageNumber=${this.pageNumber})`;
}

class ListByName implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.groups.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    const group = m.groups[this.index % m.groups.length];
    const exchange = await r.api.call('ListAssetGroups', listBody(r.profile, { name: group.name }));
    // A full, run-unique Name matches under both profile match modes.
    await r.verify(exchange, [isListResult, listsIncluding([group.id])]);
  }
  toString = () => `ListByName(${this.index})`;
}

test('PAGE-05 Lists agree with a simple model across creates, filters and pages (model-based)', requirement('PAGE-05'), async ({ api, verify, kit }, testInfo) => {
  const profile = kit.context.profile;
  const waitVisible = async (id: string) => {
    const deadline = Date.now() + kit.config.visibilityTimeoutMs;
    for (let delay = 100; ; delay = Math.min(Math.round(delay * 1.5), 2000)) {
      const listed = await api.call('ListAssetGroups', listBody(profile, { groupIds: [id] }));
      if (itemsOf(listed).some((item) => item.Id === id)) return;
      if (Date.now() > deadline) throw new Error(`group ${id} not visible within ${kit.config.visibilityTimeoutMs} ms; see VIS-01`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  const maxSize = Math.min(profile.list.pageSize.maximum, 5);
  const commands = fc.commands(
    [
      fc.constantFrom('a', 'b', 'c', 'd').map((label) => new CreateGroup(label)),
      fc.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: MAX_GROUPS }), fc.integer({ min: profile.list.pageSize.minimum, max: maxSize }), fc.integer({ min: 1, max: 3 })).map(([picks, size, page]) => new ListByIds(picks, size, page)),
      fc.nat(MAX_GROUPS).map((index) => new ListByName(index)),
    ],
    { maxCommands: 6 },
  );
  // Creates wait for visibility, so runs are few; each run still explores a fresh sequence.
  const numRuns = Math.max(2, Math.ceil(kit.config.numRuns / 5));
  await checkProperty(testInfo, kit.config, fc.asyncProperty(commands, async (cmds) => {
    // Every run creates and lists at least once: fc.commands may draw an empty sequence, and a run
    // that sends nothing would pass without having looked at the target.
    const sequence = [new CreateGroup('first'), ...cmds, new ListByIds([true], profile.list.pageSize.minimum, 1)];
    await fc.asyncModelRun(() => ({ model: { groups: [] } as Model, real: { api, verify, profile, waitVisible } }), sequence);
  }), { numRuns });
});
