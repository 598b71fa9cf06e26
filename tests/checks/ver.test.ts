import { caseTests } from './case';
import { CASES } from './cases/ver';

caseTests('VER', CASES);
