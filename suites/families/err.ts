/** ERR: the family's declared tests. */
import type { TestGroup } from '../declare';

export const ERR: readonly TestGroup[] = [];
