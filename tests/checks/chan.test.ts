import { caseTests } from './case';
import { CASES } from './cases/chan';

caseTests('CHAN', CASES);
