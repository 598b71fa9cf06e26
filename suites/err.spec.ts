import { test } from './fixtures';
import { declared } from './declare';
import { ERR } from './families/err';

for (const group of ERR) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
