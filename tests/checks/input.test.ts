import { caseTests } from './case';
import { CASES } from './cases/input';

caseTests('INPUT', CASES);
