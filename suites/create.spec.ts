import { test } from './fixtures';
import { declared } from './declare';
import { CREATE } from './families/create';

for (const group of CREATE) test.describe(group.describe, () => group.tests.forEach((t) => test(...declared(t))));
