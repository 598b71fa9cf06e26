import { test } from './fixtures';
import { declared } from './declare';
import { ENV } from './families/env';

for (const group of ENV) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
