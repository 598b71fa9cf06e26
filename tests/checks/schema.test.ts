import { caseTests } from './case';
import { CASES } from './cases/schema';

caseTests('SCHEMA', CASES);
