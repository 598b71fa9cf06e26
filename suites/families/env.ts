/** ENV: the family's declared tests. */
import type { TestGroup } from '../declare';

export const ENV: readonly TestGroup[] = [];
