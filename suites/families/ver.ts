/** VER: the family's declared tests. */
import type { TestGroup } from '../declare';

export const VER: readonly TestGroup[] = [];
