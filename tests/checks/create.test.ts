import { caseTests } from './case';
import { CASES } from './cases/create';

caseTests('CREATE', CASES);
