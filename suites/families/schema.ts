/** SCHEMA: the family's declared tests. */
import type { TestGroup } from '../declare';

export const SCHEMA: readonly TestGroup[] = [];
