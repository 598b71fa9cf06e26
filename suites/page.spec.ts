import { test } from './fixtures';
import { declared } from './declare';
import { PAGE } from './families/page';

for (const group of PAGE) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
