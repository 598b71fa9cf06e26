import { caseTests } from './case';
import { CASES } from './cases/env';

caseTests('ENV', CASES);
