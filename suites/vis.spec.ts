import { test } from './fixtures';
import { declared } from './declare';
import { VIS } from './families/vis';

for (const group of VIS) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
