import { test } from './fixtures';
import { declared } from './declare';
import { AUTH } from './families/auth';

for (const group of AUTH) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
