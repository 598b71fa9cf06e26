// The suites' longest chains of requests, each sent once the one before it is answered (PAGE-05's model runs): first of all
// the tests, so that they run beside the others instead of after them. Playwright hands tests to its workers in the order
// of their files' names (playwright.dev/docs/test-parallel#control-test-order), and this name sorts first.
import { test } from './fixtures';
import { declared } from './declare';
import { PAGE_CHAINS } from './families/page';

for (const group of PAGE_CHAINS) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
