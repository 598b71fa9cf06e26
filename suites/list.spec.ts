import { test } from './fixtures';
import { declared } from './declare';
import { LIST } from './families/list';

for (const group of LIST) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
