/**
 * suites/fixtures.ts replaces three of Playwright's browser fixtures with ones that do nothing (the
 * suites open no browser; set up for every test, they cost a third of a worker's CPU). Playwright
 * itself refuses an override whose `auto` differs from its own; what it cannot tell is a name that
 * no longer exists after an upgrade, which would silently bring the cost back. This test can.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { BROWSER_FIXTURES } from '../suites/fixtures';
import { ROOT } from './helpers/harness';

test("the browser fixtures the suites replace are still Playwright's own", () => {
  const playwright = readFileSync(path.join(ROOT, 'node_modules', 'playwright', 'lib', 'index.js'), 'utf8');
  const missing = BROWSER_FIXTURES.filter((name) => !new RegExp(`^  ${name}: \\[`, 'm').test(playwright));
  expect(missing, 'Playwright no longer registers these fixtures: find what replaced them and update suites/fixtures.ts').toEqual([]);
});
