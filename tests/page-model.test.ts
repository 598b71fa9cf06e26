import fc from 'fast-check';
import { test, expect } from '@playwright/test';
import { CreateGroup, drawsCreate } from '../suites/page-model';

// The model-based PAGE-05 test adds a create to a run only where fast-check drew none (suites/page-model.ts): each
// create leaves one more group on the target. fast-check wraps the commands it draws, so that must see through it.
test('the model tells a drawn create from none, through the wrappers fast-check puts around drawn commands', () => {
  const other = { check: () => true, run: async () => {}, toString: () => 'ListByIds(picks=[true], PageSize=1, PageNumber=1)' };
  const draw = (arbitraries: fc.Arbitrary<fc.AsyncCommand<object, unknown>>[]) =>
    fc.sample(
      fc.commands(arbitraries, { maxCommands: 3 }).filter((cmds) => [...cmds].length > 0),
      { numRuns: 20, seed: 1 },
    );
  const withCreates = draw([fc.constant(new CreateGroup('a') as unknown as fc.AsyncCommand<object, unknown>)]);
  expect(
    withCreates.map((cmds) => [...cmds][0] instanceof CreateGroup),
    'fast-check hands over wrappers, not the commands',
  ).toContain(false);
  expect(withCreates.map(drawsCreate)).toEqual(withCreates.map(() => true));
  const without = draw([fc.constant(other)]);
  expect(without.map(drawsCreate)).toEqual(without.map(() => false));
  expect(drawsCreate([])).toBe(false);
});
