import { test } from './fixtures';
import { declared } from './declare';
import { INPUT } from './families/input';

for (const group of INPUT) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
