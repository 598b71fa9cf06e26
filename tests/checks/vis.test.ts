import { caseTests } from './case';
import { CASES } from './cases/vis';

caseTests('VIS', CASES);
