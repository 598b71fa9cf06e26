import { caseTests } from './case';
import { CASES } from './cases/auth';

caseTests('AUTH', CASES);
