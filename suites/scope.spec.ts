import { test } from './fixtures';
import { declared } from './declare';
import { SCOPE } from './families/scope';

for (const group of SCOPE) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
