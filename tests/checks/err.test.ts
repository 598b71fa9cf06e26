import { caseTests } from './case';
import { CASES } from './cases/err';

caseTests('ERR', CASES);
