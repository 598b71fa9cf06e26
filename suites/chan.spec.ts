import { test } from './fixtures';
import { declared } from './declare';
import { CHAN } from './families/chan';

for (const group of CHAN) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
