import { caseTests } from './case';
import { CASES } from './cases/preconditions';

caseTests('preconditions', CASES);
