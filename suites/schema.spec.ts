import { test } from './fixtures';
import { declared } from './declare';
import { SCHEMA } from './families/schema';

for (const group of SCHEMA) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
