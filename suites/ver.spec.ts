import { test } from './fixtures';
import { declared } from './declare';
import { VER } from './families/ver';

for (const group of VER) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
