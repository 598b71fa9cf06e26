/** What the mutants' and the variants' guards both ask of their names: each unique, in camelCase (it is a CLI value). */
import { expect } from '@playwright/test';

export function expectUniqueCamelCase(names: string[], kind: string): void {
  expect(
    names.filter((n, i) => names.indexOf(n) !== i),
    `duplicate ${kind} names`,
  ).toEqual([]);
  expect(
    names.filter((n) => !/^[a-z][A-Za-z0-9]*$/.test(n)),
    'names not camelCase',
  ).toEqual([]);
}
